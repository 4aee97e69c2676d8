// Which rows of the page on screen are selected for a bulk action. Only rows still listed count, so
// another page, a filter or a refresh never leaves a hidden row selected.
import { useCallback, useMemo, useState } from 'react';

export interface RowSelection {
  /** The selected ids among the listed rows, in their order. */
  ids: string[];
  isSelected(id: string): boolean;
  toggle(id: string, selected: boolean): void;
  /** Selects every listed row, or none. */
  setAll(selected: boolean): void;
  clear(): void;
}

export function useRowSelection(listedIds: readonly string[]): RowSelection {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const ids = useMemo(() => listedIds.filter((id) => chosen.has(id)), [listedIds, chosen]);
  const toggle = useCallback((id: string, selected: boolean) => {
    setChosen((before) => {
      const next = new Set(before);
      if (selected) {
        next.add(id);
      } else {
        next.delete(id);
      }
      return next;
    });
  }, []);
  const setAll = useCallback((selected: boolean) => setChosen(new Set(selected ? listedIds : [])), [listedIds]);
  const clear = useCallback(() => setChosen(new Set()), []);
  return { ids, isSelected: (id) => ids.includes(id), toggle, setAll, clear };
}
