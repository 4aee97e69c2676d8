// GET /events — the console's live updates as Server-Sent Events (docs/admin-api.md#live-updates).
// The caller is who the console's session cookie or a bearer token says (as for /graphql); each
// event goes only to a caller who may read its site (callerSiteLevel, the permission table's rule
// for `submission`), checked against their member as it is now: the principal is read again every
// PRINCIPAL_TTL_MS (not per event, which would put a database read between every change and every
// stream), and a stream whose credential stopped working ends. Why SSE and a trigger:
// docs/decisions/live-updates.md.
import { PassThrough } from 'node:stream';
import { AppError, toProblem, type ErrorCode } from '@intake/shared/errors';
import type { Services } from '@intake/shared/services';
import type { AdminTokens } from '../access/admin-token.js';
import { authenticate } from '../access/authenticate.js';
import { callerSiteLevel } from '../access/permissions.js';
import type { Principal } from '../access/principal.js';
import type { AdminKoaContext } from '../koa-context.js';
import type { LiveMessage, SubmissionEvent, SubmissionEvents } from './submission-events.js';

export const EVENTS_PATH = '/events';

export interface EventsRouteOptions {
  /** The console's session cookie of a request (the sign-in area's, passed in by the app). */
  readSession: (ctx: AdminKoaContext) => string | undefined;
  /** A comment line this often keeps proxies and browsers from closing a quiet stream. */
  heartbeatMs?: number;
  /** Streams one member may hold open on this process at once. */
  maxStreamsPerMember?: number;
}

const DEFAULT_HEARTBEAT_MS = 25_000;
const DEFAULT_MAX_STREAMS_PER_MEMBER = 10;
const PRINCIPAL_TTL_MS = 10_000;
// What the browser waits before reconnecting after a lost stream.
const RETRY_MS = 2_000;
// A client that reads nothing while this much waits for it is dropped rather than buffered forever.
const MAX_BUFFERED_BYTES = 256 * 1024;

function refuse(ctx: AdminKoaContext, code: ErrorCode, detail: string): void {
  const problem = toProblem(new AppError(code, detail));
  ctx.status = problem.status;
  ctx.type = 'application/problem+json';
  ctx.body = problem;
}

function frame(event: string, id: string, data: object): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function eventFrame(event: SubmissionEvent): string {
  const { id, siteId, formId, submissionId, kind } = event;
  return frame('submission', id, { siteId, formId, submissionId, kind });
}

export function streamEvents(
  services: Services,
  adminTokens: AdminTokens,
  events: SubmissionEvents,
  options: EventsRouteOptions,
) {
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  const maxStreams = options.maxStreamsPerMember ?? DEFAULT_MAX_STREAMS_PER_MEMBER;
  const openByMember = new Map<string, number>();
  const endings = new Set<() => void>();

  const whoIsCalling = (authorization: string | undefined, session: string | undefined) =>
    authenticate({ em: services.db.em.fork(), adminTokens }, authorization, session);

  const handle = async (ctx: AdminKoaContext): Promise<void> => {
    const authorization = ctx.get('authorization') || undefined;
    const session = options.readSession(ctx);
    let principal: Principal | null;
    try {
      principal = await whoIsCalling(authorization, session);
    } catch (error) {
      // An expired API token says so; anything else goes to the error handler.
      if (error instanceof AppError) {
        refuse(ctx, error.code, error.detail);
        return;
      }
      throw error;
    }
    if (principal === null) {
      refuse(ctx, 'unauthenticated', 'Sign in, or send an admin or API token.');
      return;
    }
    if (principal.kind === 'admin' && principal.mustEnrolSecondFactor) {
      refuse(ctx, 'second_factor_enrolment_required', 'Set up a second factor first.');
      return;
    }
    const memberId = principal.member.id;
    const open = openByMember.get(memberId) ?? 0;
    if (open >= maxStreams) {
      refuse(ctx, 'rate_limited', `At most ${maxStreams} event streams per member at once.`);
      return;
    }
    openByMember.set(memberId, open + 1);

    const stream = new PassThrough();
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.set('Content-Type', 'text/event-stream; charset=utf-8');
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Connection', 'keep-alive');
    // nginx would otherwise hold the events in its buffer (docs/deployment.md).
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = stream;

    let current: Principal = principal;
    let ended = false;

    const end = () => {
      if (ended) {
        return;
      }
      ended = true;
      endings.delete(end);
      clearInterval(heartbeat);
      clearInterval(recheck);
      unsubscribe();
      const left = (openByMember.get(memberId) ?? 1) - 1;
      if (left > 0) {
        openByMember.set(memberId, left);
      } else {
        openByMember.delete(memberId);
      }
      stream.end();
    };
    const write = (text: string) => {
      if (ended) {
        return;
      }
      if (stream.writableLength > MAX_BUFFERED_BYTES) {
        end();
        return;
      }
      stream.write(text);
    };
    // The member as they are now (a grant removed, an account disabled, a session signed out).
    const recheck = setInterval(() => {
      void whoIsCalling(authorization, session)
        .catch(() => null)
        .then((next) => {
          if (next === null) {
            end();
          } else {
            current = next;
          }
        });
    }, PRINCIPAL_TTL_MS);
    recheck.unref();
    const mayRead = (event: SubmissionEvent) => callerSiteLevel(current, event.siteId) !== null;
    const deliver = (message: LiveMessage) => {
      if (message.type === 'reset') {
        write(frame('reset', message.id, {}));
      } else if (mayRead(message.event)) {
        write(eventFrame(message.event));
      }
    };

    const unsubscribe = events.subscribe(deliver);
    const heartbeat = setInterval(() => write(': keep-alive\n\n'), heartbeatMs);
    heartbeat.unref();
    endings.add(end);
    ctx.req.once('close', end);
    stream.once('close', end);

    write(`retry: ${RETRY_MS}\n\n`);
    const lastEventId = ctx.get('last-event-id') || undefined;
    if (lastEventId !== undefined) {
      const missed = events.since(lastEventId);
      if (missed === null) {
        write(frame('reset', events.latestId(), {}));
      } else {
        for (const event of missed.filter(mayRead)) {
          write(eventFrame(event));
        }
      }
    }
    // An id without data moves the browser's Last-Event-ID: a reconnect resumes from here.
    write(`id: ${events.latestId()}\n: connected\n\n`);
  };
  return {
    handle,
    /** Ends every open stream (shutdown): the browsers reconnect to whichever process answers next. */
    endAll() {
      for (const end of [...endings]) {
        end();
      }
    },
  };
}
