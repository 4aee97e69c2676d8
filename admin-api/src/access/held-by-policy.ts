// A member held by the team's rule (a second factor required) keeps at least one: turning the last
// one off would leave them signed in with nothing but the enrolment page, and the next sign-in would
// ask for a factor they no longer have. They add another (a passkey, codes) first, or an owner lifts the rule.
import type { Em } from '@intake/shared/db';
import { PasskeySchema } from '@intake/shared/entities';
import { forbidden } from '../errors.js';
import { teamRequiresSecondFactor } from './principal.js';

export async function requireFactorLeftWhenHeld(
  em: Em,
  adminId: string,
  after: { totp: boolean; passkeysRemoved: number },
): Promise<void> {
  const passkeysLeft = (await em.count(PasskeySchema, { admin: adminId })) - after.passkeysRemoved;
  if (after.totp || passkeysLeft > 0 || !(await teamRequiresSecondFactor(em))) {
    return;
  }
  throw forbidden(
    'Your team requires two-factor sign-in: add another second factor (a passkey or an authenticator app) before you remove your last one',
  );
}
