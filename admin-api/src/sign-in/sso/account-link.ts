// The account at the OpenID provider a member is linked to: set at their first sign-in through the
// provider (issuer and subject, which stay when the account's e-mail changes), then required. Another
// account naming the member's e-mail (renamed, re-issued, a second tenant) is refused, and one account
// signs in as one member only, until an owner unlinks (unlink-sso-account.ts).
import type { Em } from '@intake/shared/db';
import { AdminUserSchema, type AdminUser } from '@intake/shared/entities';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { SsoSignInError } from './sign-in-failure.js';

/** The provider's `iss` and `sub`: who the person is at the provider, whatever their e-mail. */
export interface ProviderAccount {
  issuer: string;
  subject: string;
}

function linkedTo(member: Pick<AdminUser, 'ssoIssuer' | 'ssoSubject'>, account: ProviderAccount): boolean {
  return member.ssoIssuer === account.issuer && member.ssoSubject === account.subject;
}

/** `sso_account_mismatch` unless the account may sign in as `member` (null: a member yet to be made). */
export async function requireAccountOf(em: Em, member: AdminUser | null, account: ProviderAccount): Promise<void> {
  if (member !== null && member.ssoSubject && !linkedTo(member, account)) {
    throw new SsoSignInError('sso_account_mismatch');
  }
  const holder = await em.findOne(
    AdminUserSchema,
    { ssoIssuer: account.issuer, ssoSubject: account.subject },
    { fields: ['id'] },
  );
  if (holder !== null && holder.id !== member?.id) {
    throw new SsoSignInError('sso_account_mismatch');
  }
}

/** Links an unlinked member to the account; `sso_account_mismatch` when, meanwhile, it or the account was linked otherwise. */
export async function linkAccount(em: Em, memberId: string, account: ProviderAccount): Promise<void> {
  try {
    await em.nativeUpdate(
      AdminUserSchema,
      { id: memberId, ssoSubject: null },
      { ssoIssuer: account.issuer, ssoSubject: account.subject },
    );
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new SsoSignInError('sso_account_mismatch');
    }
    throw error;
  }
  const member = await em.findOne(
    AdminUserSchema,
    { id: memberId },
    { fields: ['ssoIssuer', 'ssoSubject'], refresh: true },
  );
  if (member === null || !linkedTo(member, account)) {
    throw new SsoSignInError('sso_account_mismatch');
  }
}
