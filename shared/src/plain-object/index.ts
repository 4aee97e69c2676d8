/**
 * An object built from an object literal, JSON or a body parser (prototype Object.prototype or
 * null): not an array, a Date, a Buffer or a class instance.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
