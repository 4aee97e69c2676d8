// Every code a member types (at sign-in, to confirm enrolment, to turn it off) counts against the
// `second-factor` limit of that member, from any address; a right code gives its attempt back.
import type { Attempt } from '../../access/attempt-limiter.js';
import type { LoginLimit } from '../../access/login-policy.js';
import type { AdminDeps } from '../../context.js';
import { rateLimited } from '../../errors.js';

export function secondFactorAttempt(adminId: string): Attempt<LoginLimit> {
  return { limit: 'second-factor', key: adminId };
}

/** Counts one attempt against every key, or RATE_LIMITED when one is over its limit. */
export async function countCodeAttempt(deps: AdminDeps, attempts: readonly Attempt<LoginLimit>[]): Promise<void> {
  const decision = await deps.loginAttempts.consume(attempts);
  if (!decision.allowed) {
    throw rateLimited(decision.retryAfterSeconds);
  }
}
