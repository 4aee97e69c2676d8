// Static limits on what one operation may ask for, checked as validation rules (so a refusal is a
// GRAPHQL_VALIDATION_FAILED error before anything runs, and the verdict does not depend on
// variables, which lets Apollo cache validated documents): depth and aliases by graphql-armor's
// rules, root fields and cost written here, because armor has no root-field limit and its cost rule
// knows no pagination, and `graphql-query-complexity` reads the variables validation does not have
// (docs/decisions/graphql-query-limits.md). The rules here memoise each fragment's figures, so
// fragments spread into fragments cannot make them exponential. The limits and how cost is counted:
// docs/admin-api.md ("Limits").
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  getNamedType,
  isCompositeType,
  isLeafType,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  isObjectType,
  isInterfaceType,
} from 'graphql';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../validation/fields.js';

export const MAX_QUERY_DEPTH = 15;
export const MAX_QUERY_COST = 1000;
export const MAX_ALIASES = 50;
export const MAX_ROOT_FIELDS = 25;

function fragmentsOf(context: ValidationContext): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  return fragments;
}

/**
 * Armor's rules throw their error unless told otherwise, which would end validation with a 500;
 * reported instead, in our words (no "Syntax Error:" prefix: the document parsed).
 */
function reportAs(message: string) {
  return {
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null) => context?.reportError(new GraphQLError(message))],
  };
}

/** Refuses operations nested deeper than `maxDepth` fields, introspection included. */
export function depthLimitRule(maxDepth = MAX_QUERY_DEPTH): ValidationRule {
  return maxDepthRule({
    n: maxDepth,
    // `__schema` is as deep as anything else (a 20-level `ofType` chain costs the same).
    ignoreIntrospection: false,
    // Fields are levels; fragments (inline or spread) only group them.
    flattenFragments: true,
    ...reportAs(`Query is nested deeper than ${maxDepth} levels`),
  }) as unknown as ValidationRule;
}

function fieldDefinition(
  schema: GraphQLSchema,
  parent: GraphQLCompositeType,
  name: string,
): GraphQLField<unknown, unknown> | undefined {
  if (name === SchemaMetaFieldDef.name && parent === schema.getQueryType()) {
    return SchemaMetaFieldDef;
  }
  if (name === TypeMetaFieldDef.name && parent === schema.getQueryType()) {
    return TypeMetaFieldDef;
  }
  if (name === TypeNameMetaFieldDef.name) {
    return TypeNameMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** How many times the selection under a paginated field counts. */
function multiplierOf(field: GraphQLField<unknown, unknown>, node: FieldNode): number {
  if (!field.args.some((argument) => argument.name === 'first')) {
    return 1;
  }
  const first = node.arguments?.find((argument) => argument.name.value === 'first')?.value;
  if (first === undefined || first.kind === Kind.NULL) {
    return PAGE_SIZE_DEFAULT;
  }
  if (first.kind === Kind.INT) {
    return Math.min(Math.max(Number.parseInt(first.value, 10), 1), PAGE_SIZE_MAX);
  }
  return PAGE_SIZE_MAX;
}

/** Refuses operations whose estimated cost is over `maxCost`. */
export function costLimitRule(maxCost = MAX_QUERY_COST): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const rootTypes = new Set<GraphQLCompositeType | null | undefined>(
      [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean),
    );
    const fragments = fragmentsOf(context);
    const fragmentCosts = new Map<string, number>();
    const inProgress = new Set<string>();

    const costOf = (selectionSet: SelectionSetNode, parent: GraphQLCompositeType): number => {
      let cost = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          const field = fieldDefinition(schema, parent, selection.name.value);
          if (field === undefined) {
            // Unknown fields are reported by graphql's own rules.
            continue;
          }
          const type = getNamedType(field.type);
          if (isLeafType(type) || !selection.selectionSet || !isCompositeType(type)) {
            // A root field is a resolver call (a mutation, a count) even when it returns a scalar.
            cost += rootTypes.has(parent) ? 1 : 0;
          } else {
            cost += 1 + multiplierOf(field, selection) * costOf(selection.selectionSet, type);
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          const condition = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          if (condition && isCompositeType(condition)) {
            cost += costOf(selection.selectionSet, condition);
          }
        } else {
          cost += fragmentCost(selection.name.value);
        }
        // Stop early: the exact figure above the limit does not matter.
        if (cost > maxCost) {
          return cost;
        }
      }
      return cost;
    };

    const fragmentCost = (name: string): number => {
      const known = fragmentCosts.get(name);
      if (known !== undefined) {
        return known;
      }
      const fragment = fragments.get(name);
      if (fragment === undefined || inProgress.has(name)) {
        return 0;
      }
      const condition = schema.getType(fragment.typeCondition.name.value);
      if (!condition || !isCompositeType(condition)) {
        return 0;
      }
      inProgress.add(name);
      const cost = costOf(fragment.selectionSet, condition);
      inProgress.delete(name);
      fragmentCosts.set(name, cost);
      return cost;
    };

    return {
      OperationDefinition(node) {
        const root =
          node.operation === 'query'
            ? schema.getQueryType()
            : node.operation === 'mutation'
              ? schema.getMutationType()
              : schema.getSubscriptionType();
        if (!root) {
          return;
        }
        const cost = costOf(node.selectionSet, root);
        if (cost > maxCost) {
          context.reportError(new GraphQLError(`Query cost is over the limit of ${maxCost}`, { nodes: [node] }));
        }
      },
    };
  };
}

