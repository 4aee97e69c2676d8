// The fixed work of every accepted plain submission, each timed apart in this process
// (cpu-per-call.ts): the site token's check as the gateway makes it for a token it has seen (the
// remembered decode: a sha256 of the token and a lookup, token-memo.ts; the first check of a token,
// jsonwebtoken's HMAC and the AES-GCM opening of the claims, is shown beside it), the signed receipt
// (its claims and Ed25519 signature, all threads) and one access line through the service's logger.
// With bare Koa's CPU per request and the `pg` client's per insert, measured in the same run, they
// make the floor the plain JSON case's CPU target is compared with (report.ts).
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { writeAccessLine } from '@intake/shared/http';
import { createLogger } from '@intake/shared/logger';
import { createSiteTokenCodec, generateControlCode } from '@intake/shared/site-token';
import { memoizeTokenDecoding } from '@intake/gateway/token-memo';
import { cpuPerCall } from './cpu-per-call.js';
import { plainReceiptMicros } from './receipt-cost.js';

export interface FixedCosts {
  /** A token seen before: what every request but a token's first pays. */
  tokenCheckMicros: number;
  /** A token's first check (HMAC, then AES-GCM): no longer in the floor. */
  firstTokenCheckMicros: number;
  receiptMicros: number;
  accessLineMicros: number;
}

export async function measureFixedCosts(seconds: number): Promise<FixedCosts> {
  const codec = createSiteTokenCodec({
    jwtSecret: randomBytes(32).toString('base64url'),
    encryptionKey: randomBytes(32),
  });
  const token = codec.issue(randomUUID(), generateControlCode());
  const firstTokenCheckMicros = cpuPerCall(() => codec.decode(token), seconds).micros;
  const remembered = memoizeTokenDecoding(codec);
  const tokenCheckMicros = cpuPerCall(() => remembered.decode(token), seconds).micros;
  const receiptMicros = await plainReceiptMicros(seconds);

  // The gateway's line for an accepted submission, to a file that keeps nothing.
  const sink = createWriteStream('/dev/null');
  const logger = createLogger('info', { service: 'gateway' }, sink);
  const observation = {
    service: 'gateway',
    requestId: randomUUID(),
    method: 'POST',
    route: '/api/v1/send/:code',
    status: 201,
    durationMs: 4.321,
    aborted: false,
    siteId: randomUUID(),
    formId: randomUUID(),
  };
  const accessLineMicros = cpuPerCall(() => writeAccessLine(logger, observation), seconds).micros;
  sink.end();
  await finished(sink);
  return { tokenCheckMicros, firstTokenCheckMicros, receiptMicros, accessLineMicros };
}
