// The admin's and the gateway's public origins for the link being written now. The kernel decides
// (shared/src/public-urls); this adds the request being answered, so that with nothing configured a
// link goes to the address the person used, never to the loopback address the admin listens on.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Config } from '@intake/shared/config';
import { publicOrigins, type Observed, type PublicOrigins } from '@intake/shared/public-urls';
import type { Next } from 'koa';
import type { AdminKoaContext } from '../koa-context.js';

const requestOrigins = new AsyncLocalStorage<string>();

/** Middleware: the rest of the request sees the origin it was made to (Koa reads X-Forwarded-* only through a trusted proxy). */
export function rememberRequestOrigin(ctx: AdminKoaContext, next: Next): Promise<void> {
  return requestOrigins.run(`${ctx.protocol}://${ctx.host}`, next);
}

/** The origins now: inside a request with its origin, outside (the start line) from the configuration. */
export function currentPublicOrigins(config: Config, observedPorts: Omit<Observed, 'requestOrigin'>): PublicOrigins {
  const requestOrigin = requestOrigins.getStore();
  return publicOrigins(config, { ...observedPorts, ...(requestOrigin === undefined ? {} : { requestOrigin }) });
}
