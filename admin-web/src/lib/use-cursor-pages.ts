// The pages of a newest-first list that the API pages forward only: the `after` cursor of every page
// visited so far, the last one being the page shown (going back to a newer page needs them).
import { useState } from 'react';

export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return { cursors, setCursors, after: cursors[cursors.length - 1] ?? null, pageNumber: cursors.length };
}
