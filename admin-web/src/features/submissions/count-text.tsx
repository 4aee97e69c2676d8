// A view's count in words ("3 matching submissions", "Counting…", "More than 1,000 …"), and the
// button that counts them all: the exact count reads every match, so it is asked for, not assumed.
import { Button } from '@mantine/core';
import type { SubmissionCount } from './use-submission-count';

/** `singular` and `plural` name what is counted, e.g. "matching submission(s)". */
export function countText(count: SubmissionCount, singular: string, plural: string): string {
  if (count.total !== undefined) {
    return count.total === 1 ? `1 ${singular}` : `${count.total.toLocaleString('en')} ${plural}`;
  }
  return count.over === undefined ? 'Counting…' : `More than ${count.over.toLocaleString('en')} ${plural}`;
}

/** Shown while the count stopped at its limit. */
export function CountAllButton({ count }: { count: SubmissionCount }) {
  if (count.over === undefined && !count.countingAll) {
    return null;
  }
  return (
    <Button size="compact-xs" variant="subtle" ml="xs" loading={count.countingAll} onClick={count.countAll}>
      Count all
    </Button>
  );
}
