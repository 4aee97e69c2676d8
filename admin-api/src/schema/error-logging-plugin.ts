import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import type { AdminContext } from '../context.js';
import { isExposedError } from '../errors.js';

/** Logs every error that `formatError` will mask, with the request id the client got in X-Request-Id. */
export function errorLoggingPlugin(): ApolloServerPlugin<AdminContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue, operationName }) {
          for (const error of errors) {
            if (!isExposedError(error)) {
              contextValue.logger.error(
                { err: unwrapResolverError(error), requestId: contextValue.requestId, operationName, path: error.path },
                'graphql request failed',
              );
            }
          }
        },
      };
    },
  };
}
