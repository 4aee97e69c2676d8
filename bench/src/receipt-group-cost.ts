// What one Ed25519 signature per commit group (over a Merkle root of the group's receipts, each
// receipt carrying its inclusion path, as Certificate Transparency does) would save against today's
// signature per receipt, in CPU per receipt of the plain form: a costing for
// docs/decisions/receipt-per-group.md, not Intake's code (receipts stay one JWS each).
//   node bench/dist/receipt-group-cost.js [seconds]
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { receiptClaims, type ReceiptClaims } from '@intake/shared/receipts';
import { cpuPerCall } from './cpu-per-call.js';
import { PLAIN_FIELDS } from './payloads.js';

const { privateKey } = generateKeyPairSync('ed25519');
const HEADER = { alg: 'EdDSA', kid: 'k'.repeat(43), typ: 'intake-receipt+jws' };
const encode = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
const sha256 = (...parts: (string | Buffer)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
  }
  return hash.digest();
};

function subject(i: number) {
  return {
    submissionId: `6f1d3c9e-8a2b-4c1d-9e0f-${String(i).padStart(12, '0')}`,
    formCode: 'x'.repeat(27),
    siteId: '5e4d3c2b-8a2b-4c1d-9e0f-112233445566',
    createdAt: new Date(),
    data: JSON.parse(PLAIN_FIELDS.body.toString('utf8')) as Record<string, unknown>,
    files: [],
  };
}

/** Today: a compact JWS per receipt. */
function receiptEach(claims: ReceiptClaims): string {
  const input = `${encode(HEADER)}.${encode(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
}

/** RFC 6962's tree: leaves hashed with 0x00, nodes with 0x01; each leaf's audit path. */
function merkle(leaves: Buffer[]): { root: Buffer; paths: Buffer[][] } {
  const paths: Buffer[][] = leaves.map(() => []);
  let level: Buffer[] = leaves.map((leaf) => sha256(Buffer.of(0), leaf));
  let members = leaves.map((_, i) => [i]);
  while (level.length > 1) {
    const next: Buffer[] = [];
    const nextMembers: number[][] = [];
    for (let i = 0; i < level.length; i += 2) {
      if (i + 1 === level.length) {
        next.push(level[i]!);
        nextMembers.push(members[i]!);
        continue;
      }
      for (const m of members[i]!) {
        paths[m]!.push(level[i + 1]!);
      }
      for (const m of members[i + 1]!) {
        paths[m]!.push(level[i]!);
      }
      next.push(sha256(Buffer.of(1), level[i]!, level[i + 1]!));
      nextMembers.push([...members[i]!, ...members[i + 1]!]);
    }
    level = next;
    members = nextMembers;
  }
  return { root: level[0]!, paths };
}

/** The alternative: one JWS over the group's root; each receipt its claims, index and path. */
function receiptsOfGroup(group: ReceiptClaims[]): string[] {
  const leaves = group.map((claims) => Buffer.from(JSON.stringify(claims)));
  const { root, paths } = merkle(leaves);
  const input = `${encode(HEADER)}.${encode({ treeSize: group.length, rootSha256: root.toString('hex') })}`;
  const signed = `${input}.${sign(null, Buffer.from(input), privateKey).toString('base64url')}`;
  return group.map((claims, index) =>
    JSON.stringify({
      root: signed,
      index,
      path: paths[index]!.map((node) => node.toString('base64url')),
      claims,
    }),
  );
}

const seconds = Number(process.argv[2] ?? 2);
const one = subject(0);
const claims = receiptClaims(one);
const figures: Record<string, string> = {};
figures['claims (RFC 8785 digest), µs'] = cpuPerCall(() => receiptClaims(one), seconds).micros.toFixed(1);
figures['Ed25519 signature alone, µs'] = cpuPerCall(
  () => sign(null, Buffer.from(`${encode(HEADER)}.${encode(claims)}`), privateKey),
  seconds,
).micros.toFixed(1);
figures['today: claims + JWS per receipt, µs'] = cpuPerCall(
  () => receiptEach(receiptClaims(one)),
  seconds,
).micros.toFixed(1);
for (const size of [1, 2, 4, 10, 20]) {
  const subjects = Array.from({ length: size }, (_, i) => subject(i));
  const perGroup = cpuPerCall(() => receiptsOfGroup(subjects.map(receiptClaims)), seconds).micros;
  const sample = receiptsOfGroup(subjects.map(receiptClaims))[0]!;
  figures[`per group of ${size}: µs per receipt (receipt ${sample.length} chars)`] = (perGroup / size).toFixed(1);
}
figures['today: receipt chars'] = String(receiptEach(claims).length);
console.table(figures);
