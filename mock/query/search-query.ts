/**
 * `search_query`: the payments search query language (upstream: Stripe's search syntax).
 *
 * Supported subset:
 * - a query is 1 to 10 clauses; a clause is `field`, an operator and a value:
 *   - `field:value` exact match: strings ignoring case, numbers numerically (`amount:1000` = `amount:"1000"`);
 *   - `field~"text"` substring match, ignoring case; the text must be at least 3 characters;
 *   - `field>n`, `field>=n`, `field<n`, `field<=n` numeric comparison (`created>1700000000`);
 *   - `field:null` holds when the field is missing or null;
 *   - `-` before a clause negates it (`-currency:"usd"`, `-metadata["plan"]:null`).
 * - `field` is a record field name, or a dot-separated path into nested objects (`address.city`), or
 *   `metadata["key"]` / `metadata['key']` for a metadata key.
 * - values: strings in single or double quotes, where a backslash makes the next character literal (`"a \"b\""`);
 *   unquoted numbers; unquoted `null`, `true`, `false`. An unquoted word is an error (strings must be quoted).
 * - clauses are joined by `AND` or `OR` (keywords in any case) or by whitespace alone, which means AND (as
 *   upstream documents: "separating them with a space"); AND and OR cannot be mixed in one query, and there are
 *   no parentheses.
 *
 * Errors (all with the position of the construct): `query_syntax` for malformed text (missing field, operator or
 * value, unterminated string, a dangling AND); `unknown_operator` for `=`, `!=` and the like; `invalid_value` for
 * an unquoted string, a substring shorter than 3 characters or a non-number after `>`; `query_unsupported` for
 * mixed AND/OR and parentheses; `limit_exceeded` past 10 clauses or 10,000 characters.
 */
import { Cursor, describeToken, readQueryText } from './cursor.js';
import type { QueryPlan } from './index.js';
import { asNumber, isScalar, own, readPath } from './values.js';

/**
 * Whether clauses separated only by whitespace are ANDed (true) or refused as `query_syntax` (false). Upstream's
 * documentation says "You can combine multiple query clauses in a search by either separating them with a space, or
 * using the AND or OR keywords (case insensitive)" (stripe.com/docs/search, search query language section).
 */
export const WHITESPACE_MEANS_AND = true;

/** Most clauses one query may have (upstream limit). */
export const MAX_CLAUSES = 10;
/** Shortest substring `~` accepts. */
export const MIN_SUBSTRING = 3;

type Operator = ':' | '~' | '>' | '>=' | '<' | '<=';
type Value = string | number | boolean | null;
type RecordTest = (record: Record<string, unknown>) => boolean;

const IDENTIFIER_START = /[A-Za-z_]/;
const IDENTIFIER_PART = /[A-Za-z0-9_]/;

/** Reads `name(.name)*` or `metadata["key"]`; returns how to read that field from a record. */
function readField(cursor: Cursor): (record: Record<string, unknown>) => unknown {
  const start = cursor.pos;
  if (cursor.peek() === '(' || cursor.peek() === ')') {
    cursor.fail('parentheses are not supported in a search query', 'query_unsupported');
  }
  if (!IDENTIFIER_START.test(cursor.peek())) {
    cursor.fail(`expected a field name, found ${describeToken(cursor.peek())}`);
  }
  const parts = [cursor.readWhile((c) => IDENTIFIER_PART.test(c))];
  while (cursor.peek() === '.' && IDENTIFIER_START.test(cursor.peek(1))) {
    cursor.pos++;
    parts.push(cursor.readWhile((c) => IDENTIFIER_PART.test(c)));
  }
  if (cursor.peek() !== '[') {
    const path = parts.join('.');
    return (record) => readPath(record, path);
  }
  if (parts.length !== 1 || parts[0] !== 'metadata') {
    cursor.fail('only metadata takes a ["key"] subscript', 'query_syntax', start);
  }
  cursor.pos++;
  if (cursor.peek() !== '"' && cursor.peek() !== "'") {
    cursor.fail('expected a quoted metadata key, as in metadata["key"]');
  }
  const key = cursor.readQuoted(`"'`);
  if (cursor.peek() !== ']') cursor.fail(`expected ] after the metadata key, found ${describeToken(cursor.peek())}`);
  cursor.pos++;
  return (record) => own(own(record, 'metadata'), key);
}

function readOperator(cursor: Cursor): Operator {
  const two = cursor.text.slice(cursor.pos, cursor.pos + 2);
  if (two === '>=' || two === '<=') {
    cursor.pos += 2;
    return two;
  }
  const one = cursor.peek();
  if (one === ':' || one === '~' || one === '>' || one === '<') {
    cursor.pos++;
    return one;
  }
  if (one === '' || /\s/.test(one)) cursor.fail('expected an operator (:, ~, >, >=, <, <=) after the field');
  const token = cursor.text.slice(cursor.pos).match(/^[=!]+|^\S/)?.[0];
  return cursor.fail(`unknown operator ${describeToken(token)}; use :, ~, >, >=, < or <=`, 'unknown_operator');
}

