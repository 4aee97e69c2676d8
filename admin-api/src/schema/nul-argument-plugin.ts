// Refuses U+0000 in any argument of an operation (a variable's value or a literal, inside input
// objects and lists too) before anything runs. PostgreSQL text cannot hold it: a query carrying
// one failed as if the database were down (SERVICE_UNAVAILABLE). Checked once here, for every
// argument the schema has and will have, rather than in each resolver's rules. Except `login`,
// whose failures must all look alike and count for the lockout: the login command knows that no
// account's e-mail holds a NUL (find-admin.ts). Like GraphQL validation, this runs alongside
// authentication (Apollo runs the plugins' hooks together), so an anonymous caller may get this
// refusal first; it names only an argument of the caller's own document (docs/admin-api.md).
import type { ApolloServerPlugin } from '@apollo/server';
import {
  GraphQLError,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  BREAK,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import type { AdminContext } from '../context.js';
import { ErrorCode } from '../errors.js';

/** `Type.field` whose arguments are left to the resolver. */
const EXEMPT_FIELDS = new Set(['Mutation.login']);

const PROBLEM = 'must not contain a NUL character (U+0000)';

/** The path (`input.blockedWords.1`) of the first string holding U+0000 in a JSON-like value, or null. */
function nulPathInValue(value: unknown, path: string): string | null {
  if (typeof value === 'string') {
    return value.includes('\u0000') ? path : null;
  }
  if (Array.isArray(value)) {
    for (const [index, entry] of value.entries()) {
      const found = nulPathInValue(entry, `${path}.${index}`);
      if (found !== null) {
        return found;
      }
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, entry] of Object.entries(value)) {
      const found = nulPathInValue(entry, `${path}.${key}`);
      if (found !== null) {
        return found;
      }
    }
  }
  return null;
}

interface Variables {
  /** The values sent with the request. */
  values: Record<string, unknown>;
  /** The defaults the operation declares (`$q: String = "…"`), for variables not sent. */
  defaults: ReadonlyMap<string, ValueNode>;
}

/** The same for an argument's value as written in the document, variables looked up. */
function nulPathInNode(node: ValueNode, path: string, variables: Variables): string | null {
  switch (node.kind) {
    case Kind.STRING:
      return node.value.includes('\u0000') ? path : null;
    case Kind.VARIABLE: {
      const name = node.name.value;
      const fallback = variables.defaults.get(name);
      return name in variables.values || fallback === undefined
        ? nulPathInValue(variables.values[name], path)
        : nulPathInNode(fallback, path, variables);
    }
    case Kind.LIST:
      for (const [index, entry] of node.values.entries()) {
        const found = nulPathInNode(entry, `${path}.${index}`, variables);
        if (found !== null) {
          return found;
        }
      }
      return null;
    case Kind.OBJECT:
      for (const field of node.fields) {
        const found = nulPathInNode(field.value, `${path}.${field.name.value}`, variables);
        if (found !== null) {
          return found;
        }
      }
      return null;
    default:
      return null;
  }
}

/** The first argument path of the operation (through its fragments) holding U+0000, or null. */
export function findNulArgument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
): string | null {
  const definitions = [
    operation,
    ...document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION),
  ];
  const defaults = new Map<string, ValueNode>();
  for (const definition of operation.variableDefinitions ?? []) {
    if (definition.defaultValue !== undefined) {
      defaults.set(definition.variable.name.value, definition.defaultValue);
    }
  }
  const typeInfo = new TypeInfo(schema);
  let found: string | null = null;
  visit(
    { kind: Kind.DOCUMENT, definitions },
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const field = typeInfo.getFieldDef();
        const parent = typeInfo.getParentType();
        if (typeInfo.getDirective() === null && field && parent && EXEMPT_FIELDS.has(`${parent.name}.${field.name}`)) {
          return undefined;
        }
        found = nulPathInNode(node.value, node.name.value, { values: variables, defaults });
        return found === null ? undefined : BREAK;
      },
    }),
  );
  return found;
}

export function nulArgumentPlugin(): ApolloServerPlugin<AdminContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, operation, request }) {
          if (operation === undefined) {
            return;
          }
          const path = findNulArgument(schema, document, operation, request.variables ?? {});
          if (path !== null) {
            // As badUserInput, with the 400 of a request refused before execution.
            throw new GraphQLError(`${path} ${PROBLEM}`, {
              extensions: { code: ErrorCode.BAD_USER_INPUT, field: path, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
