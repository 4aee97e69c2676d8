// Live updates (docs/console.md#live-updates): one EventSource per signed-in console on
// /events. The admin service tells which submission arrived or changed (ids only, and only
// of sites this member may read); the views showing it refetch. The browser reconnects by itself
// and sends Last-Event-ID, so a short break loses nothing; `reset` (the service could not resume)
// refetches every live view. While the stream is down, the views poll as before.
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

export function LiveUpdatesProvider({ children }: { children: ReactNode }) {
  const subscribers = useRef(new Set<Subscriber>());
  const [connected, setConnected] = useState(false);

  useEffect(() => {
    if (typeof EventSource === 'undefined') {
      return undefined;
    }
    let source: EventSource | undefined;
    let reopen: number | undefined;
    let wasOpen = false;
    const tell = (event: SubmissionEvent | null) => {
      for (const subscriber of subscribers.current) {
        subscriber(event);
      }
    };
    const open = () => {
      source = new EventSource(EVENTS_URL);
      source.onopen = () => {
        setConnected(true);
        // After a break the views may be behind what the resume cannot tell (their last poll).
        if (wasOpen) {
          tell(null);
        }
        wasOpen = true;
      };
      source.onerror = () => {
        setConnected(false);
        if (source?.readyState === EventSource.CLOSED) {
          source.close();
          reopen = window.setTimeout(open, REOPEN_AFTER_MS);
        }
      };
      source.addEventListener('submission', (message) => {
        try {
          tell(JSON.parse((message as MessageEvent<string>).data) as SubmissionEvent);
        } catch {
          // Not ours to understand: ignored.
        }
      });
      source.addEventListener('reset', () => tell(null));
    };
    open();
    return () => {
      window.clearTimeout(reopen);
      source?.close();
    };
  }, []);

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
