// Start-up bootstrap: when ADMIN_EMAIL and ADMIN_PASSWORD are set and that admin does not exist,
// create it as an owner. Idempotent and safe when two processes start at once: the unique e-mail
// decides, and the loser of the race sees the unique violation and leaves the winner's row alone.
// Then the team always has an owner: when none exists, the ADMIN_EMAIL account (else the oldest
// account) becomes one, so a team is never left without someone who may manage it.
import type { Em } from '@intake/shared/db';
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import type { Services } from '@intake/shared/services';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { normalizeEmail } from './login-policy.js';
import { PASSWORD_MIN_LENGTH } from '../validation/fields.js';

export type EnsureAdminResult = 'created' | 'exists' | 'not-configured';

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
  if ((await em.count(AdminUserSchema, { email })) > 0) {
    return 'exists';
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

/** When no active owner exists, the ADMIN_EMAIL account, else the oldest account, becomes an active owner. */
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
  // A plain update: two processes starting at once make the same account the owner.
  await em.nativeUpdate(AdminUserSchema, { id: chosen.id }, { role: 'owner', status: 'active' });
  services.logger.info({ email: chosen.email }, 'no active owner: this account was made the owner');
}
