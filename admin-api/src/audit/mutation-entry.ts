// What an audit entry says about one executed mutation root field, derived from the schema's types
// rather than written per resolver, so a mutation added later is recorded without further work.
// The rule that keeps secrets and personal data out: a value is copied only when its GraphQL type
// cannot carry free text (ID, Boolean, an enum, lists of those; numbers too in results), never a
// String; an ID only when it is well-formed (a UUID), since until the resolver refuses it an ID
// argument is any text. Examples and guarantees: docs/submissions.md ("Audit log").
import type { AuditDetails, AuditDetailValue } from '@intake/shared/entities';
import { isUuid } from '@intake/shared/site-token';
import {
  getNamedType,
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
} from 'graphql';

export interface MutationObject {
  objectType: string | null;
  objectId: string | null;
  details: AuditDetails;
}

// Where the generic rules below would name the wrong type: these act on the object of their `id`.
const OBJECT_TYPE_OF_ACTION: Record<string, string> = {
  rotateWebhookSecret: 'Webhook',
  sendTestWebhook: 'Webhook',
  markNotSpam: 'Submission',
};

const MAX_LIST_LENGTH = 1000;
const MAX_VALUE_LENGTH = 200;

function unwrapNonNull<T extends GraphQLInputType | GraphQLOutputType>(type: T): T {
  return (isNonNullType(type) ? type.ofType : type) as T;
}

function isSafeArgumentLeaf(type: GraphQLInputType | GraphQLOutputType): boolean {
  return type === GraphQLID || type === GraphQLBoolean || isEnumType(type);
}

function isSafeResultLeaf(type: GraphQLOutputType): boolean {
  return isSafeArgumentLeaf(type) || type === GraphQLInt || type === GraphQLFloat;
}

/**
 * A leaf value as kept: enum values by their API name (`TURNSTILE`, not the internal `turnstile`),
 * IDs only when well-formed.
 */
function leafValue(type: GraphQLOutputType, value: unknown): string | number | boolean | undefined {
  if (type === GraphQLID) {
    return isUuid(value) ? value : undefined;
  }
  if (isEnumType(type)) {
    const name = type.getValues().find((entry) => entry.value === value)?.name;
    return name ?? (typeof value === 'string' ? value.slice(0, MAX_VALUE_LENGTH) : undefined);
  }
  if (typeof value === 'boolean' || typeof value === 'number') {
    return value;
  }
  return typeof value === 'string' ? value.slice(0, MAX_VALUE_LENGTH) : undefined;
}

/** The value as a detail when its (unwrapped) type is a safe leaf or a list of safe leaves. */
function safeValue(
  type: GraphQLInputType | GraphQLOutputType,
  value: unknown,
  isSafeLeaf: (type: GraphQLOutputType) => boolean,
): AuditDetailValue | undefined {
  const unwrapped = unwrapNonNull(type) as GraphQLOutputType;
  const list = isListType(unwrapped);
  const leaf = list ? unwrapNonNull(unwrapped.ofType as GraphQLOutputType) : unwrapped;
  // Decided by the type before the value: not even a null is kept for a String.
  if (!isSafeLeaf(leaf)) {
    return undefined;
  }
  if (value === null) {
    return null;
  }
  if (list) {
    // Entries that are not kept (a malformed ID) are left out, not written as "undefined".
    return Array.isArray(value)
      ? value
          .slice(0, MAX_LIST_LENGTH)
          .map((entry) => leafValue(leaf, entry))
          .filter((entry) => entry !== undefined)
          .map(String)
      : undefined;
  }
  return leafValue(leaf, value);
}

/** Safe argument values, input objects one level deep (`input.siteId`). */
function argumentDetails(
  args: readonly GraphQLArgument[],
  values: Record<string, unknown>,
  skip: string | null,
): AuditDetails {
  const details: AuditDetails = {};
  for (const argument of args) {
    const value = values[argument.name];
    if (value === undefined || argument.name === skip) {
      continue;
    }
    const type = unwrapNonNull(argument.type);
    if (isInputObjectType(type) && typeof value === 'object' && value !== null) {
      for (const field of Object.values(type.getFields())) {
        const fieldValue = (value as Record<string, unknown>)[field.name];
        const safe = fieldValue === undefined ? undefined : safeValue(field.type, fieldValue, isSafeArgumentLeaf);
        if (safe !== undefined) {
          details[`${argument.name}.${field.name}`] = safe;
        }
      }
      continue;
    }
    const safe = safeValue(type, value, isSafeArgumentLeaf);
    if (safe !== undefined) {
      details[argument.name] = safe;
    }
  }
  return details;
}

