// The console's session cookie, read and written through Koa's `cookies`. HttpOnly (no script can
// read it), SameSite=Strict (no other site's page sends it), Path=/ and Secure when the console is
// served over https: directly, through a trusted proxy's X-Forwarded-Proto, or as the public address says.
import { adminIsHttps, type PublicUrlConfig } from '@intake/shared/public-urls';
import type { AdminKoaContext } from '../../koa-context.js';

export const SESSION_COOKIE = 'intake_session';

export interface SessionCookie {
  read(): string | undefined;
  set(secret: string, expiresAt: Date): void;
  clear(): void;
}

export function sessionCookie(ctx: AdminKoaContext, config: PublicUrlConfig): SessionCookie {
  const secure = ctx.secure || adminIsHttps(config);
  const write = (value: string | null, expires: Date | undefined): void => {
    // Koa refuses a Secure cookie on a plain connection unless told the client side is https.
    ctx.cookies.secure = secure;
    ctx.cookies.set(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: '/',
      overwrite: true,
      ...(expires === undefined ? {} : { expires }),
    });
  };
  return {
    read: () => ctx.cookies.get(SESSION_COOKIE) || undefined,
    set: (secret, expiresAt) => write(secret, expiresAt),
    clear: () => write(null, undefined),
  };
}
