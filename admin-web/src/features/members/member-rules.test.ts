import { describe, expect, it } from '@jest/globals';
import { assignableRoles, canResetSignIn, describeAccess, memberActions } from './member-rules.js';

describe('memberActions', () => {
  const owner = { id: 'o', role: 'owner' as const, status: 'active' as const, ssoLinked: false };
  const admin = { id: 'a', role: 'admin' as const, status: 'active' as const, ssoLinked: false };
  const member = { id: 'm', role: 'member' as const, status: 'active' as const, ssoLinked: false };
  const all = { changeAccess: true, disable: true, remove: true, invitation: false, unlinkSso: false };

  it('offers an admin nothing on an owner, invited or not, and everything on admins and members', () => {
    const nothing = { changeAccess: false, disable: false, remove: false, invitation: false, unlinkSso: false };
    expect(memberActions(admin, owner)).toEqual(nothing);
    expect(memberActions(admin, { ...owner, id: 'p', status: 'invited' })).toEqual(nothing);
    expect(memberActions(admin, member)).toEqual(all);
    expect(memberActions(admin, { ...admin, id: 'b' })).toEqual(all);
    expect(memberActions(owner, { ...owner, id: 'p' })).toEqual(all);
  });

  it('lets nobody change their own access, disable or remove themselves from the list', () => {
    const own = { changeAccess: false, disable: false, remove: false, invitation: false, unlinkSso: false };
    expect(memberActions(owner, owner)).toEqual(own);
    expect(memberActions(admin, admin)).toEqual(own);
  });

  it('offers resend and revoke, not disable or remove, on an invited member', () => {
    expect(memberActions(admin, { ...member, status: 'invited' })).toEqual({
      changeAccess: true,
      disable: false,
      remove: false,
      invitation: true,
      unlinkSso: false,
    });
  });

  it('offers unlinking single sign-on to owners only, for a member linked to an account at the provider', () => {
    const linked = { ...member, ssoLinked: true };
    expect(memberActions(owner, linked).unlinkSso).toBe(true);
    expect(memberActions(owner, { ...owner, ssoLinked: true }).unlinkSso).toBe(true);
    expect(memberActions(owner, member).unlinkSso).toBe(false);
    expect(memberActions(admin, linked).unlinkSso).toBe(false);
  });

  it('offers the owner role to owners only', () => {
    expect(assignableRoles('owner')).toEqual(['owner', 'admin', 'member']);
    expect(assignableRoles('admin')).toEqual(['admin', 'member']);
  });
});

describe('describeAccess', () => {
  it('says every site for owners and admins, and names a member’s sites with their level', () => {
    expect(describeAccess('admin', [])).toBe('Every site');
    expect(describeAccess('member', [])).toBe('No sites');
    expect(
      describeAccess('member', [
        { level: 'read', site: { name: 'Shop' } },
        { level: 'manage', site: { name: 'Blog' } },
      ]),
    ).toBe('Shop (read), Blog (manage)');
  });
});

describe('canResetSignIn', () => {
  const owner = { id: 'o', role: 'owner' as const, status: 'active' as const };
  const admin = { id: 'a', role: 'admin' as const, status: 'active' as const };
  const member = { id: 'm', role: 'member' as const, status: 'active' as const };

  it('lets an owner reset anyone active but themselves, and an admin members only', () => {
    expect(canResetSignIn(owner, { ...owner, id: 'p' })).toBe(true);
    expect(canResetSignIn(owner, admin)).toBe(true);
    expect(canResetSignIn(owner, owner)).toBe(false);
    expect(canResetSignIn(admin, member)).toBe(true);
    expect(canResetSignIn(admin, { ...admin, id: 'b' })).toBe(false);
    expect(canResetSignIn(admin, owner)).toBe(false);
    expect(canResetSignIn(owner, { ...member, status: 'invited' })).toBe(false);
    expect(canResetSignIn(member, { ...member, id: 'n' })).toBe(false);
  });
});