/** Safe top-level fields of the result (`result.count`), or the result itself when it is a leaf. */
function resultDetails(type: GraphQLOutputType, result: unknown): AuditDetails {
  const unwrapped = unwrapNonNull(type);
  if (!isObjectType(unwrapped)) {
    const safe = result === undefined ? undefined : safeValue(unwrapped, result, isSafeResultLeaf);
    return safe === undefined ? {} : { result: safe };
  }
  if (typeof result !== 'object' || result === null) {
    return {};
  }
  const details: AuditDetails = {};
  for (const field of Object.values(unwrapped.getFields())) {
    const value = (result as Record<string, unknown>)[field.name];
    // A null in the result says nothing about the action (an unset setting); in an argument it does.
    const safe =
      field.name === 'id' || value === undefined || value === null
        ? undefined
        : safeValue(field.type, value, isSafeResultLeaf);
    if (safe !== undefined) {
      details[`result.${field.name}`] = safe;
    }
    Object.assign(details, auditedDetails(field, value));
  }
  return details;
}

/**
 * The fields of a nested result object declared `@Extensions({ audited: true })` (an API token's
 * scope: its level, sites and end): `result.apiToken.level`. A String is copied only with this mark,
 * which its declaration gives only to a value the server computed (a time), never free text.
 */
function auditedDetails(field: GraphQLField<unknown, unknown>, value: unknown): AuditDetails {
  const type = unwrapNonNull(field.type);
  if (!isObjectType(type) || typeof value !== 'object' || value === null) {
    return {};
  }
  const details: AuditDetails = {};
  for (const nested of Object.values(type.getFields())) {
    const nestedValue = (value as Record<string, unknown>)[nested.name];
    if (nested.extensions.audited !== true || nestedValue === undefined) {
      continue;
    }
    const safe = safeValue(nested.type, nestedValue, (leaf) => isSafeResultLeaf(leaf) || leaf === GraphQLString);
    if (safe !== undefined) {
      details[`result.${field.name}.${nested.name}`] = safe;
    }
  }
  return details;
}

/** The object a result is about: its own `id`, or the `id` of its one object field (`CreatedApiToken.apiToken`). */
function resultObject(type: GraphQLOutputType, result: unknown): { type: string; id: string } | null {
  const unwrapped = unwrapNonNull(type);
  if (!isObjectType(unwrapped) || typeof result !== 'object' || result === null) {
    return null;
  }
  const record = result as Record<string, unknown>;
  if ('id' in unwrapped.getFields() && typeof record.id === 'string') {
    return { type: unwrapped.name, id: record.id };
  }
  for (const field of Object.values(unwrapped.getFields())) {
    const fieldType = unwrapNonNull(field.type);
    if (isObjectType(fieldType) && 'id' in fieldType.getFields()) {
      const nested = record[field.name] as Record<string, unknown> | null | undefined;
      if (typeof nested?.id === 'string') {
        return { type: fieldType.name, id: nested.id };
      }
    }
  }
  return null;
}

function capitalize(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** `deleteSite` → `Site`, `revokeApiToken` → `ApiToken`: the noun after the leading verb. */
function nounOfAction(action: string): string | null {
  const match = /^[a-z]+([A-Z]\w*)$/.exec(action);
  return match?.[1] ?? null;
}

/**
 * The object of a mutation and its safe details. In order: a `create…` mutation's result;
 * an `id` argument; another top-level ID argument named `<noun>Id` (a required one first); the result.
 */
export function describeMutation(
  field: GraphQLField<unknown, unknown>,
  args: Record<string, unknown>,
  result: unknown,
): MutationObject {
  const action = field.name;
  const fromResult = result === undefined ? null : resultObject(field.type, result);
  const idArguments = field.args.filter(
    (argument) => getNamedType(argument.type) === GraphQLID && typeof args[argument.name] === 'string',
  );
  // A required `<noun>Id` before an optional one: `assignSubmissions(formId, ids, assigneeId)` acts
  // on the form, whoever it assigns to.
  const nounIds = idArguments.filter(
    (argument) => argument.name.endsWith('Id') && !isListType(unwrapNonNull(argument.type)),
  );
  const idArgument =
    idArguments.find((argument) => argument.name === 'id') ??
    nounIds.find((argument) => isNonNullType(argument.type)) ??
    nounIds[0];

  let objectType: string | null = null;
  let objectId: string | null = null;
  let usedArgument: string | null = null;
  if (action.startsWith('create') && fromResult !== null) {
    ({ type: objectType, id: objectId } = fromResult);
  } else if (idArgument !== undefined) {
    usedArgument = idArgument.name;
    // The argument still names the kind of object; only a well-formed id is kept as its id.
    objectId = isUuid(args[idArgument.name]) ? (args[idArgument.name] as string) : null;
    objectType =
      idArgument.name === 'id'
        ? (fromResult?.type ?? nounOfAction(action))
        : capitalize(idArgument.name.slice(0, -'Id'.length));
  } else if (fromResult !== null) {
    ({ type: objectType, id: objectId } = fromResult);
  }
  objectType =
    OBJECT_TYPE_OF_ACTION[action] ?? objectType ?? (action.startsWith('create') ? nounOfAction(action) : null);
  return {
    objectType,
    objectId,
    details: { ...argumentDetails(field.args, args, usedArgument), ...resultDetails(field.type, result) },
  };
}
