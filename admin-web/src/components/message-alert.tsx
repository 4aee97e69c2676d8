import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** A failure already in words (a browser's refusal, not an API error), shown like ErrorAlert; nothing when null. */
export function MessageAlert({ message, title }: { message: string | null; title: string }) {
  if (message === null) {
    return null;
  }
  return (
    <Alert color="red" title={title} icon={<IconAlertCircle aria-hidden />} role="alert">
      {message}
    </Alert>
  );
}
