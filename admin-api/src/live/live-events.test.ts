// The live updates over real HTTP (GET /events): a submission that arrives or changes
// reaches, within a second, the streams of members who may read its site and no one else's; a
// reconnect with Last-Event-ID resumes what it missed (or is told to refetch); two admin apps on
// the same database each hear every event.
import { jest } from '@jest/globals';
import {
  AdminUserSchema,
  MemberSiteGrantSchema,
  SiteSchema,
  type Form,
  type Site,
  type SiteGrantLevel,
} from '@intake/shared/entities';
import { createLogger } from '@intake/shared/logger';
import { hashPassword } from '@intake/shared/password';
import { testDriverName } from '@intake/shared/test';
import { startAdmin, type AdminServer } from '../server.js';
import { makeForm, makeSite, makeSubmission } from '../test/factories.js';
import { startTestAdmin, type TestAdmin } from '../test/harness.js';

jest.setTimeout(60_000);

// An event came in well under a second in every run here (the insert included); the bound leaves
// room for a loaded CI machine, where the insert alone has taken most of a second.
const EVENT_WITHIN_MS = 2500;

const PASSWORD = 'a long enough password 42';
const SET_STATUS =
  'mutation($id: ID!, $status: SubmissionStatus!) { setSubmissionStatus(id: $id, status: $status) { status } }';
const NOTE = 'mutation($id: ID!, $text: String!) { addSubmissionNote(id: $id, text: $text) { notes { text } } }';

interface Frame {
  id?: string;
  event: string;
  data: any;
}

interface Stream {
  status: number;
  frames: Frame[];
  /** The first frame (from `from` on) that matches, within `ms`. */
  next(match: (frame: Frame) => boolean, ms?: number, from?: number): Promise<Frame>;
  /** Waits `ms`, then the frames that matched meanwhile. */
  quietFor(match: (frame: Frame) => boolean, ms: number): Promise<Frame[]>;
  lastId(): string | undefined;
  close(): void;
}

