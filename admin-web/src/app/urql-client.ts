// The one GraphQL client: POSTs to /graphql on this origin; the HttpOnly session cookie is the
// credential (the console never sees a token and sends no Authorization header). A change refused
// for an old sign-in is confirmed and sent again (recent-sign-in-exchange.ts).
import { Client, cacheExchange, fetchExchange, mapExchange, type Operation } from 'urql';
import { hasErrorCode } from '../lib/api-errors';
import { recentSignInExchange, type ConfirmRecentSignIn } from './recent-sign-in-exchange';

// Operations whose UNAUTHENTICATED answer is their own result (a wrong password), not a lost session.
const SESSIONLESS_OPERATIONS = new Set([
  'SignIn',
  'VerifySecondFactor',
  'StartPasskeySignIn',
  'FinishPasskeySignIn',
  'SignOut',
]);

function operationName(operation: Operation): string | undefined {
  for (const definition of operation.query.definitions) {
    if (definition.kind === 'OperationDefinition') {
      return definition.name?.value;
    }
  }
  return undefined;
}

export function createUrqlClient(onSessionLost: () => void, confirmRecentSignIn: ConfirmRecentSignIn): Client {
  return new Client({
    url: '/graphql',
    // Apollo's CSRF prevention refuses simple GET requests; POST with a JSON body always passes.
    preferGetMethod: false,
    requestPolicy: 'cache-and-network',
    fetchOptions: { credentials: 'same-origin' },
    exchanges: [
      mapExchange({
        onError(error, operation) {
          const name = operationName(operation);
          if (hasErrorCode(error, 'UNAUTHENTICATED') && (name === undefined || !SESSIONLESS_OPERATIONS.has(name))) {
            onSessionLost();
          }
        },
      }),
      cacheExchange,
      recentSignInExchange(confirmRecentSignIn),
      fetchExchange,
    ],
  });
}
