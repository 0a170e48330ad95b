/**
 * `code_search`: a subset of the code-hosting search syntax (repositories, issues, pull requests, users).
 *
 * Supported subset — space-separated terms, all of which must hold:
 * - free words and `"quoted phrases"`: each appears (case-insensitive substring) in some string of the record, or
 *   only in the fields `in:` names (`in:name,description`, `in:title`, `in:body`);
 * - qualifiers `key:value` or `key:"quoted value"`, compared ignoring case, an array or connection (`{ nodes }`)
 *   matching when any element does, an object by its login, name, nameWithOwner, full_name, title, key, value or id:
 *   `state:`, `label:` (labels), `repo:owner/name` (repository, nameWithOwner, full_name), `user:` / `org:` (owner),
 *   `author:`, `assignee:` (assignees), `language:` (primaryLanguage), `milestone:`, `stars:` (stargazerCount),
 *   `forks:` (forkCount), `created:` / `updated:` / `closed:` / `merged:` / `pushed:` (…At), `comments:`,
 *   `followers:`, `repos:`, `size:`, and any other key naming a field of the record (`number:42`);
 * - `is:open` / `is:closed` / `is:merged` (state; closed includes merged), `is:public` / `is:private`, `is:issue` /
 *   `is:pr`, `is:draft`, `is:archived`, `is:locked`, `is:fork`, and `is:x` for a boolean field `isX` or `x`;
 *   `no:label` (and `no:<qualifier>`) for an empty field;
 * - comparisons `stars:>10`, `>=`, `<`, `<=`, ranges `stars:10..50`, `created:2024-01-01..*`, on numbers or ISO
 *   dates; `created:2024-01-15` matches that whole UTC day;
 * - `-key:value` negates a qualifier.
 *
 * A qualifier whose field the record does not have does not hold (so its negation does); that is not an error.
 * Errors (with positions): `query_syntax` for an unterminated quote, an empty key or value, a stray quote;
 * `query_unsupported` for AND / OR / NOT, parentheses, `sort:`, a negated free word or phrase and a negated `in:`;
 * `invalid_value` for a comparison on something that is neither a number nor a date, and for an empty query.
 */
import { Cursor, describeToken, readQueryText } from './cursor.js';
import type { QueryPlan } from './index.js';
import { asDate, asNumber, isEmptyValue, isObject, isScalar, labelsOf, own, readPath, textLeaves } from './values.js';

type RecordTest = (record: Record<string, unknown>) => boolean;

/** Where a qualifier looks, first present path wins; other keys look at the field of their own name. */
const QUALIFIER_PATHS = new Map<string, string[]>([
  ['state', ['state']],
  ['label', ['labels']],
  ['repo', ['repository', 'nameWithOwner', 'full_name', 'repo']],
  ['user', ['owner', 'repository.owner', 'user', 'login']],
  ['org', ['owner', 'repository.owner', 'organization', 'org', 'login']],
  ['author', ['author', 'user']],
  ['assignee', ['assignees', 'assignee']],
  ['language', ['primaryLanguage', 'language']],
  ['stars', ['stargazerCount', 'stargazers_count', 'stars']],
  ['forks', ['forkCount', 'forks_count', 'forks']],
  ['created', ['createdAt', 'created_at', 'created']],
  ['updated', ['updatedAt', 'updated_at', 'updated']],
  ['closed', ['closedAt', 'closed_at', 'closed']],
  ['merged', ['mergedAt', 'merged_at', 'merged']],
  ['pushed', ['pushedAt', 'pushed_at', 'pushed']],
  ['size', ['diskUsage', 'size']],
]);
/** Fields `in:` names, by target. */
const IN_PATHS = new Map<string, string[]>([
  ['name', ['name']],
  ['description', ['description']],
  ['title', ['title']],
  ['body', ['body', 'bodyText']],
  ['readme', ['readme']],
  ['topics', ['repositoryTopics', 'topics']],
  ['comments', ['comments']],
  ['login', ['login']],
  ['email', ['email']],
  ['fullname', ['name']],
]);
const CODE_LABELS = ['login', 'name', 'nameWithOwner', 'full_name', 'title', 'key', 'value', 'id'] as const;
const PULL_REQUEST_MARKERS = ['mergedAt', 'merged', 'mergeable', 'headRefName', 'baseRefName'];
const BOOLEAN_OPERATORS = new Set(['AND', 'OR', 'NOT']);

/** Candidate paths of a qualifier key (`key` as written: other keys name record fields, which may be camelCase). */
function pathsOf(key: string): string[] {
  return QUALIFIER_PATHS.get(key.toLowerCase()) ?? [key];
}

