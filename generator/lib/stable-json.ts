/** JSON with object keys sorted at every level, so output never depends on the order a spec wrote its keys in. */

/** Stringifies `value` with sorted object keys and 2-space indentation, ending in a newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(sortedKeys(value), null, 2)}\n`;
}

/** Re-sorts, in place, the sorted keys of an object that is the value of property `key` ('' in an array). */
export type KeyOrder = (key: string, keys: string[]) => void;

/**
 * A copy of JSON data with every object's keys in sorted order (then `reorder`ed). Plain loops: this runs over
 * megabytes of catalogue and OpenAPI data per run. A key `__proto__` stays data.
 */
export function sortedKeys(value: unknown, reorder?: KeyOrder, key = ''): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = sortedKeys(value[i], reorder);
    return out;
  }
  const keys = Object.keys(value).sort();
  reorder?.(key, keys);
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = sortedKeys((value as Record<string, unknown>)[k], reorder, k);
    if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
    else out[k] = v;
  }
  return out;
}

/**
 * stableJson of `value` as an element of a top-level array: the text spliceArray takes, indented for that depth (four
 * spaces before every line after the first), without the final newline.
 */
export function arrayElementJson(value: unknown): string {
  return elementJson(sortedKeys(value));
}

/** arrayElementJson with the keys in the value's own order (data built in a fixed order needs no sorting). */
export function elementJson(value: unknown): string {
  // Stringified two arrays deep, the element's lines are indented as it needs: cut out, not re-indented line by line.
  const text = JSON.stringify([[value]], null, 2);
  return text.slice(NESTED_START.length, text.length - NESTED_END.length);
}

/** What JSON.stringify(…, null, 2) puts around the element of `[[element]]`. */
const NESTED_START = '[\n  [\n    ';
const NESTED_END = '\n  ]\n]';

/**
 * stableJson text `json` of an object whose top-level property `key` is an empty array, with that array's elements
 * put in as their texts (arrayElementJson). The result equals stableJson of the object holding those elements, so
 * parts made at different times (cached per connector) join into the same bytes.
 */
export function spliceArray(json: string, key: string, elements: readonly string[]): string {
  const empty = `\n  ${JSON.stringify(key)}: []`;
  const at = json.indexOf(empty); // top-level lines alone start with two spaces and a quote
  if (at < 0) throw new Error(`internal: no empty top-level array ${key} to splice into`);
  if (elements.length === 0) return json;
  return `${json.slice(0, at)}\n  ${JSON.stringify(key)}: [\n    ${elements.join(',\n    ')}\n  ]${json.slice(at + empty.length)}`;
}
