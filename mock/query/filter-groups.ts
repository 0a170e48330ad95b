/**
 * `filter_groups`: the CRM search request (HubSpot-style), taken whole from the action's params.
 *
 * Supported, exactly as upstream:
 * - `filterGroups`: up to 6 groups; a record matches when ANY group holds, a group holds when ALL its `filters`
 *   hold (a group with no filters holds for every record; no groups at all match every record).
 * - a filter is `{ propertyName, operator, value?, highValue?, values? }` with one of 13 operators:
 *   - `EQ` / `NEQ`: equal / not equal to `value`, strings ignoring case (NEQ also holds when the property is unset);
 *   - `LT`, `LTE`, `GT`, `GTE`: order against `value`; an unset property never satisfies them;
 *   - `BETWEEN`: `value` ≤ property ≤ `highValue` (or `values: [low, high]`), inclusive;
 *   - `IN` / `NOT_IN`: equal (ignoring case) to any / none of `values` (NOT_IN also holds when unset);
 *   - `HAS_PROPERTY` / `NOT_HAS_PROPERTY`: the property has / has no value (null and '' count as no value);
 *   - `CONTAINS_TOKEN` / `NOT_CONTAINS_TOKEN`: `value` (case-insensitive, `*` = any run of characters) matches the
 *     whole property value, one of its whitespace-separated tokens, or one of its words (letters and digits).
 * - values compare as numbers when both sides are numeric (`"42"` = `42`), as instants when both are ISO dates or one
 *   is an ISO date and the other a number (epoch milliseconds, as HubSpot accepts for date properties), else as
 *   strings (by code unit for the order operators). A multi-valued (array) property satisfies a filter when any
 *   element does, except the negated operators, which need every element to.
 * - `propertyName` resolves to `record.properties[name]`; `id`, `createdAt`, `updatedAt`, `archived` and
 *   `archivedAt` resolve to the record's top-level fields.
 * - `sorts`: `[{ propertyName, direction: 'ASCENDING' | 'DESCENDING' }]`, applied in order (direction defaults to
 *   ASCENDING).
 * - `query`: free text of at most 3000 characters; a record matches when every whitespace-separated word appears
 *   (case-insensitive substring) in some string value of its `properties` or its `id`.
 * - `properties`: the property names to return; each returned record keeps `id`, `createdAt`, `updatedAt`,
 *   `archived`, `archivedAt` and, in `properties`, the names asked for plus HubSpot's defaults `hs_object_id`,
 *   `createdate` and `lastmodifieddate`.
 *
 * Paging (`after`, `limit`) is the mock's. Errors name the offending path (`filterGroups[0].filters[1].operator`):
 * an unknown operator is `unknown_operator`; a missing or mistyped value is `invalid_value`; more than 6 groups or
 * a longer query is `limit_exceeded`.
 */
import { QueryError, type QueryErrorCode } from './error.js';
import type { QueryPlan } from './index.js';
import {
  type Operand,
  asDate,
  asNumber,
  compareToOperand,
  isEmptyValue,
  isObject,
  isScalar,
  own,
  textLeaves,
  toOperand,
  wildcardMatch,
  wordsOf,
} from './values.js';

/** The 13 operators of a filter. */
export const FILTER_OPERATORS = [
  'BETWEEN',
  'CONTAINS_TOKEN',
  'EQ',
  'GT',
  'GTE',
  'HAS_PROPERTY',
  'IN',
  'LT',
  'LTE',
  'NEQ',
  'NOT_CONTAINS_TOKEN',
  'NOT_HAS_PROPERTY',
  'NOT_IN',
] as const;

/** Most filter groups one request may have. */
export const MAX_FILTER_GROUPS = 6;
/** Longest free-text `query`. */
export const MAX_FREE_TEXT = 3000;

/** Property names that live at the top level of a CRM record rather than in `properties`. */
const TOP_LEVEL = new Set(['id', 'createdAt', 'updatedAt', 'archived', 'archivedAt']);
/** Properties HubSpot returns besides the requested ones. */
const DEFAULT_PROPERTIES = ['hs_object_id', 'createdate', 'lastmodifieddate'];

type Scalar = string | number | boolean;
type RecordTest = (record: Record<string, unknown>) => boolean;

function fail(field: string, detail: string, code: QueryErrorCode = 'invalid_value'): never {
  throw new QueryError(`${field}: ${detail}`, { field, code });
}

/** Where a property's value lives. */
function propertyPath(name: string): string {
  return TOP_LEVEL.has(name) ? name : `properties.${name}`;
}

