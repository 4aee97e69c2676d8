// Start-up bootstrap: when ADMIN_EMAIL and ADMIN_PASSWORD are set and the team has no member at
// all, create that account as the first owner (an account removed later is not brought back by the
// .env password at the next start). Safe when two processes start at once: the unique e-mail
// decides. Then the team always has an owner: when none is active, the ADMIN_EMAIL account (else
// the oldest account) becomes one, recorded in the audit log as done by the `start-up`.
import { recordAuditEntry, systemActor } from '@intake/shared/audit';
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import type { Services } from '@intake/shared/services';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { normalizeEmail } from '../../access/login-policy.js';
import { PASSWORD_MIN_LENGTH } from '../../validation/fields.js';

/** `members-exist`: ADMIN_EMAIL names no account, and the team has members, so none is made. */
export type EnsureAdminResult = 'created' | 'exists' | 'members-exist' | 'not-configured';

const START_UP_ACTOR = systemActor('start-up');

export async function ensureAdmin(services: Services): Promise<EnsureAdminResult> {
  const result = await createConfiguredAdmin(services);
  await ensureOwner(services);
  return result;
}

async function createConfiguredAdmin(services: Services): Promise<EnsureAdminResult> {
  const { config, logger } = services;
  if (config.admin === undefined) {
    return 'not-configured';
  }
  const email = normalizeEmail(config.admin.email);
  const em = services.db.em.fork();
  // The team first, then the e-mail: a process that loses the race to create it answers `exists`.
  if ((await em.count(AdminUserSchema, {})) > 0) {
    if ((await em.count(AdminUserSchema, { email })) > 0) {
      return 'exists';
    }
    // Never the password: only why the .env account is not there.
    logger.info(
      { email },
      'ADMIN_EMAIL account not created: the team already has members (an owner invites it, or it was removed on purpose)',
    );
    return 'members-exist';
  }
  if ([...config.admin.password].length < PASSWORD_MIN_LENGTH) {
    logger.warn(
      { email },
      `ADMIN_PASSWORD is shorter than ${PASSWORD_MIN_LENGTH} characters; change it after logging in`,
    );
  }
  em.create(AdminUserSchema, {
    email,
    passwordHash: await hashPassword(config.admin.password),
    role: 'owner',
    status: 'active',
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      return 'exists';
    }
    throw error;
  }
  logger.info({ email }, 'admin created');
  return 'created';
}

/**
 * When no active owner exists, the ADMIN_EMAIL account, else the oldest account, becomes an active
 * owner (`member.madeOwner` by the `start-up`, with the role and status it had).
 */
async function ensureOwner(services: Services): Promise<void> {
  const em: Em = services.db.em.fork();
  if ((await em.count(AdminUserSchema, { role: 'owner', status: 'active' })) > 0) {
    return;
  }
  const configured = services.config.admin === undefined ? null : normalizeEmail(services.config.admin.email);
  const chosen =
    (configured === null ? null : await em.findOne(AdminUserSchema, { email: configured })) ??
    (await em.find(AdminUserSchema, {}, { orderBy: { createdAt: 'asc', id: 'asc' }, limit: 1 }))[0] ??
    null;
  if (chosen === null) {
    return;
  }
  // Two processes starting at once make the same account the owner; each records what it did.
  await em.transactional(async (tx) => {
    await tx.nativeUpdate(AdminUserSchema, { id: chosen.id }, { role: 'owner', status: 'active' });
    await recordAuditEntry(tx, services.auditChain, {
      actor: START_UP_ACTOR,
      action: 'member.madeOwner',
      objectType: 'Member',
      objectId: chosen.id,
      details: { email: chosen.email, fromRole: chosen.role, fromStatus: chosen.status },
      outcome: 'success',
    });
  });
  services.logger.info({ email: chosen.email }, 'no active owner: this account was made the owner');
}
