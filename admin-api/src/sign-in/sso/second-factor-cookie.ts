// Between single sign-on and the second factor: the callback keeps the challenge in an HttpOnly
// cookie for the console's sign-in page, which reads it through `ssoSecondFactor` (never from a URL,
// so it is in no history, log or Referer). SameSite=Strict and Path=/graphql: only the console's own
// requests carry it; it lasts as long as the challenge (5 minutes), which is single use anyway.
import { adminIsHttps, type PublicUrlConfig } from '@intake/shared/public-urls';
import type { AdminKoaContext } from '../../koa-context.js';

export const SSO_SECOND_FACTOR_COOKIE = 'intake_sso_second_factor';
const PATH = '/graphql';

export interface SecondFactorCookie {
  read(): string | undefined;
  set(challenge: string, expiresAt: Date): void;
}

export function secondFactorCookie(ctx: AdminKoaContext, config: PublicUrlConfig): SecondFactorCookie {
  const secure = ctx.secure || adminIsHttps(config);
  return {
    read: () => ctx.cookies.get(SSO_SECOND_FACTOR_COOKIE) || undefined,
    set(challenge, expiresAt) {
      ctx.cookies.secure = secure;
      ctx.cookies.set(SSO_SECOND_FACTOR_COOKIE, challenge, {
        httpOnly: true,
        sameSite: 'strict',
        secure,
        path: PATH,
        overwrite: true,
        expires: expiresAt,
      });
    },
  };
}