function resolve(record: Record<string, unknown>, name: string): unknown {
  return TOP_LEVEL.has(name) ? own(record, name) : own(own(record, 'properties'), name);
}

/** Order of a property value against an operand, with HubSpot's epoch-millisecond form for dates. */
function compareOperand(value: unknown, operand: Operand): number | undefined {
  if (!isScalar(value)) return undefined;
  if (operand.number !== undefined) {
    const date = asDate(value);
    if (date !== undefined) return Math.sign(date - operand.number);
  } else if (operand.date !== undefined) {
    const number = asNumber(value);
    if (number !== undefined) return Math.sign(number - operand.date);
  }
  return compareToOperand(value, operand);
}

function equalsOperand(value: unknown, operand: Operand): boolean {
  if (!isScalar(value)) return false;
  if (String(value).toLowerCase() === operand.lower) return true;
  return (operand.number !== undefined || operand.date !== undefined) && compareOperand(value, operand) === 0;
}

function containsToken(value: unknown, pattern: string): boolean {
  if (!isScalar(value)) return false;
  const text = String(value).toLowerCase();
  // Cheap pre-check: every literal piece of the pattern must occur somewhere in the value.
  if (!pattern.split('*').every((piece) => text.includes(piece))) return false;
  const candidates = [text, ...text.split(/\s+/), ...wordsOf(text)];
  return candidates.some((candidate) => wildcardMatch(pattern, candidate));
}

/** Holds when some element (or the value itself) satisfies `test`. */
function some(value: unknown, test: (v: unknown) => boolean): boolean {
  return Array.isArray(value) ? value.some(test) : test(value);
}

function readScalar(filter: Record<string, unknown>, key: string, at: string): Scalar {
  const value = own(filter, key);
  if (value === undefined || value === null) {
    fail(`${at}.${key}`, `${key} is required for operator ${String(own(filter, 'operator'))}`);
  }
  if (!isScalar(value)) fail(`${at}.${key}`, `${key} must be a string, number or boolean`);
  return value;
}

function readValues(filter: Record<string, unknown>, at: string): Scalar[] {
  const values = own(filter, 'values');
  if (!Array.isArray(values) || values.length === 0) {
    fail(`${at}.values`, `values must be a non-empty array for operator ${String(own(filter, 'operator'))}`);
  }
  values.forEach((v, i) => isScalar(v) || fail(`${at}.values[${i}]`, 'each value must be a string, number or boolean'));
  return values as Scalar[];
}

function compileFilter(filter: unknown, at: string): RecordTest {
  if (!isObject(filter)) fail(at, 'a filter must be an object { propertyName, operator, value?, values? }');
  const name = own(filter, 'propertyName');
  if (typeof name !== 'string' || name === '') fail(`${at}.propertyName`, 'propertyName must be a non-empty string');
  const operator = own(filter, 'operator');
  if (typeof operator !== 'string') {
    fail(`${at}.operator`, `operator is required (one of ${FILTER_OPERATORS.join(', ')})`);
  }
  const read = (record: Record<string, unknown>) => resolve(record, name);
  switch (operator) {
    case 'EQ':
    case 'NEQ': {
      const operand = toOperand(readScalar(filter, 'value', at));
      const eq = (r: Record<string, unknown>) => some(read(r), (v) => equalsOperand(v, operand));
      return operator === 'EQ' ? eq : (r) => !eq(r);
    }
    case 'LT':
    case 'LTE':
    case 'GT':
    case 'GTE': {
      const operand = toOperand(readScalar(filter, 'value', at));
      const holds = {
        LT: (o: number) => o < 0,
        LTE: (o: number) => o <= 0,
        GT: (o: number) => o > 0,
        GTE: (o: number) => o >= 0,
      }[operator];
      return (r) =>
        some(read(r), (v) => {
          const order = compareOperand(v, operand);
          return order !== undefined && holds(order);
        });
    }
    case 'BETWEEN': {
      const fromValues = own(filter, 'value') === undefined && own(filter, 'highValue') === undefined;
      const bounds = fromValues
        ? readValues(filter, at)
        : [readScalar(filter, 'value', at), readScalar(filter, 'highValue', at)];
      if (bounds.length !== 2) fail(`${at}.values`, 'BETWEEN takes value and highValue, or values: [low, high]');
      const [low, high] = (bounds as [Scalar, Scalar]).map(toOperand) as [Operand, Operand];
      return (r) => some(read(r), (v) => (compareOperand(v, low) ?? -1) >= 0 && (compareOperand(v, high) ?? 1) <= 0);
    }
    case 'IN':
    case 'NOT_IN': {
      const operands = readValues(filter, at).map(toOperand);
      const isIn = (r: Record<string, unknown>) => some(read(r), (v) => operands.some((o) => equalsOperand(v, o)));
      return operator === 'IN' ? isIn : (r) => !isIn(r);
    }
    case 'HAS_PROPERTY':
      return (r) => !isEmptyValue(read(r));
    case 'NOT_HAS_PROPERTY':
      return (r) => isEmptyValue(read(r));
    case 'CONTAINS_TOKEN':
    case 'NOT_CONTAINS_TOKEN': {
      const pattern = String(readScalar(filter, 'value', at)).toLowerCase();
      const contains = (r: Record<string, unknown>) => some(read(r), (v) => containsToken(v, pattern));
      return operator === 'CONTAINS_TOKEN' ? contains : (r) => !contains(r);
    }
    default:
      return fail(
        `${at}.operator`,
        `unknown operator ${JSON.stringify(operator)}; expected one of ${FILTER_OPERATORS.join(', ')}`,
        'unknown_operator',
      );
  }
}

