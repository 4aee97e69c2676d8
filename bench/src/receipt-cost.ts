// CPU time of a receipt per submission, in this process (issue #26): the claims (the RFC 8785
// digest of the data, on the event loop) apart, and the whole signed receipt (claims, JSON, base64
// and the Ed25519 signature, which WebCrypto runs on libuv's thread pool), for the plain form and
// for a 1 MiB JSON body (MAX_FORM_BODY_SIZE), the largest a form without files sends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { receiptClaims, signReceipt, type ReceiptSubject } from '@intake/shared/receipts';
import { loadSigningKeys } from '@intake/shared/signing';
import { cpuPerAsyncCall, cpuPerCall } from './cpu-per-call.js';
import { PLAIN_FIELDS } from './payloads.js';

export interface ReceiptFigure {
  /** µs CPU on the event loop for the claims (the data digest above all). */
  claimsMicros: number;
  /** µs CPU, all threads, for a whole signed receipt. */
  receiptMicros: number;
  /** µs CPU on the event loop for the claims of a 1 MiB body. */
  largeClaimsMicros: number;
}

function subject(data: Record<string, unknown>): ReceiptSubject {
  return {
    submissionId: '6f1d3c9e-8a2b-4c1d-9e0f-112233445566',
    formCode: 'x'.repeat(27),
    siteId: '5e4d3c2b-8a2b-4c1d-9e0f-112233445566',
    createdAt: new Date(),
    data,
    files: [],
  };
}

/** A JSON object of about `bytes`: 1 KiB string values under distinct keys. */
function largeData(bytes: number): Record<string, unknown> {
  return Object.fromEntries(
    Array.from({ length: Math.floor(bytes / 1040) }, (_, i) => [`field${i}`, 'a'.repeat(1024)]),
  );
}

const plainSubject = () => subject(JSON.parse(PLAIN_FIELDS.body.toString('utf8')) as Record<string, unknown>);

const benchKeys = () =>
  loadSigningKeys({
    dataDir: mkdtempSync(path.join(tmpdir(), 'intake-bench-receipt-')),
    receiptSigning: { key: undefined, keyRetentionDays: 1 },
  });

/** µs CPU, all threads, for the whole signed receipt of the plain form: part of every floor. */
export async function plainReceiptMicros(seconds: number): Promise<number> {
  const keys = await benchKeys();
  const plain = plainSubject();
  return (await cpuPerAsyncCall(() => signReceipt(keys, plain), seconds)).micros;
}

export async function receiptCost(seconds: number): Promise<ReceiptFigure> {
  const plain = plainSubject();
  const large = subject(largeData(1024 * 1024));
  return {
    claimsMicros: cpuPerCall(() => receiptClaims(plain), seconds).micros,
    receiptMicros: await plainReceiptMicros(seconds),
    largeClaimsMicros: cpuPerCall(() => receiptClaims(large), 1).micros,
  };
}
