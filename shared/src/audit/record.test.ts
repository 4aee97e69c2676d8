// The audit log's one writer: an entry is stored as given (details as JSON), over-long values are
// cut to the column instead of losing the entry, and inside a transaction it rolls back with it.
import { AuditEntrySchema } from '../entities/index.js';
import { createTestDatabase, type TestDatabase } from '../test/database.js';
import { deriveAuditChainKey } from './chain-key.js';
import { recordAuditEntry, systemActor } from './record.js';

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
    expect(entry.actorName).toHaveLength(320);
    expect(entry.errorCode).toBe('UNAUTHENTICATED');
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
