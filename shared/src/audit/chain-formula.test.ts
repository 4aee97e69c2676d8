// The chain as docs/audit-log.md spells it ("The formula, exactly"), recomputed by code of this test
// alone (node:crypto and the canonicalize package, nothing of shared/src/audit) over a real export:
// the key's parameters, the entry's members and the checkpoint's payload are read from the document,
// so the document cannot drift from what the server computes.
import { createHash, createHmac, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import canonicalize from 'canonicalize';
import { createTestServices, REPO_ROOT, testDriverName } from '../test/index.js';
import { checkpointChainHead } from './checkpoints.js';
import { exportAuditLog } from './export.js';
import { recordAuditEntry } from './record.js';

const doc = readFileSync(path.join(REPO_ROOT, 'docs/audit-log.md'), 'utf8');
const formula = doc.slice(doc.indexOf('### The formula, exactly'), doc.indexOf('## What it proves'));

/** The first capture of `pattern` in the formula section, whitespace and line breaks made single spaces. */
function stated(pattern: RegExp): string {
  const found = pattern.exec(formula.replace(/\s+/g, ' '));
  if (found?.[1] === undefined) {
    throw new Error(`docs/audit-log.md does not state ${pattern}`);
  }
  return found[1];
}

const members = (list: string) => list.split(',').map((name) => name.trim());

type Line = Record<string, unknown> & { type: string; seq: number; hash: string; digest: string };

const TOKEN_ENCRYPTION_KEY = randomBytes(32).toString('hex');
let services: Awaited<ReturnType<typeof createTestServices>>;

beforeAll(async () => {
  services = await createTestServices({ TOKEN_ENCRYPTION_KEY });
}, 60_000);

afterAll(async () => {
  await services?.close();
});

describe(`the chain formula of docs/audit-log.md on ${testDriverName()}`, () => {
  it('recomputes every hash, digest, checkpoint signature and checkpoint link of an export', async () => {
    const write = (n: number) =>
      recordAuditEntry(services.db.em.fork(), services.auditChain, {
        actor: { kind: 'api_token', id: 't1', name: `ci ${'😀'.repeat(n)} (ada@example.com)` },
        action: 'deleteSite',
        objectType: 'Site',
        objectId: `s${n}`,
        details: { n, ids: ['x'], dryRun: n % 2 === 0, note: null },
        outcome: n === 2 ? 'failure' : 'success',
        errorCode: n === 2 ? 'NOT_FOUND' : null,
        address: '203.0.113.9',
        requestId: `req-${n}`,
      });
    for (const n of [1, 2, 3]) {
      await write(n);
    }
    await checkpointChainHead(services.db.em.fork(), services.auditChain);
    await write(4);
    const lines = (await exportAuditLog(services.db.em.fork(), services.auditChain)).content
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);

    // The chain key, from the document's parameters.
    const salt = stated(/salt the UTF-8 bytes of `([^`]+)`/);
    const info = stated(/info the UTF-8 bytes of `([^`]+)`/);
    const length = Number(stated(/output length (\d+) bytes/));
    expect(stated(/input keying material the (\d+) bytes of `TOKEN_ENCRYPTION_KEY`/)).toBe('32');
    const key = Buffer.from(
      hkdfSync('sha256', Buffer.from(TOKEN_ENCRYPTION_KEY, 'hex'), Buffer.from(salt), Buffer.from(info), length),
    );
    expect(stated(/previous values taken as their lowercase hexadecimal text \((\d+) ASCII characters/)).toBe('64');

    // Each entry: exactly the stated members, hashed after the previous values' hex text.
    const entryMembers = members(stated(/exactly these members: `\{ ([^}]+) \}`/));
    const entries = lines.filter((line) => line.type === 'entry');
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3, 4]);
    let previous = { hash: '', digest: '' };
    const links = new Map<number, { hash: string; digest: string }>();
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual([...entryMembers, 'type', 'hash', 'digest'].sort());
      const bytes = Buffer.from(canonicalize(Object.fromEntries(entryMembers.map((name) => [name, entry[name]])))!);
      const link = {
        hash: createHmac('sha256', key).update(Buffer.from(previous.hash, 'ascii')).update(bytes).digest('hex'),
        digest: createHash('sha256').update(Buffer.from(previous.digest, 'ascii')).update(bytes).digest('hex'),
      };
      expect(link).toEqual({ hash: entry.hash, digest: entry.digest });
      links.set(entry.seq, link);
      previous = link;
    }

    // Each checkpoint: an Ed25519 compact JWS of the stated payload, by a published key, naming the one before.
    const payloadMembers = members(stated(/`\{ ([^}]+) \}` for a checkpoint/));
    const typ = stated(/`typ` `([^`]+)`/);
    const { keys } = await services.auditChain.signing!.publicKeys();
    const checkpoints = lines.filter((line) => line.type === 'checkpoint');
    expect(checkpoints.map((checkpoint) => checkpoint.seq)).toEqual([3, 4]);
    let before: Record<string, unknown> | null = null;
    for (const checkpoint of checkpoints) {
      const [header, payload, signature] = (checkpoint.signature as string).split('.') as [string, string, string];
      const protectedHeader = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, string>;
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ });
      const jwk = keys.find((each) => each.kid === protectedHeader.kid)!;
      const publicKey = createPublicKey({ key: jwk as never, format: 'jwk' });
      expect(verify(null, Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(
        true,
      );
      const statement = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      expect(Object.keys(statement).sort()).toEqual([...payloadMembers].sort());
      expect(statement).toMatchObject({ kind: 'checkpoint', ...links.get(checkpoint.seq) });
      const expected =
        before === null
          ? ''
          : createHash('sha256')
              .update(Buffer.from(canonicalize(before)!))
              .digest('hex');
      expect(statement.previous).toBe(expected);
      before = statement;
    }
  });
});