/** The value at the first path the record has; a one-segment path also matches a field name in another case. */
function firstPresent(record: Record<string, unknown>, paths: string[]): unknown {
  for (const path of paths) {
    const value = readPath(record, path);
    if (value !== undefined) return value;
  }
  const [only] = paths;
  if (paths.length !== 1 || only === undefined || only.includes('.')) return undefined;
  const match = Object.keys(record).find((key) => key.toLowerCase() === only.toLowerCase());
  return match === undefined ? undefined : record[match];
}

/** The scalars a field's value compares by: array and connection elements, objects by their labels, counts. */
function comparables(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(comparables);
  if (!isObject(value)) return isScalar(value) ? [value] : [];
  const nodes = own(value, 'nodes');
  if (Array.isArray(nodes)) return nodes.flatMap(comparables);
  const edges = own(value, 'edges');
  if (Array.isArray(edges)) return edges.flatMap((edge) => comparables(own(edge, 'node')));
  const labels = labelsOf(value, CODE_LABELS);
  const count = own(value, 'totalCount');
  return labels.length > 0 ? labels : typeof count === 'number' ? [count] : [];
}

const DAY_MS = 86_400_000;

/** What a comparison operand spans: a number is itself; a date alone is its whole UTC day; `*` is unbounded. */
function operandSpan(text: string, cursor: Cursor, at: number): { first: number; last: number } | undefined {
  if (text === '*') return undefined;
  const number = asNumber(text);
  if (number !== undefined) return { first: number, last: number };
  const instant = asDate(text);
  if (instant === undefined) {
    cursor.fail(`expected a number or a date (yyyy-mm-dd), found ${describeToken(text)}`, 'invalid_value', at);
  }
  return /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? { first: instant, last: instant + DAY_MS - 1 }
    : { first: instant, last: instant };
}

/** A qualifier value's test on one scalar. */
function valueTest(value: string, cursor: Cursor, at: number): (actual: unknown) => boolean {
  const numeric = (actual: unknown) => asNumber(actual) ?? asDate(actual);
  const comparison = /^(>=|<=|>|<)(.*)$/s.exec(value);
  if (comparison) {
    const [, op = '', rest = ''] = comparison;
    if (rest === '') cursor.fail(`expected a number or a date after ${op}`, 'query_syntax', at + op.length);
    if (rest === '*') cursor.fail('* is only allowed in a range (a..*)', 'invalid_value', at + op.length);
    const { first, last } = operandSpan(rest, cursor, at + op.length)!;
    return (actual) => {
      const n = numeric(actual);
      if (n === undefined) return false;
      return op === '>' ? n > last : op === '>=' ? n >= first : op === '<' ? n < first : n <= last;
    };
  }
  const range = value.indexOf('..');
  if (range >= 0) {
    const low = value.slice(0, range);
    const high = value.slice(range + 2);
    if (low === '' || high === '' || high.includes('..')) {
      cursor.fail(`a range is written low..high (* for unbounded), found ${describeToken(value)}`, 'query_syntax', at);
    }
    const from = operandSpan(low, cursor, at)?.first;
    const to = operandSpan(high, cursor, at + range + 2)?.last;
    return (actual) => {
      const n = numeric(actual);
      return n !== undefined && (from === undefined || n >= from) && (to === undefined || n <= to);
    };
  }
  const lower = value.toLowerCase();
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value) ? asDate(value) : undefined;
  const number = asNumber(value);
  return (actual) => {
    if (!isScalar(actual)) return false;
    if (String(actual).toLowerCase() === lower) return true;
    if (number !== undefined && asNumber(actual) === number) return true;
    const instant = day === undefined ? undefined : asDate(actual);
    return instant !== undefined && instant >= day! && instant < day! + DAY_MS;
  };
}

function flag(record: Record<string, unknown>, name: string): boolean {
  const camel = `is${name.charAt(0).toUpperCase()}${name.slice(1)}`;
  return own(record, camel) === true || own(record, name) === true;
}

function stateIs(record: Record<string, unknown>, ...states: string[]): boolean {
  const state = own(record, 'state');
  return typeof state === 'string' && states.includes(state.toUpperCase());
}

/** `is:<value>`. */
function isTest(value: string): RecordTest {
  switch (value.toLowerCase()) {
    case 'open':
      return (r) => stateIs(r, 'OPEN');
    case 'closed':
      return (r) => stateIs(r, 'CLOSED', 'MERGED');
    case 'merged':
      return (r) => stateIs(r, 'MERGED') || own(r, 'merged') === true || !isEmptyValue(own(r, 'mergedAt'));
    case 'public':
      return (r) =>
        own(r, 'isPrivate') === false ||
        own(r, 'private') === false ||
        String(own(r, 'visibility')).toLowerCase() === 'public';
    case 'private':
      return (r) =>
        own(r, 'isPrivate') === true ||
        own(r, 'private') === true ||
        String(own(r, 'visibility')).toLowerCase() === 'private';
    case 'pr':
    case 'pull-request':
      return (r) => PULL_REQUEST_MARKERS.some((key) => Object.hasOwn(r, key));
    case 'issue':
      return (r) => !PULL_REQUEST_MARKERS.some((key) => Object.hasOwn(r, key));
    default:
      return (r) => flag(r, value) || stateIs(r, value.toUpperCase());
  }
}

