// The audit log's one writer: an entry is stored as given (details as JSON), over-long values are
// cut to the column instead of losing the entry, and inside a transaction it rolls back with it.
import { ACTOR_NAME_MAX_LENGTH, AuditEntrySchema } from '../entities/index.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { deriveAuditChainKey } from './chain-key.js';
import { NAME_NOT_RECORDED, recordAuditEntry, systemActor } from './record.js';

const CHAIN = deriveAuditChainKey(Buffer.alloc(32, 7));

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
}, 60_000);

afterAll(async () => {
  await testDb?.close();
});

describe(`recordAuditEntry on ${process.env.TEST_DATABASE_URL ? 'postgresql' : 'pglite'}`, () => {
  it('stores who, what, which object, from where, with which request and the details', async () => {
    const at = new Date('2026-11-24T01:02:03.000Z');
    await recordAuditEntry(testDb.db.em.fork(), CHAIN, {
      actor: { kind: 'admin', id: 'a1', name: 'ada@example.com' },
      action: 'deleteSite',
      objectType: 'Site',
      objectId: 's1',
      details: { count: 2, ids: ['x', 'y'], format: 'csv', dryRun: false, note: null },
      address: '203.0.113.9',
      requestId: 'req-1',
      outcome: 'success',
      at,
    });
    const entry = await testDb.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId: 'req-1' });
    expect(entry).toMatchObject({
      at,
      actorKind: 'admin',
      actorId: 'a1',
      actorName: 'ada@example.com',
      action: 'deleteSite',
      objectType: 'Site',
      objectId: 's1',
      outcome: 'success',
      errorCode: null,
      address: '203.0.113.9',
      details: { count: 2, ids: ['x', 'y'], format: 'csv', dryRun: false, note: null },
    });
  });

  it('cuts over-long values to their column instead of failing', async () => {
    await recordAuditEntry(testDb.db.em.fork(), CHAIN, {
      actor: { kind: 'anonymous', name: 'n'.repeat(1000) },
      action: 'login',
      outcome: 'failure',
      errorCode: 'UNAUTHENTICATED',
      requestId: 'req-long',
    });
    const entry = await testDb.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId: 'req-long' });
    expect(entry.actorName).toHaveLength(ACTOR_NAME_MAX_LENGTH);
    expect(entry.errorCode).toBe('UNAUTHENTICATED');
  });

  it('cuts a name at code points, never inside a surrogate pair, so the entry is written', async () => {
    // An API token named 'a' + 199 emoji (a valid 200-character name) with its member's e-mail, and a
    // failed single sign-on with a long e-mail: cut at 320 UTF-16 units, both split an emoji and
    // the entry could not be written at all.
    const token = `${'a' + '😀'.repeat(199)} (${'m'.repeat(300)}@example.com)`;
    const email = `${'😀'.repeat(600)}@example.com`;
    for (const [name, requestId] of [
      [token, 'req-token'],
      [email, 'req-sso'],
    ] as const) {
      await recordAuditEntry(testDb.db.em.fork(), CHAIN, {
        actor: { kind: 'anonymous', name },
        action: 'login',
        outcome: 'failure',
        errorCode: 'sso_email_unverified',
        requestId,
      });
      const entry = await testDb.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId });
      // The token's name with its member's e-mail fits whole; the longer e-mail is cut at 523 characters.
      expect([...entry.actorName]).toHaveLength(Math.min([...name].length, ACTOR_NAME_MAX_LENGTH));
      expect(entry.actorName.isWellFormed()).toBe(true);
      expect(name.startsWith(entry.actorName)).toBe(true);
    }
    // A lone surrogate or a NUL from elsewhere (a provider's claim) is made storable, not a lost entry.
    await recordAuditEntry(testDb.db.em.fork(), CHAIN, {
      actor: { kind: 'anonymous', name: 'eve\ud800\u0000@example.com' },
      action: 'login',
      outcome: 'failure',
      requestId: 'req-odd',
      details: { method: 'oidc\u0000' },
    });
    const odd = await testDb.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId: 'req-odd' });
    expect(odd.actorName).toBe('eve\ufffd\ufffd@example.com');
  });

  it('writes an entry the database refuses as described without the name and details, inside a transaction too', async () => {
    // The database refuses this name (a constraint standing for any refusal of what a caller named).
    await testDb.db.em
      .fork()
      .execute(`alter table "audit_log" add constraint "no_mallory" check ("actor_name" not like '%mallory%')`);
    try {
      const recorded = await testDb.db.em.fork().transactional((tx) =>
        recordAuditEntry(tx, CHAIN, {
          actor: { kind: 'admin', id: 'a9', name: 'mallory@example.com' },
          action: 'deleteSite',
          objectType: 'Site',
          objectId: 's9',
          details: { count: 1 },
          outcome: 'success',
          requestId: 'req-refused',
        }),
      );
      expect(recorded.refused).toBeInstanceOf(Error);
      const entry = await testDb.db.em.fork().findOneOrFail(AuditEntrySchema, { requestId: 'req-refused' });
      expect(entry).toMatchObject({
        seq: recorded.seq,
        actorId: 'a9',
        actorName: NAME_NOT_RECORDED,
        action: 'deleteSite',
        objectId: 's9',
        details: null,
      });
    } finally {
      await testDb.db.em.fork().execute(`alter table "audit_log" drop constraint "no_mallory"`);
    }
  });

  it('commits and rolls back with the transaction it is written in', async () => {
    await expect(
      testDb.db.em.fork().transactional(async (tx) => {
        await recordAuditEntry(tx, CHAIN, {
          actor: systemActor('retention'),
          action: 'retention.run',
          outcome: 'success',
          requestId: 'req-tx',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await testDb.db.em.fork().count(AuditEntrySchema, { requestId: 'req-tx' })).toBe(0);
  });
});
