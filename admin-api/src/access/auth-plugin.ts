// The gate of the whole API: before anything executes, every operation except those the permission
// table marks `public` (permissions.ts) needs a valid bearer token or console session. Checked once per operation (not per field), so introspection and
// `__typename` are covered too, and a refusal is one UNAUTHENTICATED error with HTTP 401.
// Resolvers keep `@Authorized()` as a second line (see auth-checker.ts).
import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AdminContext } from '../context.js';
import { unauthenticated } from '../errors.js';
import { authenticate } from './authenticate.js';
import { ruleOf } from './permissions.js';

export function authPlugin(): ApolloServerPlugin<AdminContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document }) {
          if (operation !== undefined && isPublicOperation(operation, document)) {
            return;
          }
          const { deps } = contextValue;
          contextValue.principal = await authenticate(
            { em: deps.services.db.em.fork(), adminTokens: deps.adminTokens },
            contextValue.authorization,
            contextValue.session.read(),
          );
          if (contextValue.principal === null) {
            throw unauthenticated();
          }
        },
      };
    },
  };
}

/**
 * An operation whose root fields (through fragments) are all `public` in the permission table (and
 * `__typename`); a query needs at least one such field (`{ __typename }` alone is no public query).
 */
export function isPublicOperation(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  if (operation.operation === 'subscription') {
    return false;
  }
  const rootType = operation.operation === 'mutation' ? 'Mutation' : 'Query';
  let publicFields = 0;
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition.selectionSet);
    }
  }
  const visited = new Set<string>();
  const onlyPublic = (selectionSet: SelectionSetNode): boolean =>
    selectionSet.selections.every((selection) => {
      switch (selection.kind) {
        case Kind.FIELD: {
          const name = selection.name.value;
          if (name === '__typename') {
            return true;
          }
          publicFields += 1;
          return ruleOf(rootType, name)?.permission === 'public';
        }
        case Kind.INLINE_FRAGMENT:
          return onlyPublic(selection.selectionSet);
        case Kind.FRAGMENT_SPREAD: {
          const name = selection.name.value;
          const fragment = fragments.get(name);
          if (fragment === undefined || visited.has(name)) {
            return false;
          }
          visited.add(name);
          return onlyPublic(fragment);
        }
        default:
          return false;
      }
    });
  return onlyPublic(operation.selectionSet) && (rootType === 'Mutation' || publicFields > 0);
}
