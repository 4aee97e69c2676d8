import { AppError } from '@intake/shared/errors';
import { MAX_FIELDS } from './limits.js';

/** Bracket levels a field name may have: with the top-level object that makes the depth limit of 8. */
export const MAX_FIELD_NESTING = 7;

/**
 * Bounds what append-field will build from one urlencoded field name, as multer's limits do for
 * multipart: no deeper than the body depth limit, and no array index that would create a huge
 * sparse array (`a[99999999]`).
 */
export function checkFieldName(name: string): void {
  if (name.split('[').length - 1 > MAX_FIELD_NESTING) {
    throw new AppError('body_invalid', 'A field name nests deeper than 8 levels.');
  }
  for (const match of name.matchAll(/\[(\d+)\]/g)) {
    if (Number(match[1]) >= MAX_FIELDS) {
      throw new AppError('body_invalid', 'A field name has an array index that is too large.');
    }
  }
}
