// `Newer` and `Older` under a newest-first connection. The page keeps the `after` cursor of every
// page visited (the last one is the page shown): going back needs them, the API only pages forward.
import { Button, Group } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { Dispatch, SetStateAction } from 'react';

export interface NewerOlderPagerProps {
  /** The navigation's accessible name, e.g. `Pages of spam`. */
  label: string;
  cursors: (string | null)[];
  setCursors: Dispatch<SetStateAction<(string | null)[]>>;
  pageInfo: { hasNextPage: boolean; endCursor?: string | null };
}

/** Nothing while everything fits on the first page. */
export function NewerOlderPager({ label, cursors, setCursors, pageInfo }: NewerOlderPagerProps) {
  const pageNumber = cursors.length;
  if (pageNumber === 1 && !pageInfo.hasNextPage) {
    return null;
  }
  return (
    <Group justify="space-between" mt="md" component="nav" aria-label={label}>
      <Button
        variant="default"
        leftSection={<IconChevronLeft size={16} aria-hidden />}
        disabled={pageNumber === 1}
        onClick={() => setCursors((list) => list.slice(0, -1))}
      >
        Newer
      </Button>
      <Button
        variant="default"
        rightSection={<IconChevronRight size={16} aria-hidden />}
        disabled={!pageInfo.hasNextPage || !pageInfo.endCursor}
        onClick={() => setCursors((list) => [...list, pageInfo.endCursor ?? null])}
      >
        Older
      </Button>
    </Group>
  );
}
