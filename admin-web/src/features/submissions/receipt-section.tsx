// A submission's signed receipt (docs/receipts.md): whether it still matches what is stored, checked
// by the admin API against the published keys, and the receipt itself to copy and hand on.
import { Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { CopyButton } from '../../components/copy-button';
import type { SubmissionDetailQuery } from '../../gql/graphql';

type Submission = NonNullable<SubmissionDetailQuery['submission']>;

/** What each problem of the check means, in the words of the page. */
const PROBLEMS: Record<string, string> = {
  signature: 'The signature does not verify with a published key.',
  submission: 'It was signed for another submission, form, site or time.',
  data: 'The stored fields are not the ones that were signed: they changed after the submission was received.',
  files: 'The stored files are not the ones that were signed: they changed after the submission was received.',
};

function ReceiptStatus({ check }: { check: NonNullable<Submission['receiptCheck']> }) {
  if (check.valid) {
    return (
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <IconCircleCheck color="var(--mantine-color-green-9)" aria-hidden style={{ flexShrink: 0 }} />
        <Text data-testid="receipt-status">
          <strong>Receipt: valid</strong>{' '}
          <Text span c="dimmed" size="sm">
            (signed by key <Code style={{ wordBreak: 'break-all' }}>{check.keyId}</Code>; the stored fields and files
            are the ones signed)
          </Text>
        </Text>
      </Group>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <IconAlertTriangle color="var(--mantine-color-red-9)" aria-hidden style={{ flexShrink: 0 }} />
      <Text data-testid="receipt-status">
        <strong>Receipt: does not match</strong>{' '}
        <Text span size="sm">
          {PROBLEMS[check.problem ?? ''] ?? 'It could not be verified.'}
        </Text>
      </Text>
    </Group>
  );
}

export function ReceiptSection({ submission }: { submission: Submission }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="receipt-title">
      <Title order={2} size="h4" id="receipt-title" mb="sm">
        Receipt
      </Title>
      {submission.receipt === null || submission.receipt === undefined || !submission.receiptCheck ? (
        <Text c="dimmed">No receipt: this submission was stored before Intake signed receipts.</Text>
      ) : (
        <Stack gap="sm">
          <ReceiptStatus check={submission.receiptCheck} />
          <Text size="sm" c="dimmed">
            The gateway signed this receipt when it accepted the submission. Anyone can verify it with the keys at{' '}
            <Code>/.well-known/jwks.json</Code> on the gateway.
          </Text>
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <Code block data-testid="receipt" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap', flex: 1 }}>
              {submission.receipt}
            </Code>
            <CopyButton value={submission.receipt} label="Copy the receipt" />
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
