// Said where notification e-mail addresses are set or listed, when the server has no SMTP_URL: the
// addresses are accepted and kept, but every e-mail would fail, so nothing is sent.
import { Alert } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';

/** The warning when `configured` is false; nothing while it is unknown or true. */
export function EmailNotConfigured({ configured }: { configured: boolean | undefined }) {
  if (configured !== false) {
    return null;
  }
  return (
    <Alert color="yellow" variant="light" icon={<IconMailOff aria-hidden />}>
      E-mail is not configured on this server (SMTP_URL is unset): nothing will be sent. The addresses are kept; once
      the operator sets SMTP_URL and restarts the service, new submissions are e-mailed to them.
    </Alert>
  );
}