async function openStream(origin: string, token: string, lastEventId?: string): Promise<Stream> {
  const abort = new AbortController();
  const response = await fetch(`${origin}/events`, {
    headers: {
      Authorization: `Bearer ${token}`,
      Accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }),
    },
    signal: abort.signal,
  });
  const frames: Frame[] = [];
  let lastId: string | undefined;
  const waiters = new Set<() => void>();
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffered += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffered.indexOf('\n\n')) !== -1) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const frame: Frame = { event: 'message', data: undefined };
            for (const line of block.split('\n')) {
              const colon = line.indexOf(':');
              const field = colon === -1 ? line : line.slice(0, colon);
              const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
              if (field === 'id') {
                frame.id = value;
                lastId = value;
              } else if (field === 'event') {
                frame.event = value;
              } else if (field === 'data') {
                frame.data = JSON.parse(value);
              }
            }
            if (frame.data !== undefined) {
              frames.push(frame);
              for (const wake of waiters) {
                wake();
              }
            }
          }
        }
      } catch {
        // Aborted by close().
      }
    })();
  }
  const next: Stream['next'] = (match, ms = EVENT_WITHIN_MS, from = 0) =>
    new Promise((resolve, reject) => {
      const look = () => {
        const found = frames.slice(from).find(match);
        if (found) {
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no matching event within ${ms} ms; had ${JSON.stringify(frames)}`));
      }, ms);
      waiters.add(look);
      look();
    });
  return {
    status: response.status,
    frames,
    next,
    async quietFor(match, ms) {
      const from = frames.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return frames.slice(from).filter(match);
    },
    lastId: () => lastId,
    close: () => abort.abort(),
  };
}

const about = (submissionId: string, kind?: string) => (frame: Frame) =>
  frame.event === 'submission' &&
  frame.data.submissionId === submissionId &&
  (kind === undefined || frame.data.kind === kind);

describe(`live updates over Server-Sent Events on ${testDriverName()}`, () => {
  let admin: TestAdmin;
  let owner: string;
  let site: Site;
  let form: Form;
  let otherForm: Form;
  const tokens: Record<string, string> = {};
  const open: Stream[] = [];

  async function stream(token: string, lastEventId?: string, origin = admin.url): Promise<Stream> {
    const opened = await openStream(origin, token, lastEventId);
    open.push(opened);
    // The stream is subscribed once its first lines came.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return opened;
  }

  async function addMember(label: string, grant: SiteGrantLevel, on: Site) {
    const em = admin.services.db.em.fork();
    const email = `${label}@example.com`;
    const member = em.create(AdminUserSchema, {
      email,
      name: label,
      role: 'member',
      passwordHash: await hashPassword(PASSWORD),
    });
    em.create(MemberSiteGrantSchema, { member, site: em.getReference(SiteSchema, on.id), level: grant });
    await em.flush();
    tokens[label] = await admin.login(email, PASSWORD);
  }

  beforeAll(async () => {
    admin = await startTestAdmin();
    owner = await admin.login();
    ({ site } = await makeSite(admin.services));
    form = await makeForm(admin.services, site);
    const { site: otherSite } = await makeSite(admin.services);
    otherForm = await makeForm(admin.services, otherSite);
    await addMember('reader', 'read', site);
    await addMember('elsewhere', 'manage', otherSite);
  }, 120_000);

  afterEach(() => {
    for (const opened of open.splice(0)) {
      opened.close();
    }
  });

  afterAll(async () => {
    await admin?.close();
  });

  it('refuses a caller without credentials with a problem, not a stream', async () => {
    const response = await fetch(`${admin.url}/events`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({ code: 'unauthenticated' });
    const forged = await openStream(admin.url, 'not-a-token');
    expect(forged.status).toBe(401);
  });

  it('tells a reader of the site of a new submission at once, and no member of another site', async () => {
    const reader = await stream(tokens.reader!);
    const elsewhere = await stream(tokens.elsewhere!);
    const started = Date.now();
    const { submission } = await makeSubmission(admin.services, form, { data: { secret: 'never sent' } });
    const frame = await reader.next(about(submission.id, 'created'));
    expect(Date.now() - started).toBeLessThan(EVENT_WITHIN_MS);
    expect(frame.data).toEqual({ siteId: site.id, formId: form.id, submissionId: submission.id, kind: 'created' });
    expect(JSON.stringify(reader.frames)).not.toContain('never sent');
    expect(await elsewhere.quietFor((f) => f.event === 'submission', 300)).toEqual([]);

    // And the other site's member hears their own site's.
    const { submission: theirs } = await makeSubmission(admin.services, otherForm);
    await elsewhere.next(about(theirs.id, 'created'));
    expect(await reader.quietFor(about(theirs.id), 300)).toEqual([]);
  });

  it("tells another member's status change and note as `changed`", async () => {
    const { submission } = await makeSubmission(admin.services, form);
    const reader = await stream(tokens.reader!);
    const status = await admin.gql(SET_STATUS, { id: submission.id, status: 'open' }, owner);
    expect(status.errors).toBeUndefined();
    await reader.next(about(submission.id, 'changed'));
    const from = reader.frames.length;
    const note = await admin.gql(NOTE, { id: submission.id, text: 'called back' }, owner);
    expect(note.errors).toBeUndefined();
    await reader.next(about(submission.id, 'changed'), EVENT_WITHIN_MS, from);
    expect(JSON.stringify(reader.frames)).not.toContain('called back');
  });

  it('resumes from Last-Event-ID, and says reset for an id it no longer knows', async () => {
    const first = await stream(owner);
    const { submission: seen } = await makeSubmission(admin.services, form);
    await first.next(about(seen.id));
    const lastId = first.lastId()!;
    first.close();
    const { submission: missedOne } = await makeSubmission(admin.services, form);
    const { submission: missedTwo } = await makeSubmission(admin.services, form);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const resumed = await stream(owner, lastId);
    await resumed.next(about(missedTwo.id));
    const replayed = resumed.frames.filter((f) => f.event === 'submission').map((f) => f.data.submissionId);
    expect(replayed).toEqual([missedOne.id, missedTwo.id]);

    const stranger = await stream(owner, 'ffffffffffff-3');
    const reset = await stranger.next((f) => f.event === 'reset');
    expect(reset.id).toMatch(/^[0-9a-f]{12}-\d+$/);
  });

  it('stops telling a member of a site once their access to it is taken away', async () => {
    await addMember('leaver', 'read', site);
    const leaver = await stream(tokens.leaver!);
    const { submission: before } = await makeSubmission(admin.services, form);
    await leaver.next(about(before.id));
    const em = admin.services.db.em.fork();
    const member = await em.findOneOrFail(AdminUserSchema, { email: 'leaver@example.com' });
    await em.nativeDelete(MemberSiteGrantSchema, { member: member.id });
    // The stream reads its member again every 10 s.
    await new Promise((resolve) => setTimeout(resolve, 10_500));
    const { submission: after } = await makeSubmission(admin.services, form);
    expect(await leaver.quietFor(about(after.id), 500)).toEqual([]);
  });

  it('holds at most 10 streams of one member at once, and frees a place when one closes', async () => {
    const streams: Stream[] = [];
    for (let i = 0; i < 10; i += 1) {
      streams.push(await openStream(admin.url, tokens.reader!));
    }
    open.push(...streams);
    expect(streams.map((opened) => opened.status)).toEqual(Array(10).fill(200));
    const refused = await fetch(`${admin.url}/events`, { headers: { Authorization: `Bearer ${tokens.reader}` } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    streams[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await openStream(admin.url, tokens.reader!);
    open.push(again);
    expect(again.status).toBe(200);
  });

  it('is served by each admin process to its own listeners', async () => {
    let second: AdminServer | undefined;
    try {
      second = await startAdmin(admin.services);
      const here = await stream(owner);
      const there = await stream(owner, undefined, second.url);
      const { submission } = await makeSubmission(admin.services, form);
      await here.next(about(submission.id, 'created'));
      await there.next(about(submission.id, 'created'));
    } finally {
      for (const opened of open.splice(0)) {
        opened.close();
      }
      await second?.close();
    }
  });

  it('logs a stream the browser closed as an access line, not a warning or an error', async () => {
    let text = '';
    const logger = createLogger('debug', {}, { write: (line: string) => void (text += line) });
    const logged = await startAdmin({ ...admin.services, logger });
    try {
      const opened = await stream(owner, undefined, logged.url);
      const { submission } = await makeSubmission(admin.services, form, { data: { secret: 'not in the log' } });
      await opened.next(about(submission.id));
      opened.close();
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await logged.close();
    }
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; route?: string; aborted?: boolean });
    expect(lines.filter((line) => line.level >= 40)).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', route: '/events', aborted: true }));
    expect(text).not.toContain('not in the log');
  });

  it('ends the streams when the server closes, so the drain does not wait for them', async () => {
    const other = await startAdmin(admin.services);
    const opened = await stream(owner, undefined, other.url);
    expect(opened.status).toBe(200);
    const started = Date.now();
    await other.close();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
