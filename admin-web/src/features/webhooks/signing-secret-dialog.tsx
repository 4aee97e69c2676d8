// A webhook's signing secret, shown once: after a create or a rotation.
import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import { CopyButton } from '../../components/copy-button';

/** A signing secret, shown once: after a create or a rotation. */
export function SecretDialog({
  shown,
  onClose,
}: {
  shown: { url: string; secret: string } | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={shown !== null} onClose={onClose} title="Signing secret" centered size="lg">
      <Stack>
        <Text size="sm">
          The secret of <Code style={{ wordBreak: 'break-all' }}>{shown?.url}</Code>, shown this once: keep it with the
          receiver, which checks each request&apos;s <Code>webhook-signature</Code> header with it (Standard Webhooks).
        </Text>
        <Code block data-testid="webhook-secret" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {shown?.secret}
        </Code>
        <Group justify="space-between">
          <CopyButton value={shown?.secret ?? ''} />
          <Button onClick={onClose} data-autofocus>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
