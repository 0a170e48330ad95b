/** Plain-object test shared by the spec reader (YAML tags that make class instances) and the mock's search requests. */

/** A plain object (`{}`, not an array, not null, not a class instance such as a Buffer, Set, Map or Date). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
