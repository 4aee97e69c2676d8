// Changes that add a way in (a passkey, an API token, a member…) answer RECENT_SIGN_IN_REQUIRED when
// the session's sign-in is older than ten minutes (docs/sign-in.md#recent-sign-in). This exchange
// meets that answer for every mutation alike: it asks the person to confirm it is them (the dialog of
// recent-sign-in-dialog.tsx) and, once confirmed, sends the same mutation once more and hands its
// answer to whoever sent the first. Cancelled, the first answer goes through as it was.
import { mapExchange, type Exchange, type Operation, type OperationResult } from 'urql';
import { errorExtensionList, hasErrorCode } from '../lib/api-errors';

/** Asks the person to confirm (`methods`: what the API accepts from them); true once confirmed. */
export type ConfirmRecentSignIn = (methods: string[]) => Promise<boolean>;

const RETRIED = 'recentSignInRetried';

export function recentSignInExchange(confirm: ConfirmRecentSignIn): Exchange {
  return (input) =>
    mapExchange({
      onResult(result) {
        const { operation } = result;
        if (
          operation.kind !== 'mutation' ||
          operation.context[RETRIED] === true ||
          !hasErrorCode(result.error, 'RECENT_SIGN_IN_REQUIRED')
        ) {
          return result;
        }
        return confirmAndRetry(input.client, operation, result, confirm);
      },
    })(input);
}

async function confirmAndRetry(
  client: Parameters<Exchange>[0]['client'],
  operation: Operation,
  refused: OperationResult,
  confirm: ConfirmRecentSignIn,
): Promise<OperationResult> {
  if (!(await confirm(errorExtensionList(refused.error, 'RECENT_SIGN_IN_REQUIRED', 'methods')))) {
    return refused;
  }
  // A new mutation instance (urql keeps one per call), marked so that it is not retried again.
  const { _instance: _, ...context } = operation.context as typeof operation.context & { _instance?: unknown };
  const retry = client.createRequestOperation('mutation', operation, { ...context, [RETRIED]: true });
  const answer = await client.executeRequestOperation(retry).toPromise();
  return { ...answer, operation };
}