function freeTextTest(needle: string, scopes: string[][]): RecordTest {
  const lower = needle.toLowerCase();
  return (record) => {
    const sources = scopes.length === 0 ? [record] : scopes.map((paths) => firstPresent(record, paths));
    return sources.some((source) => textLeaves(source).some((text) => text.toLowerCase().includes(lower)));
  };
}

/** Reads one term at the cursor: a phrase, a qualifier or a word. */
function readTerm(cursor: Cursor, terms: { words: string[]; qualifiers: RecordTest[]; scopes: string[][] }): void {
  const start = cursor.pos;
  const char = cursor.peek();
  if (char === '(' || char === ')') {
    cursor.fail('parentheses are not supported; all terms must hold', 'query_unsupported');
  }
  if (char === '"') {
    terms.words.push(cursor.readQuoted('"'));
    if (!cursor.done && !/\s/.test(cursor.peek())) {
      cursor.fail(`expected a space after the closing quote, found ${describeToken(cursor.peek())}`);
    }
    return;
  }
  const negated = char === '-';
  if (negated) cursor.pos++;
  if (negated && cursor.peek() === '"') {
    cursor.fail('negating a phrase is not supported; negate a qualifier (-label:bug)', 'query_unsupported', start);
  }
  const keyAt = cursor.pos;
  const head = cursor.readWhile((c) => !/[\s:"]/.test(c));
  if (cursor.peek() === '"') cursor.fail('unexpected " inside a word; quote the whole phrase or the qualifier value');
  if (cursor.peek() !== ':') {
    if (head === '') cursor.fail('expected a word or a qualifier after -', 'query_syntax', start);
    if (BOOLEAN_OPERATORS.has(head)) {
      cursor.fail(`boolean operator ${head} is not supported; terms are combined with AND`, 'query_unsupported', start);
    }
    if (negated) {
      cursor.fail(
        `negating a free word (-${head}) is not supported; negate a qualifier (-label:bug)`,
        'query_unsupported',
        start,
      );
    }
    terms.words.push(head);
    return;
  }
  if (head === '') cursor.fail('expected a qualifier name before :', 'query_syntax', keyAt);
  cursor.pos++;
  const valueAt = cursor.pos;
  const value = cursor.peek() === '"' ? cursor.readQuoted('"') : cursor.readWhile((c) => !/\s/.test(c));
  if (value === '') cursor.fail(`expected a value after ${head}:`, 'query_syntax', valueAt);
  if (!cursor.done && !/\s/.test(cursor.peek())) {
    cursor.fail(`expected a space after the value, found ${describeToken(cursor.peek())}`);
  }
  const key = head.toLowerCase();
  if (key === 'sort') cursor.fail('sort: is not supported in the query', 'query_unsupported', start);
  if (key === 'in') {
    if (negated) cursor.fail('in: cannot be negated', 'query_unsupported', start);
    for (const target of value
      .toLowerCase()
      .split(',')
      .filter((t) => t !== ''))
      terms.scopes.push(IN_PATHS.get(target) ?? [target]);
    return;
  }
  let test: RecordTest;
  if (key === 'is') test = isTest(value);
  else if (key === 'no') {
    const paths = pathsOf(value);
    test = (r) => comparables(firstPresent(r, paths)).length === 0;
  } else {
    const paths = pathsOf(head),
      holds = valueTest(value, cursor, valueAt);
    test = (r) => comparables(firstPresent(r, paths)).some(holds);
  }
  terms.qualifiers.push(negated ? (r) => !test(r) : test);
}

/** Plans a code-hosting search query (see the file's documentation for the supported subset). */
export function planCodeSearch(params: Record<string, unknown>, paramName: string): QueryPlan {
  const text = readQueryText(params, paramName, { required: true })!;
  const cursor = new Cursor(text, paramName);
  const terms = { words: [] as string[], qualifiers: [] as RecordTest[], scopes: [] as string[][] };
  for (cursor.skipSpace(); !cursor.done; cursor.skipSpace()) readTerm(cursor, terms);
  if (terms.words.length === 0 && terms.qualifiers.length === 0 && terms.scopes.length === 0) {
    cursor.fail(`${paramName} is empty; give at least one word or qualifier`, 'invalid_value', 0);
  }
  const tests = [...terms.qualifiers, ...terms.words.map((word) => freeTextTest(word, terms.scopes))];
  return { matches: (record) => tests.every((test) => test(record)) };
}
