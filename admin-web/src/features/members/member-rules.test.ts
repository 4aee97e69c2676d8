import { describe, expect, it } from '@jest/globals';
import { assignableRoles, describeAccess, memberActions } from './member-rules.js';

describe('memberActions', () => {
  const owner = { id: 'o', role: 'owner' as const };
  const admin = { id: 'a', role: 'admin' as const };
  const member = { id: 'm', role: 'member' as const };

  it('offers an admin nothing on an owner, and everything on admins and members', () => {
    expect(memberActions(admin, owner)).toEqual({ changeAccess: false, disable: false, remove: false });
    expect(memberActions(admin, member)).toEqual({ changeAccess: true, disable: true, remove: true });
    expect(memberActions(admin, { id: 'b', role: 'admin' })).toEqual({
      changeAccess: true,
      disable: true,
      remove: true,
    });
    expect(memberActions(owner, { id: 'p', role: 'owner' })).toEqual({
      changeAccess: true,
      disable: true,
      remove: true,
    });
  });

  it('lets nobody disable or remove themselves from the list', () => {
    expect(memberActions(owner, owner)).toEqual({ changeAccess: true, disable: false, remove: false });
    expect(memberActions(admin, admin)).toEqual({ changeAccess: true, disable: false, remove: false });
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
