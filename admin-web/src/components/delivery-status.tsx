// A delivery's status as a badge, with its next try when one is planned: the Webhooks page's
// delivery log and a submission's Deliveries section show the same words.
import { Badge, Text } from '@mantine/core';
import { formatDateTime } from '../lib/format';

const STATUS = {
  PENDING: { label: 'Pending', color: 'yellow' },
  SUCCEEDED: { label: 'Delivered', color: 'green' },
  FAILED: { label: 'Failed', color: 'red' },
} as const;

export function DeliveryStatus({
  status,
  nextAttemptAt,
}: {
  status: keyof typeof STATUS;
  nextAttemptAt?: string | null;
}) {
  return (
    <>
      <Badge color={STATUS[status].color} variant="dot">
        {STATUS[status].label}
      </Badge>
      {nextAttemptAt ? (
        <Text size="xs" c="dimmed">
          Next try {formatDateTime(nextAttemptAt)}
        </Text>
      ) : null}
    </>
  );
}
