// What one single sign-on attempt must remember between /auth/oidc/start and the callback: the
// state, the nonce and the PKCE verifier. Kept in the browser, not in the database: a short-lived
// HttpOnly cookie sealed with AES-256-GCM under a key derived from TOKEN_ENCRYPTION_KEY (the same
// box as webhook secrets), so the browser can neither read nor change it, and nothing is stored for
// the attempts people start and never finish. SameSite=Lax, because the provider's redirect back
// to the callback is a top-level navigation from another site, which a Strict cookie would miss.
import { createSecretBox } from '@intake/shared/delivery';
import type { AdminKoaContext } from '../../koa-context.js';

export const FLOW_COOKIE = 'intake_oidc_flow';
/** Time to sign in at the provider. */
export const FLOW_TTL_SECONDS = 10 * 60;
const PATH = '/auth/oidc';
const MAX_COOKIE_LENGTH = 2048;

export interface SsoFlow {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** Where to go after signing in (a console path). */
  next: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface FlowCookies {
  write(ctx: AdminKoaContext, flow: Omit<SsoFlow, 'expiresAt'>, now?: Date): void;
  /** The unexpired flow of this browser, or null (missing, tampered with, expired). */
  read(ctx: AdminKoaContext, now?: Date): SsoFlow | null;
  clear(ctx: AdminKoaContext): void;
}

function isFlow(value: unknown): value is SsoFlow {
  const flow = value as Partial<SsoFlow> | null;
  return (
    typeof flow === 'object' &&
    flow !== null &&
    typeof flow.state === 'string' &&
    typeof flow.nonce === 'string' &&
    typeof flow.codeVerifier === 'string' &&
    typeof flow.next === 'string' &&
    typeof flow.expiresAt === 'number'
  );
}

export function createFlowCookies(tokenEncryptionKey: Buffer, publicHttps: boolean): FlowCookies {
  const box = createSecretBox(tokenEncryptionKey, 'intake oidc flow');
  const set = (ctx: AdminKoaContext, value: string | null, expires?: Date) => {
    const secure = ctx.secure || publicHttps;
    ctx.cookies.secure = secure;
    ctx.cookies.set(FLOW_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure,
      path: PATH,
      overwrite: true,
      ...(expires === undefined ? {} : { expires }),
    });
  };
  return {
    write(ctx, flow, now = new Date()) {
      const expiresAt = now.getTime() + FLOW_TTL_SECONDS * 1000;
      set(ctx, box.seal(JSON.stringify({ ...flow, expiresAt })), new Date(expiresAt));
    },
    read(ctx, now = new Date()) {
      const sealed = ctx.cookies.get(FLOW_COOKIE);
      if (!sealed || sealed.length > MAX_COOKIE_LENGTH) {
        return null;
      }
      let flow: unknown;
      try {
        flow = JSON.parse(box.open(sealed));
      } catch {
        return null;
      }
      return isFlow(flow) && flow.expiresAt > now.getTime() ? flow : null;
    },
    clear(ctx) {
      set(ctx, null);
    },
  };
}
