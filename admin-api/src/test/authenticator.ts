// An authenticator app for tests of other workspaces: the code a TOTP secret (as startTwoFactorEnrolment answers it) shows.
import { Secret, TOTP } from 'otpauth';

const STEP_MS = 30_000;

/** The code an app shows `offsetSteps` steps from now. */
export function authenticatorCode(secret: string, offsetSteps = 0): string {
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return app.generate({ timestamp: Date.now() + offsetSteps * STEP_MS });
}
