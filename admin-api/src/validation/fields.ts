// Argument checks shared by the resolvers. Each returns the normalised value or throws a
// BAD_USER_INPUT error naming the field, so a resolver reads like its rules.
import { domainToASCII } from 'node:url';
import { isUuid } from '@intake/shared';
import { badUserInput } from '../schema/errors.js';
import { isKnownMimeType } from '@intake/shared';

export const NAME_MAX_LENGTH = 200;
export const DOMAIN_MAX_LENGTH = 253;
export const PASSWORD_MIN_LENGTH = 12;
// scrypt hashes any length, but an unbounded password is free work for an attacker.
export const PASSWORD_MAX_LENGTH = 1024;
export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
// GraphQL Int is 32-bit signed.
export const GRAPHQL_INT_MAX = 2 ** 31 - 1;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// Whatever turns a host into a URL: scheme, path, port, credentials, query, fragment, spaces.
const NOT_IN_HOST = /[\s/\\:@?#%[\]]/;

/** Length in Unicode code points, as PostgreSQL's varchar(n) counts. */
function codePoints(value: string): number {
  return [...value].length;
}

/** A UUID (any version), returned in lower case. */
export function parseId(value: string, field: string): string {
  if (!isUuid(value)) {
    throw badUserInput(field, 'must be a UUID');
  }
  return value.toLowerCase();
}

/** A display name: trimmed, 1..200 characters, no control characters. */
export function parseName(value: string | null | undefined, field: string): string {
  if (typeof value !== 'string') {
    throw badUserInput(field, 'is required');
  }
  const name = value.trim();
  if (!name.isWellFormed() || CONTROL_CHARACTERS.test(name)) {
    throw badUserInput(field, 'must not contain control characters');
  }
  const length = codePoints(name);
  if (length < 1 || length > NAME_MAX_LENGTH) {
    throw badUserInput(field, `must be between 1 and ${NAME_MAX_LENGTH} characters`);
  }
  return name;
}

/**
 * A site's domain: a bare host name such as `example.com`, stored in lower case (international
 * names as punycode). Null, or an empty string, means none.
 */
export function parseDomain(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined || value.trim() === '') {
    return null;
  }
  const problem = 'must be a host name such as example.com (no scheme, path or port)';
  const host = value.trim().toLowerCase();
  if (host.length > DOMAIN_MAX_LENGTH * 4 || NOT_IN_HOST.test(host) || !host.isWellFormed()) {
    throw badUserInput(field, problem);
  }
  const ascii = domainToASCII(host);
  if (ascii === '' || ascii.length > DOMAIN_MAX_LENGTH) {
    throw badUserInput(field, problem);
  }
  const labels = ascii.split('.');
  // A last label of digits only is an IP address, not a host name.
  if (!labels.every((label) => DOMAIN_LABEL.test(label)) || /^\d+$/.test(labels[labels.length - 1] ?? '')) {
    throw badUserInput(field, problem);
  }
  return ascii;
}

/** A form's allowed types: a subset of the known list, deduplicated. Null means the defaults. */
export function parseMimeTypes(values: readonly string[] | null, field: string): string[] | null {
  if (values === null) {
    return null;
  }
  const result: string[] = [];
  for (const value of values) {
    const mimeType = value.trim().toLowerCase();
    if (!isKnownMimeType(mimeType)) {
      // The value is one of the caller's own arguments; cut so the message stays short.
      throw badUserInput(field, `contains an unknown type "${mimeType.slice(0, 100)}"`);
    }
    if (!result.includes(mimeType)) {
      result.push(mimeType);
    }
  }
  return result;
}

/** A form's own file size limit: positive and at most the global MAX_FILE_SIZE. Null means the global one. */
export function parseMaxFileSize(value: number | null, globalLimit: number, field: string): number | null {
  if (value === null) {
    return null;
  }
  if (!Number.isSafeInteger(value) || value < 1 || value > globalLimit) {
    throw badUserInput(field, `must be between 1 and ${globalLimit} bytes`);
  }
  return value;
}

export function parseNewPassword(value: string, field: string): string {
  const length = codePoints(value);
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw badUserInput(field, `must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters`);
  }
  if (!value.isWellFormed()) {
    throw badUserInput(field, 'must be valid Unicode');
  }
  return value;
}

/** `first` of a connection: default 20, 0..100. */
export function parsePageSize(value: number | null | undefined, field: string): number {
  if (value === null || value === undefined) {
    return PAGE_SIZE_DEFAULT;
  }
  if (!Number.isInteger(value) || value < 0 || value > PAGE_SIZE_MAX) {
    throw badUserInput(field, `must be between 0 and ${PAGE_SIZE_MAX}`);
  }
  return value;
}
