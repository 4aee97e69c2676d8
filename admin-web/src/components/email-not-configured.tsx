// Said where notification e-mail addresses are set or listed, when the server has no SMTP_URL: the
// addresses are accepted and kept, but the worker fails each e-mail at once, so nothing is sent.
import { Alert } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';

/** The warning when `configured` is false; nothing while it is unknown or true. */
export function EmailNotConfigured({ configured }: { configured: boolean | undefined }) {
  if (configured !== false) {
    return null;
  }
  return (
    <Alert color="yellow" variant="light" icon={<IconMailOff aria-hidden />}>
      E-mail is not configured on this server (SMTP_URL is unset): notification e-mails are not sent until the operator
      sets SMTP_URL and restarts the service. The addresses are kept; meanwhile each submission&apos;s e-mail is marked
      failed at once, and Redeliver sends it once e-mail works.
    </Alert>
  );
}
