import type { Services } from '../services/index.js';

/** What the answer needs of a Koa context (typed here so the kernel does not depend on Koa). */
export interface JwksContext {
  type: string;
  body: unknown;
  set(field: string, value: string): void;
}

/**
 * GET /.well-known/jwks.json of both services: the public keys receipts (and audit checkpoints) are
 * verified with (docs/receipts.md), the current one first, then the retired ones still published.
 * Read at each request: a retired key leaves the set when its retention ends, without a restart.
 */
export async function answerJwks(ctx: JwksContext, services: Pick<Services, 'signingKeys'>): Promise<void> {
  const keys = await services.signingKeys();
  ctx.set('Cache-Control', 'public, max-age=300');
  ctx.type = 'application/jwk-set+json';
  ctx.body = keys.jwks();
}
