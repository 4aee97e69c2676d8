import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { CombinedError } from 'urql';
import { describeError } from '../lib/api-errors';

interface ErrorAlertProps {
  error: CombinedError | undefined;
  /** Form fields that show their own error: those are left out here. */
  fieldsShownElsewhere?: readonly string[];
  title?: string;
}

/** The API's error in words, announced to screen readers; nothing when there is none. */
export function ErrorAlert({ error, fieldsShownElsewhere = [], title = 'Something went wrong' }: ErrorAlertProps) {
  const text = describeError(error, fieldsShownElsewhere);
  if (text === '') {
    return null;
  }
  return (
    <Alert color="red" title={title} icon={<IconAlertCircle aria-hidden />} role="alert">
      {text}
    </Alert>
  );
}
