// Two rules of a submission's write, each one table of cases run through every path that applies
// it, on the real database (PGlite, or PostgreSQL with TEST_DATABASE_URL): which deliveries a
// submission gets (the shared table, `DELIVERY_CASES`; the admin API's "Not spam" runs it too), and
// whether its form still accepts it (the request's check, then the write's guard on each path). A
// path that answers otherwise than its neighbours fails here, whichever one drifted.
import { randomBytes } from 'node:crypto';
import { FormSchema, SiteSchema, SubmissionSchema, type Form, type Site } from '@intake/shared/entities';
import {
  CASE_DATA,
  DELIVERY_CASES,
  arrangeDeliveryCase,
  createTestServices,
  expectedOutbox,
  makeForm,
  makeSite,
  outboxOf,
} from '@intake/shared/test';
import { startGateway, type RunningGateway } from '../index.js';
import { send } from '../test/harness.js';
import { submissionRecord } from '../test/submission-record.js';
import { submissionStore, type SubmissionRecord, type SubmissionStore, type WriteOutcome } from './submission-store.js';

let services: Awaited<ReturnType<typeof createTestServices>>;
let store: SubmissionStore;
/** Where the neighbours of a grouped write go: an open form of a live site. */
let neighbour: { site: Site; form: Form };

beforeAll(async () => {
  services = await createTestServices();
  store = submissionStore(services.db, { maxRows: 64, windowMs: 0 });
  const { site } = await makeSite(services);
  neighbour = { site, form: await makeForm(services, site) };
});

afterAll(async () => {
  await services.close();
});

/** The transaction each submission was written by (its xmin); absent when it was not stored. */
async function transactionOf(id: string): Promise<string | undefined> {
  const rows = await services.db.em
    .fork()
    .execute<{ xmin: string }[]>('select xmin::text as "xmin" from "submissions" where "id" = ?', [id]);
  return rows[0]?.xmin;
}

const neighbourRecord = (overrides: Partial<SubmissionRecord> = {}) =>
  submissionRecord(neighbour.site, neighbour.form, overrides);

/** Each way the store may write a submission, chosen by what it is given and what else is in flight. */
const WRITE_PATHS: [string, (record: SubmissionRecord) => Promise<WriteOutcome>][] = [
  [
    'one transaction (a duplicate window)',
    (record) =>
      store.write({ ...record, duplicateFilter: { contentHash: randomBytes(32).toString('hex'), windowSeconds: 60 } }),
  ],
  // The group statement of one row when it has deliveries, the one-row statement when it has none.
  ['alone', (record) => store.write(record)],
  [
    'the group statement, with a neighbour',
    async (record) => {
      // The lead is written at once; the two behind it wait for it and go together.
      const companion = neighbourRecord();
      const [, written] = await Promise.all([neighbourRecord(), record, companion].map((given) => store.write(given)));
      if (written!.outcome === 'stored') {
        expect(await transactionOf(record.id)).toBe(await transactionOf(companion.id));
      }
      return written!;
    },
  ],
  [
    "alone after its group's statement failed",
    async (record) => {
      // jsonb has no NUL character: the database rejects the neighbour, and with it the group's
      // statement; every row of that group is then written alone.
      const breaker = neighbourRecord({ data: { name: 'A\u0000da' } });
      const [, written, broken] = await Promise.allSettled(
        [neighbourRecord(), record, breaker].map((given) => store.write(given)),
      );
      expect(broken!.status).toBe('rejected');
      if (written!.status === 'rejected') {
        throw written!.reason;
      }
      return written!.value;
    },
  ],
];

describe.each(WRITE_PATHS)('which deliveries a submission gets, written by %s', (_path, write) => {
  it.each(DELIVERY_CASES)('$name', async (deliveryCase) => {
    const { site } = await makeSite(services);
    const arranged = await arrangeDeliveryCase(services, site, deliveryCase);
    const record = submissionRecord(site, arranged.form, {
      webhookIds: arranged.webhookIds,
      spamReason: deliveryCase.spam ? 'honeypot' : undefined,
      data: { ...(deliveryCase.data ?? CASE_DATA) },
    });
    const written = await write(record);
    expect(written.outcome).toBe('stored');
    expect(await outboxOf(services, record.id, arranged)).toEqual(expectedOutbox(deliveryCase.deliveries));
  });
});

