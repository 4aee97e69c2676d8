// The password reset link an owner or admin hands over when the server sends no e-mail.
import { Alert, Button, Code, Group, Modal, Stack } from '@mantine/core';
import { CopyButton } from '../../components/copy-button';

export interface ResetLink {
  who: string;
  link: string;
}

export function ResetLinkDialog({ reset, onClose }: { reset: ResetLink | null; onClose: () => void }) {
  return (
    <Modal opened={reset !== null} onClose={onClose} title="Password reset link" centered size="lg">
      {reset ? (
        <Stack>
          <Alert color="yellow" role="status">
            No e-mail was sent: e-mail is not configured on this server (SMTP_URL is unset). Give this link to{' '}
            {reset.who} yourself, over a channel you trust. It works once, for 30 minutes; their password holds until
            then.
          </Alert>
          <Code
            block
            aria-label="Password reset link"
            data-testid="reset-link"
            style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
          >
            {reset.link}
          </Code>
          <Group justify="space-between">
            <CopyButton value={reset.link} />
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
