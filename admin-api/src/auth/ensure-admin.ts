// Start-up bootstrap: when ADMIN_EMAIL and ADMIN_PASSWORD are set and that admin does not exist,
// create it. Idempotent and safe when two processes start at once: the unique e-mail decides, and
// the loser of the race sees the unique violation and leaves the winner's row alone.
import { AdminUserSchema } from '@intake/shared/entities';
import { hashPassword } from '@intake/shared/password';
import type { Services } from '@intake/shared/services';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { normalizeEmail } from './login-policy.js';
import { PASSWORD_MIN_LENGTH } from '../validation/fields.js';

export type EnsureAdminResult = 'created' | 'exists' | 'not-configured';

export async function ensureAdmin(services: Services): Promise<EnsureAdminResult> {
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
  em.create(AdminUserSchema, { email, passwordHash: await hashPassword(config.admin.password) });
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