function compileGroups(groups: unknown): RecordTest[][] {
  if (groups === undefined || groups === null) return [];
  if (!Array.isArray(groups)) fail('filterGroups', 'filterGroups must be an array of { filters: [...] }');
  if (groups.length > MAX_FILTER_GROUPS) {
    fail('filterGroups', `${groups.length} filter groups; at most ${MAX_FILTER_GROUPS} are allowed`, 'limit_exceeded');
  }
  return groups.map((group, g) => {
    if (!isObject(group)) fail(`filterGroups[${g}]`, 'a filter group must be an object { filters: [...] }');
    const filters = own(group, 'filters');
    if (filters === undefined || filters === null) return [];
    if (!Array.isArray(filters)) fail(`filterGroups[${g}].filters`, 'filters must be an array');
    return filters.map((filter, f) => compileFilter(filter, `filterGroups[${g}].filters[${f}]`));
  });
}

function compileFreeText(query: unknown): RecordTest {
  if (query === undefined || query === null) return () => true;
  if (typeof query !== 'string') fail('query', 'query must be a string');
  if (query.length > MAX_FREE_TEXT) {
    fail('query', `query is ${query.length} characters long; the limit is ${MAX_FREE_TEXT}`, 'limit_exceeded');
  }
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return () => true;
  return (record) => {
    const texts = textLeaves(own(record, 'properties'), [String(own(record, 'id') ?? '')]).map((text) =>
      text.toLowerCase(),
    );
    return words.every((word) => texts.some((text) => text.includes(word)));
  };
}

function readSorts(sorts: unknown): QueryPlan['sort'] {
  if (sorts === undefined || sorts === null) return undefined;
  if (!Array.isArray(sorts)) fail('sorts', 'sorts must be an array of { propertyName, direction }');
  const keys = sorts.map((sort, i) => {
    const name = own(sort, 'propertyName');
    if (typeof name !== 'string' || name === '') {
      fail(`sorts[${i}].propertyName`, 'propertyName must be a non-empty string');
    }
    const direction = own(sort, 'direction') ?? 'ASCENDING';
    if (direction !== 'ASCENDING' && direction !== 'DESCENDING') {
      fail(`sorts[${i}].direction`, `direction must be ASCENDING or DESCENDING, got ${JSON.stringify(direction)}`);
    }
    return { path: propertyPath(name), direction: direction === 'ASCENDING' ? ('asc' as const) : ('desc' as const) };
  });
  return keys.length > 0 ? keys : undefined;
}

function readProjection(properties: unknown): string[] | undefined {
  if (properties === undefined || properties === null) return undefined;
  if (!Array.isArray(properties) || !properties.every((p): p is string => typeof p === 'string' && p !== '')) {
    fail('properties', 'properties must be an array of property names');
  }
  const names = [...new Set([...properties, ...DEFAULT_PROPERTIES])];
  return ['id', ...names.map((name) => `properties.${name}`), 'createdAt', 'updatedAt', 'archived', 'archivedAt'];
}

/** Plans a CRM search request (see the file's documentation for the supported subset). */
export function planFilterGroups(params: Record<string, unknown>): QueryPlan {
  const groups = compileGroups(own(params, 'filterGroups'));
  const freeText = compileFreeText(own(params, 'query'));
  const plan: QueryPlan = {
    matches: (record) =>
      (groups.length === 0 || groups.some((filters) => filters.every((test) => test(record)))) && freeText(record),
  };
  const sort = readSorts(own(params, 'sorts'));
  if (sort) plan.sort = sort;
  const project = readProjection(own(params, 'properties'));
  if (project) plan.project = project;
  return plan;
}
