/**
 * Record access and value comparison shared by the query languages. Records are plain JSON; only own
 * properties are ever read, so `__proto__`, `constructor` and other inherited names resolve to nothing.
 */

/** A plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[key]` when `value` is an object that owns `key`; undefined otherwise (never the prototype chain). */
export function own(value: unknown, key: string): unknown {
  return isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

/** The value at a dot-separated path of own properties (`fields.status.name`); undefined when any step is missing. */
export function readPath(record: unknown, path: string): unknown {
  return readSegments(record, path.split('.'));
}

/** Sets `path` in `target` to `value`, creating plain objects on the way; own data properties only. */
export function setPath(target: Record<string, unknown>, segments: string[], value: unknown): void {
  let node = target;
  for (const segment of segments.slice(0, -1)) {
    const next = own(node, segment);
    if (isObject(next)) node = next;
    else {
      const created: Record<string, unknown> = {};
      // defineProperty, not assignment: a `__proto__` segment must become data, never a prototype.
      Object.defineProperty(node, segment, { value: created, enumerable: true, writable: true, configurable: true });
      node = created;
    }
  }
  Object.defineProperty(node, segments[segments.length - 1]!, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** {@link readPath} with the path already split, for loops over many records. */
export function readSegments(record: unknown, segments: readonly string[]): unknown {
  let value = record;
  for (const segment of segments) {
    value = own(value, segment);
    if (value === undefined) return undefined;
  }
  return value;
}

/** Whether a value counts as absent: undefined, null, the empty string or an empty array. */
export function isEmptyValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** A string, number or boolean. */
export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

const NUMERIC = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a value denotes: a finite number, or a string that is a plain decimal number; else undefined. */
export function asNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string' || !NUMERIC.test(value.trim())) return undefined;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : undefined;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;

// Fixture dates repeat across queries; parsing them once keeps scans of large entities fast. Bounded: cleared when full.
const parsedDates = new Map<string, number | undefined>();
const MAX_PARSED_DATES = 200_000;

/**
 * Epoch milliseconds of an ISO-8601 date (`2024-01-15`) or date-time (`2024-01-15T10:30:00Z`,
 * `2024-01-15 10:30`, `…+0000`); a date without a zone is UTC. Undefined for anything else, impossible dates included.
 */
export function asDate(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const cached = parsedDates.get(value);
  if (cached !== undefined || parsedDates.has(value)) return cached;
  const match = ISO_DATE.exec(value.trim());
  if (!match) return undefined;
  const ms = parseDateMatch(match);
  if (parsedDates.size >= MAX_PARSED_DATES) parsedDates.clear();
  parsedDates.set(value, ms);
  return ms;
}

/** Unix seconds of an ISO 8601 date-time (a date with a time, as asDate reads it; not a bare date), or undefined. */
export function isoSeconds(text: string): number | undefined {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(text) ? asDate(text) : undefined;
  return ms === undefined ? undefined : ms / 1000;
}

function parseDateMatch(match: RegExpExecArray): number | undefined {
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const y = Number(year),
    mo = Number(month),
    d = Number(day);
  // Date.parse rolls 2024-02-30 over to March; reject days the month does not have.
  if (mo < 1 || mo > 12 || d < 1 || new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return undefined;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const ms = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}${fraction.slice(0, 4)}${offset}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** -1, 0 or 1. */
function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/**
 * Orders two scalars: numerically when both are numbers (or numeric strings), chronologically when both are ISO
 * dates, else by the code units of their string forms. Undefined when either is null, missing or not a scalar.
 */
export function compareValues(a: unknown, b: unknown): number | undefined {
  if (!isScalar(a) || !isScalar(b)) return undefined;
  const na = asNumber(a),
    nb = asNumber(b);
  if (na !== undefined && nb !== undefined) return sign(na - nb);
  const da = asDate(a),
    db = asDate(b);
  if (da !== undefined && db !== undefined) return sign(da - db);
  const sa = String(a),
    sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

/** A query's operand with its numeric and date readings worked out once, not once per record. */
export interface Operand {
  /** The operand as text (numbers and booleans in their string form). */
  text: string;
  /** `text` lower-cased. */
  lower: string;
  /** The number it denotes, if numeric. */
  number: number | undefined;
  /** Its epoch milliseconds, if an ISO date. */
  date: number | undefined;
}

/** Prepares a scalar for {@link compareToOperand} and {@link equalsOperand}. */
export function toOperand(value: string | number | boolean): Operand {
  const text = String(value);
  const number = asNumber(value);
  return { text, lower: text.toLowerCase(), number, date: number === undefined ? asDate(text) : undefined };
}

/** `compareValues(value, operand)`, with the operand's readings precomputed. */
export function compareToOperand(value: unknown, operand: Operand): number | undefined {
  if (!isScalar(value)) return undefined;
  if (operand.number !== undefined) {
    const n = asNumber(value);
    if (n !== undefined) return sign(n - operand.number);
  } else if (operand.date !== undefined) {
    const d = asDate(value);
    if (d !== undefined) return sign(d - operand.date);
  }
  const text = String(value);
  return text < operand.text ? -1 : text > operand.text ? 1 : 0;
}

/** Equality as {@link compareToOperand} orders, strings optionally ignoring case. */
export function equalsOperand(value: unknown, operand: Operand, ignoreCase: boolean): boolean {
  if (!isScalar(value)) return false;
  if (ignoreCase && typeof value === 'string' && value.toLowerCase() === operand.lower) return true;
  return compareToOperand(value, operand) === 0;
}

/** Every string (and number, as text) inside a value, depth-first, objects and arrays included. */
export function textLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' && Number.isFinite(value)) out.push(String(value));
  else if (depth < 12 && Array.isArray(value)) for (const item of value) textLeaves(item, out, depth + 1);
  else if (depth < 12 && isObject(value)) for (const key of Object.keys(value)) textLeaves(value[key], out, depth + 1);
  return out;
}

/** Words of a text: runs of letters and digits, lower-cased. */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

/**
 * Whether `text` matches `pattern` in full, `*` standing for any run of characters (both already lower-cased).
 * Greedy with one backtrack point, so it is linear-ish and never builds a RegExp from user input.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0,
    t = 0,
    star = -1,
    resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/**
 * The scalars an object is known by, in order of preference (`{ name: 'Done', id: '3' }` → `['Done', '3']`):
 * how JQL compares `status`, code search compares `owner`, and sorting orders objects.
 */
export function labelsOf(value: unknown, keys: readonly string[] = LABEL_KEYS): unknown[] {
  if (!isObject(value)) return [value];
  const labels: unknown[] = [];
  for (const key of keys) {
    const label = own(value, key);
    if (isScalar(label)) labels.push(label);
  }
  return labels;
}

/** Keys that name an object, most telling first. */
export const LABEL_KEYS = [
  'name',
  'key',
  'value',
  'login',
  'nameWithOwner',
  'full_name',
  'title',
  'displayName',
  'emailAddress',
  'accountId',
  'id',
] as const;