function readValue(cursor: Cursor): Value {
  const char = cursor.peek();
  if (char === '"' || char === "'") return cursor.readQuoted(`"'`);
  const start = cursor.pos;
  const word = cursor.readWhile((c) => !/\s/.test(c));
  if (word === '') cursor.fail('expected a value after the operator');
  const paren = word.search(/[()]/);
  if (paren >= 0) cursor.fail('parentheses are not supported in a search query', 'query_unsupported', start + paren);
  const lower = word.toLowerCase();
  if (lower === 'null') return null;
  if (lower === 'true' || lower === 'false') return lower === 'true';
  const number = asNumber(word);
  if (number !== undefined) return number;
  return cursor.fail(`string values must be quoted: "${word}"`, 'invalid_value', start);
}

/** Checks the value suits the operator; `at` is the value's position. */
function checkValue(cursor: Cursor, operator: Operator, value: Value, at: number): void {
  if (operator === '~' && (typeof value !== 'string' || value.length < MIN_SUBSTRING)) {
    cursor.fail(`~ takes a quoted string of at least ${MIN_SUBSTRING} characters`, 'invalid_value', at);
  }
  if (operator !== ':' && operator !== '~' && typeof value !== 'number') {
    cursor.fail(`${operator} takes a number, got ${JSON.stringify(value)}`, 'invalid_value', at);
  }
}

function clauseTest(read: (record: Record<string, unknown>) => unknown, operator: Operator, value: Value): RecordTest {
  const anyElement = (test: (v: unknown) => boolean) => (record: Record<string, unknown>) => {
    const actual = read(record);
    return Array.isArray(actual) ? actual.some(test) : test(actual);
  };
  if (value === null) return (record) => read(record) === undefined || read(record) === null;
  if (operator === ':') {
    const wanted = String(value).toLowerCase();
    const number = asNumber(value);
    return anyElement(
      (v) => isScalar(v) && (String(v).toLowerCase() === wanted || (number !== undefined && asNumber(v) === number)),
    );
  }
  if (operator === '~') {
    const needle = String(value).toLowerCase();
    return anyElement((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
  }
  const limit = value as number;
  const holds = {
    '>': (n: number) => n > limit,
    '>=': (n: number) => n >= limit,
    '<': (n: number) => n < limit,
    '<=': (n: number) => n <= limit,
  }[operator];
  return anyElement((v) => {
    const n = asNumber(v);
    return n !== undefined && holds(n);
  });
}

function readClause(cursor: Cursor): RecordTest {
  const negated = cursor.peek() === '-';
  if (negated) cursor.pos++;
  const read = readField(cursor);
  const operator = readOperator(cursor);
  const valueAt = cursor.pos;
  const value = readValue(cursor);
  checkValue(cursor, operator, value, valueAt);
  if (!cursor.done && !/\s/.test(cursor.peek())) {
    cursor.fail(`unexpected ${describeToken(cursor.peek())} after the value; separate clauses with a space, AND or OR`);
  }
  const test = clauseTest(read, operator, value);
  return negated ? (record) => !test(record) : test;
}

/** The connective at the position (`AND`/`OR` in any case, followed by whitespace or the end), if any. */
function peekConnective(cursor: Cursor): 'AND' | 'OR' | undefined {
  const match = /^(and|or)(?=\s|$)/i.exec(cursor.text.slice(cursor.pos, cursor.pos + 4));
  return match ? (match[1]!.toUpperCase() as 'AND' | 'OR') : undefined;
}

/** Plans a payments search query (see the file's documentation for the supported subset). */
export function planSearchQuery(params: Record<string, unknown>, paramName: string): QueryPlan {
  const text = readQueryText(params, paramName, { required: true })!;
  const cursor = new Cursor(text, paramName);
  cursor.skipSpace();
  if (cursor.done) {
    cursor.fail(
      `${paramName} is empty; write at least one clause such as email:"jenny@example.com"`,
      'invalid_value',
      0,
    );
  }
  const clauses: RecordTest[] = [];
  let joiner: 'AND' | 'OR' | undefined;
  for (;;) {
    const clauseAt = cursor.pos;
    const leading = peekConnective(cursor);
    if (leading) cursor.fail(`expected a clause, found ${leading}`);
    if (clauses.length === MAX_CLAUSES) cursor.fail(`more than ${MAX_CLAUSES} clauses`, 'limit_exceeded', clauseAt);
    clauses.push(readClause(cursor));
    cursor.skipSpace();
    if (cursor.done) break;
    const connectiveAt = cursor.pos;
    const explicit = peekConnective(cursor);
    if (!explicit && !WHITESPACE_MEANS_AND) cursor.fail('clauses must be joined by AND or OR');
    const connective = explicit ?? 'AND';
    if (joiner !== undefined && joiner !== connective) {
      cursor.fail(
        'AND and OR cannot be mixed in one query (whitespace between clauses means AND)',
        'query_unsupported',
        connectiveAt,
      );
    }
    joiner = connective;
    if (explicit) {
      cursor.pos += connective.length;
      cursor.skipSpace();
      if (cursor.done) cursor.fail(`expected a clause after ${connective}`);
    }
  }
  return {
    matches:
      joiner === 'OR'
        ? (record) => clauses.some((test) => test(record))
        : (record) => clauses.every((test) => test(record)),
  };
}
