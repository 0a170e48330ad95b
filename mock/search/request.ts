/**
 * Reads the params of a search call (unknown input) into a checked request, collecting every problem into one
 * SearchRequestError: unknown params, unknown operators, unsearchable fields, operators that do not apply to a
 * field's type, operands of the wrong type, bad sort, limit, cursor or fields.
 */
import { type SearchFieldError, SearchRequestError } from './errors.js';
import { FIELD_OPERATORS, type FieldModel, type FieldOperator, LOGICAL_OPERATORS, applicableKinds, describeKinds, fitsKinds, isSortable } from './fields.js';
import { distinctWordsOf } from './text.js';
import { MAX_DEPTH, isPlainObject } from './values.js';

/** A checked filter. An operator map naming several fields becomes an `and` of one leaf per field. */
export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'not'; child: FilterNode }
  | { kind: 'leaf'; op: FieldOperator; field: string; operand: unknown };

/** One sort condition. */
export interface SortKey {
  field: string;
  descending: boolean;
}

/** A checked search request. */
export interface ParsedRequest {
  /** null: match every record. */
  filter: FilterNode | null;
  sort: SortKey[];
  limit: number;
  /** The cursor as given (decoded later against the query it must belong to). */
  cursor: string | null;
  /** Field names kept in each hit's data; null keeps every searchable field. */
  fields: string[] | null;
}

/** Default page size of the search action (the contract's `limit` default). */
export const DEFAULT_LIMIT = 1000;

const TOP_LEVEL_PARAMS = ['query', 'limit', 'cursor', 'fields'];
const QUERY_KEYS = ['filter', 'sort'];
const OPERATORS = new Set<string>([...FIELD_OPERATORS, ...LOGICAL_OPERATORS]);
const OPERATOR_LIST = [...OPERATORS].sort().join(', ');

