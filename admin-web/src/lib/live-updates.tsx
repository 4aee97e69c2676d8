// Live updates (docs/console.md#live-updates): one EventSource per signed-in console on
// /events. The admin service tells which submission arrived or changed (ids only, and only
// of sites this member may read); the views showing it refetch. The browser reconnects by itself
// and sends Last-Event-ID, so a short break loses nothing; `reset` (the service could not resume)
// refetches every live view. While the stream is down, the views poll as before. The tabs of one
// browser share one stream (see LEADER_LOCK).
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { usePolling } from './use-polling';

export const EVENTS_URL = '/events';

export interface SubmissionEvent {
  siteId: string;
  formId: string;
  submissionId: string;
  kind: 'created' | 'changed' | 'deleted';
}

/** `null`: refetch everything (events may have been missed). */
type Subscriber = (event: SubmissionEvent | null) => void;

interface LiveUpdates {
  subscribe(subscriber: Subscriber): () => void;
  connected: boolean;
}

const LiveUpdatesContext = createContext<LiveUpdates>({ subscribe: () => () => undefined, connected: false });

// A stream the service refused (a lost session) is not retried by the browser: try again this late.
const REOPEN_AFTER_MS = 15_000;
// One stream per browser, not per tab: over HTTP/1.1 a browser opens at most six connections to
// one origin, and six console tabs each holding a stream would leave none for their requests. The
// tab holding this lock keeps the stream and passes what it hears to the others on the channel
// below; when it closes, another tab takes the lock and opens the stream.
const LEADER_LOCK = 'intake-live-updates';
const CHANNEL = 'intake-live-updates';

type Relayed = { type: 'event'; event: SubmissionEvent } | { type: 'reset' } | { type: 'state'; connected: boolean };
/** A tab that just opened asks the stream's tab whether it is connected. */
type Hello = { type: 'hello' };

/** Opens the stream and tells `on` what it hears; returns the close. */
function openStream(on: (message: Relayed) => void): () => void {
  let source: EventSource | undefined;
  let reopen: number | undefined;
  let wasOpen = false;
  const open = () => {
    source = new EventSource(EVENTS_URL);
    source.onopen = () => {
      on({ type: 'state', connected: true });
      // After a break the views may be behind what the resume cannot tell (their last poll).
      if (wasOpen) {
        on({ type: 'reset' });
      }
      wasOpen = true;
    };
    source.onerror = () => {
      on({ type: 'state', connected: false });
      if (source?.readyState === EventSource.CLOSED) {
        source.close();
        reopen = window.setTimeout(open, REOPEN_AFTER_MS);
      }
    };
    source.addEventListener('submission', (message) => {
      try {
        on({ type: 'event', event: JSON.parse((message as MessageEvent<string>).data) as SubmissionEvent });
      } catch {
        // Not ours to understand: ignored.
      }
    });
    source.addEventListener('reset', () => on({ type: 'reset' }));
  };
  open();
  return () => {
    window.clearTimeout(reopen);
    source?.close();
  };
}

/** `enabled` false: no stream (the views poll), without remounting what is inside. */
export function LiveUpdatesProvider({ children, enabled = true }: { children: ReactNode; enabled?: boolean }) {
  const subscribers = useRef(new Set<Subscriber>());
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') {
      return undefined;
    }
    const tell = (event: SubmissionEvent | null) => {
      for (const subscriber of subscribers.current) {
        subscriber(event);
      }
    };
    // A tab that saw the stream connected before refetches when it connects again (a break, or
    // another tab taking over the stream): what happened in between was not heard.
    let sawConnected = false;
    let isConnected = false;
    const hear = (message: Relayed) => {
      if (message.type === 'event') {
        tell(message.event);
      } else if (message.type === 'reset') {
        tell(null);
      } else {
        if (message.connected && !isConnected && sawConnected) {
          tell(null);
        }
        sawConnected ||= message.connected;
        isConnected = message.connected;
        setConnected(message.connected);
      }
    };
    const shared = typeof BroadcastChannel !== 'undefined' && typeof navigator.locks !== 'undefined';
    if (!shared) {
      const close = openStream(hear);
      return () => {
        close();
        setConnected(false);
      };
    }
    const channel = new BroadcastChannel(CHANNEL);
    const leaving = new AbortController();
    let closeStream: (() => void) | undefined;
    let streamConnected = false;
    channel.onmessage = (message: MessageEvent<Relayed | Hello>) => {
      if (message.data.type !== 'hello') {
        hear(message.data);
      } else if (closeStream !== undefined) {
        channel.postMessage({ type: 'state', connected: streamConnected } satisfies Relayed);
      }
    };
    channel.postMessage({ type: 'hello' } satisfies Hello);
    navigator.locks
      .request(LEADER_LOCK, { signal: leaving.signal }, () => {
        const relay = (message: Relayed) => {
          if (message.type === 'state') {
            streamConnected = message.connected;
          }
          hear(message);
          channel.postMessage(message);
        };
        // Taking over from a tab that left: no stream until this one connects.
        relay({ type: 'state', connected: false });
        closeStream = openStream(relay);
        // Held until this tab leaves.
        return new Promise<void>((resolve) => leaving.signal.addEventListener('abort', () => resolve()));
      })
      .catch(() => undefined);
    return () => {
      leaving.abort();
      closeStream?.();
      channel.close();
      setConnected(false);
    };
  }, [enabled]);

  const value = useMemo<LiveUpdates>(
    () => ({
      subscribe(subscriber) {
        subscribers.current.add(subscriber);
        return () => subscribers.current.delete(subscriber);
      },
      connected,
    }),
    [connected],
  );
  return <LiveUpdatesContext.Provider value={value}>{children}</LiveUpdatesContext.Provider>;
}

/** What a view shows: the submissions of one form, or one submission. */
export type LiveScope = { formId: string } | { submissionId: string };

function concerns(scope: LiveScope, event: SubmissionEvent): boolean {
  return 'formId' in scope ? event.formId === scope.formId : event.submissionId === scope.submissionId;
}

// Events in a burst (a bulk action, a busy form) refetch once.
const COALESCE_MS = 30;

/**
 * Calls `refresh` when a submission in `scope` arrives or changes (or everything must be
 * refetched); polls every `fallbackPollMs` only while the stream is down (null: the view polls anyway).
 */
export function useLiveRefresh(refresh: () => void, scope: LiveScope, fallbackPollMs: number | null): void {
  const { subscribe, connected } = useContext(LiveUpdatesContext);
  const latest = useRef(refresh);
  useEffect(() => {
    latest.current = refresh;
  });
  const scopeKey = 'formId' in scope ? `form:${scope.formId}` : `submission:${scope.submissionId}`;
  useEffect(() => {
    const current: LiveScope = scopeKey.startsWith('form:')
      ? { formId: scopeKey.slice('form:'.length) }
      : { submissionId: scopeKey.slice('submission:'.length) };
    let timer: number | undefined;
    const unsubscribe = subscribe((event) => {
      if (event !== null && !concerns(current, event)) {
        return;
      }
      window.clearTimeout(timer);
      timer = window.setTimeout(() => latest.current(), COALESCE_MS);
    });
    return () => {
      window.clearTimeout(timer);
      unsubscribe();
    };
  }, [subscribe, scopeKey]);
  usePolling(() => latest.current(), fallbackPollMs ?? 0, !connected && fallbackPollMs !== null);
}
