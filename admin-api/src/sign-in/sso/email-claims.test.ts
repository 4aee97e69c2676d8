// The e-mail rules of email-claims.ts on the answers providers send. The provider-driven cases are
// played over HTTP in sso-provider-account.test.ts; these are the shapes a loopback provider on
// plain http cannot reach (there the userinfo answer is never read).
import { emailClaimsOf, needsUserInfo } from './email-claims.js';

describe('emailClaimsOf', () => {
  it.each([
    [
      { email: 'Ada@Example.com', email_verified: true },
      { email: 'ada@example.com', verified: true },
    ],
    [
      { email: 'ada@example.com', email_verified: false },
      { email: 'ada@example.com', verified: false },
    ],
    [
      { email: 'ada@example.com', email_verified: 'true' },
      { email: 'ada@example.com', verified: false },
    ],
    [
      { email: 'ada@example.com', email_verified: 1 },
      { email: 'ada@example.com', verified: false },
    ],
    [
      { email: 'ada@example.com', xms_edov: true },
      { email: 'ada@example.com', verified: true },
    ],
    [
      { email: 'ada@example.com', xms_edov: 'true' },
      { email: 'ada@example.com', verified: false },
    ],
    [
      { email: 'ada@example.com', email_verified: false, xms_edov: true },
      { email: 'ada@example.com', verified: false },
    ],
    [{ email_verified: true }, { email: '', verified: false }],
    [
      { email: 42, email_verified: true },
      { email: '', verified: false },
    ],
  ])('reads %j as %j', (claims, expected) => {
    expect(emailClaimsOf(claims)).toEqual(expected);
  });
});

describe('needsUserInfo', () => {
  it('asks the userinfo answer for both when the ID token lacks the address or its verification', () => {
    expect(needsUserInfo({ sub: 'a' })).toBe(true);
    expect(needsUserInfo({ email: 'ada@example.com' })).toBe(true);
    expect(needsUserInfo({ email_verified: true })).toBe(true);
  });

  it('keeps to the ID token when it says both, whatever it says', () => {
    expect(needsUserInfo({ email: 'ada@example.com', email_verified: true })).toBe(false);
    expect(needsUserInfo({ email: 'ada@example.com', email_verified: 'true' })).toBe(false);
    expect(needsUserInfo({ email: 'ada@example.com', xms_edov: false })).toBe(false);
  });
});
