// Every mutation ends in a notification: what was done, or the API's error in words.
import { notifications } from '@mantine/notifications';
import type { CombinedError } from 'urql';
import { describeError } from '../lib/api-errors';

export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

export function notifyError(error: CombinedError | undefined, title = 'That did not work'): void {
  notifications.show({ color: 'red', title, message: describeError(error) || 'Unknown error.', autoClose: 10000 });
}

/** A mutation's outcome: `succeeded` when it answered, else its error titled `failed`. The answer, if any. */
export function notifyOutcome<Data>(
  result: { data?: Data; error?: CombinedError },
  failed: string,
  succeeded: string,
): Data | undefined {
  if (result.error || !result.data) {
    notifyError(result.error, failed);
    return undefined;
  }
  notifySuccess(succeeded);
  return result.data;
}