/** Reads `params` against the entity's searchable fields; throws SearchRequestError listing every problem. */
export function parseRequest(params: unknown, fields: ReadonlyMap<string, FieldModel>): ParsedRequest {
  const errors: SearchFieldError[] = [];
  const fail = (field: string, error_code: string, message: string) => errors.push({ field, message, error_code });
  const known = (name: string, path: string): FieldModel | undefined => {
    const field = fields.get(name);
    if (!field) fail(path, 'unsearchable_field', `"${name}" is not a searchable field; searchable fields: ${listNames([...fields.keys()])}`);
    return field;
  };
  const request: ParsedRequest = { filter: null, sort: [], limit: DEFAULT_LIMIT, cursor: null, fields: null };

  if (!isPlainObject(params)) {
    fail('params', 'invalid_type', 'must be an object with query and optionally limit, cursor, fields');
    throw new SearchRequestError(errors);
  }
  for (const key of Object.keys(params)) {
    if (!TOP_LEVEL_PARAMS.includes(key)) fail(key, 'unknown_param', `unknown param "${key}"; search takes ${TOP_LEVEL_PARAMS.join(', ')}`);
  }

  const query = own(params, 'query');
  if (query === undefined) fail('query', 'required', 'is required (give {} to match every record)');
  else if (!isPlainObject(query)) fail('query', 'invalid_type', 'must be an object with optional filter and sort');
  else {
    for (const key of Object.keys(query)) {
      if (!QUERY_KEYS.includes(key)) fail(`query.${key}`, 'unknown_param', `unknown key "${key}"; query takes ${QUERY_KEYS.join(', ')}`);
    }
    const filter = own(query, 'filter');
    if (filter !== undefined) request.filter = parseFilter(filter, 'query.filter', 0) ?? null;
    const sort = own(query, 'sort');
    if (sort !== undefined) request.sort = parseSort(sort);
  }

  const limit = own(params, 'limit');
  if (limit !== undefined) {
    if (typeof limit !== 'number' || !Number.isInteger(limit)) fail('limit', 'invalid_type', `must be an integer, got ${show(limit)}`);
    else if (limit < 1) fail('limit', 'invalid_value', `must be at least 1, got ${limit}`);
    else request.limit = limit;
  }

  const cursor = own(params, 'cursor');
  // null is accepted as "no cursor": it is what next_cursor holds after the last page.
  if (cursor !== undefined && cursor !== null) {
    if (typeof cursor !== 'string') fail('cursor', 'invalid_type', `must be a string taken from next_cursor, got ${show(cursor)}`);
    else request.cursor = cursor;
  }

  const wanted = own(params, 'fields');
  if (wanted !== undefined) {
    if (!Array.isArray(wanted)) fail('fields', 'invalid_type', 'must be an array of searchable field names');
    else {
      request.fields = [];
      wanted.forEach((name, i) => {
        if (typeof name !== 'string') fail(`fields[${i}]`, 'invalid_type', `must be a field name, got ${show(name)}`);
        else if (request.fields!.includes(name)) return;
        else if (name.includes('.') && !fields.has(name)) {
          // A path into an object field (address.city): the field must be searchable and may hold an object.
          const [head, ...rest] = name.split('.');
          const field = known(head!, `fields[${i}]`);
          if (field && !field.kinds.has('object') && !field.kinds.has('any')) fail(`fields[${i}]`, 'unsearchable_field', `"${head}" is not an object field, so "${name}" names nothing inside it`);
          else if (field && rest.some((part) => part === '')) fail(`fields[${i}]`, 'invalid_type', `"${name}" is not a field path (an empty part)`);
          else if (field) request.fields!.push(name);
        } else if (known(name, `fields[${i}]`)) request.fields!.push(name);
      });
    }
  }

  if (errors.length) throw new SearchRequestError(errors);
  return request;

  function parseFilter(value: unknown, path: string, depth: number): FilterNode | undefined {
    if (depth > MAX_DEPTH) return void fail(path, 'invalid_filter', `filters nest more than ${MAX_DEPTH} levels deep`);
    if (!isPlainObject(value)) return void fail(path, 'invalid_filter', `must be an object with exactly one operator key, got ${show(value)}`);
    const keys = Object.keys(value);
    if (keys.length !== 1) {
      const why = keys.length === 0 ? 'is empty' : `has ${keys.length} keys (${keys.join(', ')})`;
      return void fail(path, 'invalid_filter', `${why}; a filter has exactly one operator key (combine filters with and / or)`);
    }
    const op = keys[0]!;
    const operand = value[op];
    const opPath = `${path}.${op}`;
    if (op === 'and' || op === 'or') {
      if (!Array.isArray(operand) || operand.length === 0) return void fail(opPath, 'invalid_filter', `must be a non-empty array of filters, got ${show(operand)}`);
      const children = operand.map((child, i) => parseFilter(child, `${opPath}[${i}]`, depth + 1));
      return children.every((c) => c !== undefined) ? { kind: op, children } : undefined;
    }
    if (op === 'not') {
      const child = parseFilter(operand, opPath, depth + 1);
      return child && { kind: 'not', child };
    }
    if (!OPERATORS.has(op)) return void fail(opPath, 'unknown_operator', `unknown operator "${op}"; operators: ${OPERATOR_LIST}`);
    const fieldOp = op as FieldOperator;
    if (!isPlainObject(operand) || Object.keys(operand).length === 0) {
      return void fail(opPath, 'invalid_filter', `must map one or more searchable fields to operands, e.g. { "${op}": { "<field>": … } }`);
    }
    const leaves: FilterNode[] = [];
    for (const name of Object.keys(operand).sort()) {
      const fieldPath = `${opPath}.${name}`;
      const field = known(name, fieldPath);
      if (!field) continue;
      if (checkOperand(fieldOp, field, operand[name], fieldPath)) leaves.push({ kind: 'leaf', op: fieldOp, field: name, operand: operand[name] });
    }
    if (leaves.length !== Object.keys(operand).length) return undefined;
    return leaves.length === 1 ? leaves[0] : { kind: 'and', children: leaves };
  }

  function checkOperand(op: FieldOperator, field: FieldModel, operand: unknown, path: string): boolean {
    const kinds = applicableKinds(field, op);
    if (kinds.length === 0) {
      const to = op === 'like' || op === 'fuzzy' || op === 'keyword' ? 'string fields' : op === 'in' ? 'fields other than objects' : 'number and string fields';
      fail(path, 'unsupported_operator', `${op} applies to ${to}; "${field.name}" is ${field.type}`);
      return false;
    }
    const before = errors.length;
    switch (op) {
      case 'eq':
      case 'neq':
        checkElement(operand, path);
        break;
      case 'in':
        if (!Array.isArray(operand)) fail(path, 'invalid_operand', `in takes an array of values, got ${show(operand)}`);
        else operand.forEach((v, i) => checkElement(v, `${path}[${i}]`));
        break;
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte':
        if (!fitsKinds(operand, kinds, 'ordered')) fail(path, 'invalid_operand', `${op} on "${field.name}" (${field.type}) takes ${describeKinds(kinds, 'ordered')}, got ${show(operand)}`);
        break;
      default:
        if (typeof operand !== 'string') fail(path, 'invalid_operand', `${op} takes a string, got ${show(operand)}`);
        else if (op !== 'like' && distinctWordsOf(operand).length === 0) fail(path, 'invalid_operand', `${op} takes text with at least one word (letters or digits), got ${show(operand)}`);
    }
    return errors.length === before;

    function checkElement(value: unknown, at: string): void {
      if (value === null) return; // null asks for null or missing values
      if (!fitsKinds(value, kinds, 'element')) fail(at, 'invalid_operand', `${op} on "${field.name}" (${field.type}) takes ${describeKinds(kinds, 'element')} or null, got ${show(value)}`);
      else if (field.enum && !field.enum.includes(value as string)) fail(at, 'invalid_operand', `${show(value)} is not an allowed value of "${field.name}": ${field.enum.map(show).join(', ')}`);
    }
  }

  function parseSort(sort: unknown): SortKey[] {
    if (!Array.isArray(sort)) {
      fail('query.sort', 'invalid_sort', `must be an array of { "<field>": "asc" | "desc" }, got ${show(sort)}`);
      return [];
    }
    const keys: SortKey[] = [];
    sort.forEach((element, i) => {
      const path = `query.sort[${i}]`;
      const names = isPlainObject(element) ? Object.keys(element) : [];
      if (!isPlainObject(element) || names.length !== 1) return void fail(path, 'invalid_sort', `must be an object with exactly one key, { "<field>": "asc" | "desc" }, got ${show(element)}`);
      const name = names[0]!;
      const direction = element[name];
      const field = known(name, `${path}.${name}`);
      if (field && !isSortable(field)) fail(`${path}.${name}`, 'unsortable_field', `"${name}" is ${field.type}; sort orders numbers, strings and booleans`);
      else if (direction !== 'asc' && direction !== 'desc') fail(`${path}.${name}`, 'invalid_sort', `direction must be "asc" or "desc", got ${show(direction)}`);
      else if (field) keys.push({ field: name, descending: direction === 'desc' });
    });
    return keys;
  }
}

/** An own property (never one inherited from a prototype). */
function own(object: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** A short rendering of a value for messages. */
function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Array.isArray(value) ? 'an array' : typeof value; // too deep or circular to render
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function listNames(names: string[]): string {
  if (names.length === 0) return '(none)';
  const sorted = [...names].sort();
  return sorted.length > 30 ? `${sorted.slice(0, 30).join(', ')}, …` : sorted.join(', ');
}
