// Where a delivery went and why it failed, in words safe for anyone who may read the submission or
// the form: a URL's host (its path or query may hold the receiver's secret) and a short reason.
import type { DeliveryAttempt } from '@intake/shared/entities';

const ERROR_SUMMARY_LENGTH = 120;

/** The host of a webhook URL: where it went, without a path or query that may hold a token. */
export function webhookHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'webhook';
  }
}

/** Why an attempt failed, in a few words; null when it succeeded. */
export function summarizeAttemptError(attempt: Pick<DeliveryAttempt, 'succeeded' | 'statusCode' | 'error'>) {
  if (attempt.succeeded) {
    return null;
  }
  const error = attempt.error ?? (attempt.statusCode ? `HTTP ${attempt.statusCode}` : 'failed');
  // The guard's message names the resolved address: the host is shown already.
  const summary = error.startsWith('address refused') ? 'address refused (a private or reserved address)' : error;
  return summary.slice(0, ERROR_SUMMARY_LENGTH);
}
