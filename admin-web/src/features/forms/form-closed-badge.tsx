// Why a form takes no submission now, as a badge beside it: not open yet, closed, or full.
import { Badge } from '@mantine/core';
import type { FormClosedReason } from '../../gql/graphql';
import { formatDateTime } from '../../lib/format';

export function FormClosedBadge({ reason, opensAt }: { reason: FormClosedReason | null; opensAt: string | null }) {
  if (reason === null) {
    return null;
  }
  const label = reason === 'FULL' ? 'Full' : reason === 'CLOSED' ? 'Closed' : `Opens ${formatDateTime(opensAt)}`;
  return (
    <Badge
      color={reason === 'NOT_YET_OPEN' ? 'blue' : 'orange'}
      variant="dot"
      w="max-content"
      data-testid="form-closed"
    >
      {label}
    </Badge>
  );
}