type Acceptance = 'accepted' | 'form_forbidden' | 'token_invalid';

interface Sender {
  site: Site;
  token: string;
  form: Form;
}

/**
 * What the request was sent with (its token's site and its form, as the gateway's cache may still
 * hold them), and what was changed in the database before it arrived.
 */
interface AcceptanceCase {
  name: string;
  arrange: () => Promise<Sender>;
  answer: Acceptance;
}

async function openForm(): Promise<Sender> {
  const { site, token } = await makeSite(services);
  return { site, token, form: await makeForm(services, site) };
}

async function changed(change: (sender: Sender) => Promise<unknown>): Promise<Sender> {
  const sender = await openForm();
  await change(sender);
  return sender;
}

const updateForm = (sender: Sender, values: { enabled?: boolean; deletedAt?: Date }) =>
  services.db.em.fork().nativeUpdate(FormSchema, { id: sender.form.id }, values);
const updateSite = (sender: Sender, values: { deletedAt?: Date; controlCode?: string }) =>
  services.db.em.fork().nativeUpdate(SiteSchema, { id: sender.site.id }, values);

const ACCEPTANCE_CASES: AcceptanceCase[] = [
  { name: 'an enabled form of a live site', arrange: openForm, answer: 'accepted' },
  {
    name: 'the form disabled',
    arrange: () => changed((sender) => updateForm(sender, { enabled: false })),
    answer: 'form_forbidden',
  },
  {
    name: 'the form deleted',
    arrange: () => changed((sender) => updateForm(sender, { deletedAt: new Date() })),
    answer: 'form_forbidden',
  },
  {
    name: 'the site deleted',
    arrange: () => changed((sender) => updateSite(sender, { deletedAt: new Date() })),
    answer: 'token_invalid',
  },
  {
    name: "the site token's control code rotated",
    arrange: () => changed((sender) => updateSite(sender, { controlCode: randomBytes(24).toString('base64url') })),
    answer: 'token_invalid',
  },
  {
    name: 'the site deleted and the form disabled',
    arrange: () =>
      changed(async (sender) => {
        await updateForm(sender, { enabled: false });
        await updateSite(sender, { deletedAt: new Date() });
      }),
    answer: 'token_invalid',
  },
  {
    name: "another site's form",
    arrange: async () => ({ ...(await openForm()), form: (await openForm()).form }),
    answer: 'form_forbidden',
  },
];

describe('whether a form still accepts a submission', () => {
  let gateway: RunningGateway;

  beforeAll(async () => {
    gateway = await startGateway(services);
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** The store's answer, and nothing of a refused submission written. */
  async function written(record: SubmissionRecord, outcome: WriteOutcome): Promise<Acceptance | string> {
    if (outcome.outcome === 'refused') {
      expect(await services.db.em.fork().count(SubmissionSchema, { id: record.id })).toBe(0);
      return outcome.refusal.code;
    }
    return outcome.outcome === 'stored' ? 'accepted' : outcome.outcome;
  }

  const CHECK_PATHS: [string, (sender: Sender) => Promise<Acceptance | string>][] = [
    [
      "the request's check (site token, then form by code)",
      async ({ token, form }) => {
        // A body that is not JSON: refused after the checks, by the parser, so nothing is written
        // and the store's own guard is not what answers.
        const response = await send(gateway.url, form.code, {
          apiKey: services.config.apiKey,
          token,
          body: '{',
          headers: { 'Content-Type': 'application/json' },
        });
        const { code } = (await response.json()) as { code: string };
        return code === 'body_invalid' ? 'accepted' : code;
      },
    ],
    ...WRITE_PATHS.map(([path, write]): [string, (sender: Sender) => Promise<Acceptance | string>] => [
      `the write: ${path}`,
      async ({ site, form }) => {
        const record = submissionRecord(site, form);
        return written(record, await write(record));
      },
    ]),
  ];

  describe.each(CHECK_PATHS)('%s', (_path, check) => {
    it.each(ACCEPTANCE_CASES)('$name: $answer', async ({ arrange, answer }) => {
      expect(await check(await arrange())).toBe(answer);
    });
  });
});
