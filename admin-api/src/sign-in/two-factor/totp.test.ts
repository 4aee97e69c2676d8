// The code check on its own, at chosen instants: the current step and one step either side are
// accepted (clock drift), two steps away is not; a malformed code is never a code.
import { Secret, TOTP } from 'otpauth';
import { generateTotpSecret, normalizeTotpCode, totpStep, totpUri } from './totp.js';

const STEP_MS = 30_000;

describe('TOTP codes', () => {
  const secret = generateTotpSecret();
  const app = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  // The middle of a step, so "now" is not at an edge.
  const now = new Date(Math.floor(Date.now() / STEP_MS) * STEP_MS + STEP_MS / 2);
  const step = Math.floor(now.getTime() / STEP_MS);
  const codeAt = (offsetSteps: number) => app.generate({ timestamp: now.getTime() + offsetSteps * STEP_MS });

  it('accepts the current code and a code one step early or late, answering its step', () => {
    expect(totpStep(secret, codeAt(0), now)).toBe(step);
    expect(totpStep(secret, codeAt(-1), now)).toBe(step - 1);
    expect(totpStep(secret, codeAt(1), now)).toBe(step + 1);
  });

  it('refuses a code two steps late or early', () => {
    expect(totpStep(secret, codeAt(-2), now)).toBeNull();
    expect(totpStep(secret, codeAt(2), now)).toBeNull();
  });

  it('refuses a wrong code and anything that is not six digits; spaces as apps show them are fine', () => {
    const right = codeAt(0);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(totpStep(secret, wrong, now)).toBeNull();
    expect(totpStep(secret, `${right.slice(0, 3)} ${right.slice(3)}`, now)).toBe(step);
    expect(normalizeTotpCode('12345')).toBeNull();
    expect(normalizeTotpCode('12345a')).toBeNull();
    expect(normalizeTotpCode('1234567')).toBeNull();
  });

  it('writes an otpauth URI an app reads: issuer, the e-mail, SHA1, 6 digits, 30 s', () => {
    const uri = new URL(totpUri(secret, 'ada@example.com'));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host + decodeURIComponent(uri.pathname)).toBe('totp/Intake:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      issuer: 'Intake',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
