// Lists that change on their own (new submissions, delivery attempts) refresh while someone looks at
// them: every `intervalMs` while the tab is visible, and at once when it becomes visible again.
// `enabled` false stops it (live updates push the changes instead: live-updates.tsx).
import { useEffect, useRef } from 'react';

export function usePolling(poll: () => void, intervalMs: number, enabled = true): void {
  const latest = useRef(poll);
  useEffect(() => {
    latest.current = poll;
  });
  useEffect(() => {
    if (!enabled) {
      return undefined;
    }
    const pollIfVisible = () => {
      if (document.visibilityState === 'visible') {
        latest.current();
      }
    };
    const timer = window.setInterval(pollIfVisible, intervalMs);
    document.addEventListener('visibilitychange', pollIfVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', pollIfVisible);
    };
  }, [intervalMs, enabled]);
}
