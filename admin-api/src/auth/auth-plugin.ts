// The gate of the whole API: before anything executes, every operation except `login` and `logout`
// needs a valid bearer token or console session. Checked once per operation (not per field), so introspection and
// `__typename` are covered too, and a refusal is one UNAUTHENTICATED error with HTTP 401.
// Resolvers keep `@Authorized()` as a second line (see auth-checker.ts).
import type { ApolloServerPlugin } from '@apollo/server';
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AdminContext } from '../context.js';
import { unauthenticated } from '../schema/errors.js';
import { authenticate } from './authenticate.js';

const PUBLIC_MUTATION_FIELDS = new Set(['login', 'logout', '__typename']);

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

/** A mutation whose root fields (through fragments) are only `login` (and `__typename`). */
export function isPublicOperation(operation: OperationDefinitionNode, document: DocumentNode): boolean {
  if (operation.operation !== 'mutation') {
    return false;
  }
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
        case Kind.FIELD:
          return PUBLIC_MUTATION_FIELDS.has(selection.name.value);
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
  return onlyPublic(operation.selectionSet);
}
