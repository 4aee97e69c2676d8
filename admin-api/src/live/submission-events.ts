// The submission events of this admin process (docs/console.md#live-updates): what the database
// tells on `intake_submission_events` (migration Migration20261130120000_submission_events), each
// given an id of this process, kept in a short ring for `Last-Event-ID`, and handed to the streams
// open here. Several admin processes each listen and number their own. The feed starts with the
// first stream, so an app that never serves one holds no listening connection.
import { randomBytes } from 'node:crypto';
import { watchChannel, type NotifyChannel, type SiteChangeFeed } from '@intake/shared/db';
import type { Services } from '@intake/shared/services';
import { isUuid } from '@intake/shared/site-token';

export const SUBMISSION_EVENTS: NotifyChannel = {
  name: 'intake_submission_events',
  applicationName: 'intake-submission-events',
  label: 'submission event feed',
};

export const SUBMISSION_EVENT_KINDS = ['created', 'changed', 'deleted'] as const;
export type SubmissionEventKind = (typeof SUBMISSION_EVENT_KINDS)[number];

/** Ids only: never a submitted value or a note's text. */
export interface SubmissionEvent {
  id: string;
  siteId: string;
  formId: string;
  submissionId: string;
  kind: SubmissionEventKind;
}

/** What a stream hears: an event, or that events may have been missed (refetch everything). */
export type LiveMessage = { type: 'submission'; event: SubmissionEvent } | { type: 'reset'; id: string };

export type LiveSubscriber = (message: LiveMessage) => void;

export interface SubmissionEvents {
  /** Starts the feed if needed; returns the unsubscribe. */
  subscribe(subscriber: LiveSubscriber): () => void;
  /**
   * The events after `lastEventId`, oldest first; null when that id is not one this process still
   * holds (another process's, too old, or from before a gap): the caller refetches everything.
   */
  since(lastEventId: string): SubmissionEvent[] | null;
  /** The id of the newest event, or of the start: where a client that refetched stands. */
  latestId(): string;
  close(): Promise<void>;
}

export interface SubmissionEventsOptions {
  /** How many events are kept for a resume. */
  ringSize?: number;
}

const DEFAULT_RING_SIZE = 1000;

/** Parses a notification's payload; anything else than ids and a known kind is dropped. */
export function parseSubmissionEvent(payload: string): Omit<SubmissionEvent, 'id'> | null {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) {
    return null;
  }
  const { siteId, formId, submissionId, kind } = value as Record<string, unknown>;
  if (
    typeof siteId !== 'string' ||
    typeof formId !== 'string' ||
    typeof submissionId !== 'string' ||
    !isUuid(siteId) ||
    !isUuid(formId) ||
    !isUuid(submissionId) ||
    !SUBMISSION_EVENT_KINDS.includes(kind as SubmissionEventKind)
  ) {
    return null;
  }
  return { siteId, formId, submissionId, kind: kind as SubmissionEventKind };
}

export function createSubmissionEvents(services: Services, options: SubmissionEventsOptions = {}): SubmissionEvents {
  const ringSize = options.ringSize ?? DEFAULT_RING_SIZE;
  // Ids are `<boot>-<sequence>`: an id of another process (or of this one before a restart) is
  // recognised as not ours, so the client refetches instead of trusting a resume.
  const boot = randomBytes(6).toString('hex');
  let sequence = 0;
  const ring: SubmissionEvent[] = [];
  // Ids at or below this may have missed events (the feed was blind): no resume from them.
  let gapAt = 0;
  let feed: SiteChangeFeed | undefined;
  let wasLive = false;
  let closed = false;
  const subscribers = new Set<LiveSubscriber>();

  const idOf = (n: number) => `${boot}-${n}`;
  const sequenceOf = (id: string): number | null => {
    const match = /^([0-9a-f]{12})-(\d{1,15})$/.exec(id);
    return match === null || match[1] !== boot ? null : Number(match[2]);
  };
  // On PGlite a notification is heard during the COMMIT that raised it: hand it on later, not here.
  const broadcast = (message: LiveMessage) => {
    setImmediate(() => {
      for (const subscriber of subscribers) {
        subscriber(message);
      }
    });
  };
  const reset = () => {
    gapAt = sequence;
    ring.length = 0;
    broadcast({ type: 'reset', id: idOf(sequence) });
  };

  const start = () => {
    feed ??= watchChannel(
      services.db,
      SUBMISSION_EVENTS,
      {
        onNotification(payload) {
          const parsed = parseSubmissionEvent(payload);
          if (parsed === null) {
            return;
          }
          sequence += 1;
          const event = { id: idOf(sequence), ...parsed };
          ring.push(event);
          if (ring.length > ringSize) {
            ring.shift();
          }
          broadcast({ type: 'submission', event });
        },
        onLive() {
          // Back after a gap: what happened meanwhile was not heard.
          if (wasLive) {
            reset();
          }
          wasLive = true;
        },
        onBlind() {
          if (!closed) {
            reset();
          }
        },
      },
      { logger: services.logger },
    );
  };

  return {
    subscribe(subscriber) {
      if (!closed) {
        start();
      }
      subscribers.add(subscriber);
      return () => subscribers.delete(subscriber);
    },
    since(lastEventId) {
      const after = sequenceOf(lastEventId);
      if (after === null || after < gapAt || after > sequence) {
        return null;
      }
      const oldest = ring[0] === undefined ? sequence + 1 : sequenceOf(ring[0].id)!;
      // The next event after `after` must still be in the ring.
      if (after + 1 < oldest) {
        return null;
      }
      return ring.filter((event) => sequenceOf(event.id)! > after);
    },
    latestId: () => idOf(sequence),
    async close() {
      closed = true;
      subscribers.clear();
      await feed?.close();
    },
  };
}