/**
 * Counts, per operation, the fields `counts` says count in a selection, through fragments as they
 * expand (a fragment spread twice counts twice), each fragment's figure computed once.
 */
function countingRule(
  limit: number,
  counts: (field: FieldNode, atRoot: boolean) => boolean,
  message: (count: number) => string,
): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context);
    const known = new Map<string, number>();
    const inProgress = new Set<string>();

    const countIn = (selectionSet: SelectionSetNode, atRoot: boolean): number => {
      let count = 0;
      for (const selection of selectionSet.selections) {
        if (selection.kind === Kind.FIELD) {
          count +=
            (counts(selection, atRoot) ? 1 : 0) + (selection.selectionSet ? countIn(selection.selectionSet, false) : 0);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          count += countIn(selection.selectionSet, atRoot);
        } else {
          count += fragmentCount(selection.name.value, atRoot);
        }
        if (count > limit) {
          return count;
        }
      }
      return count;
    };

    const fragmentCount = (name: string, atRoot: boolean): number => {
      const key = `${atRoot ? 'root' : 'inner'}:${name}`;
      const cached = known.get(key);
      if (cached !== undefined) {
        return cached;
      }
      const fragment = fragments.get(name);
      // Unknown fragments and cycles are reported by graphql's own rules.
      if (fragment === undefined || inProgress.has(key)) {
        return 0;
      }
      inProgress.add(key);
      const count = countIn(fragment.selectionSet, atRoot);
      inProgress.delete(key);
      known.set(key, count);
      return count;
    };

    return {
      OperationDefinition(node) {
        const count = countIn(node.selectionSet, true);
        if (count > limit) {
          context.reportError(new GraphQLError(message(count), { nodes: [node] }));
        }
      },
    };
  };
}

/** Refuses operations with more than `maxAliases` aliased fields (1,050 `deleteForm` in one request). */
export function aliasLimitRule(maxAliases = MAX_ALIASES): ValidationRule {
  return maxAliasesRule({
    n: maxAliases,
    // Armor lets `__typename` aliases through by default; 10,000 of them are still 10,000 fields.
    allowList: [],
    ...reportAs(`Query has more than ${maxAliases} aliases`),
  }) as unknown as ValidationRule;
}

/** Refuses operations with more than `maxRootFields` fields at their root. */
export function rootFieldLimitRule(maxRootFields = MAX_ROOT_FIELDS): ValidationRule {
  return countingRule(
    maxRootFields,
    (_field, atRoot) => atRoot,
    () => `Query has more than ${maxRootFields} root fields`,
  );
}
