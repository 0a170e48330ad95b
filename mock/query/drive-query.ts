/**
 * `drive_query`: a subset of the file-storage `q` language (files list and drives list).
 *
 * Supported subset:
 * - text fields: `name contains 'x'`, `name = 'x'`, `name != 'x'`, `mimeType contains|=|!= '…'`; `=` is exact and
 *   case-sensitive; `name contains` is a case-insensitive prefix match on the name or on any word in it (as upstream:
 *   'HelloWorld' contains 'Hello' but not 'World'); `mimeType contains` is a case-insensitive substring match;
 * - `fullText contains 'x'`: every word of x is a word of some string of the record (name, description, …), case
 *   ignored; `fullText contains '"exact phrase"'` needs the words consecutively;
 * - `'<id>' in parents`, `'<email or permission id>' in owners`;
 * - booleans `trashed`, `starred`, `sharedWithMe`, `hidden` with `=` / `!=` and `true` / `false` (a missing flag is false);
 * - times `modifiedTime`, `createdTime`, `viewedByMeTime`, `sharedWithMeTime` with `=`, `!=`, `<`, `<=`, `>`, `>=`
 *   and a quoted RFC 3339 value (`'2024-06-01T12:00:00Z'`; a date alone is midnight UTC); a missing time satisfies
 *   no comparison;
 * - counts `memberCount`, `organizerCount` (drives) with the same six operators and an unquoted number;
 * - `and`, `or`, `not` (any case) and parentheses; not binds tightest, then and, then or; an empty `q` matches
 *   everything;
 * - strings in single quotes, where `\'` is a quote and `\\` a backslash.
 *
 * Errors (with positions): `query_syntax` for malformed text (double-quoted strings included);
 * `unknown_operator` for an operator the field does not take (`name > 'a'`, `trashed contains 'x'`);
 * `query_unsupported` for other fields and for `has` (`properties has { … }`), `writers`, `readers`;
 * `invalid_value` for a value of the wrong type (`trashed = 'yes'`, a malformed time); `limit_exceeded` past 64
 * levels of nesting.
 */
import { Cursor, describeToken, MAX_NESTING, readQueryText } from './cursor.js';
import type { QueryPlan } from './index.js';
import { asDate, asNumber, isObject, isScalar, own, textLeaves, wordsOf } from './values.js';

type RecordTest = (record: Record<string, unknown>) => boolean;
type Kind = 'name' | 'mimeType' | 'fullText' | 'boolean' | 'time' | 'count';

interface Token {
  kind: 'word' | 'string' | 'op' | 'punct';
  text: string;
  pos: number;
}

// A Map, not an object literal: a field named `__proto__` or `constructor` must find nothing.
const FIELD_KINDS = new Map<string, Kind>([
  ['name', 'name'],
  ['mimeType', 'mimeType'],
  ['fullText', 'fullText'],
  ['trashed', 'boolean'],
  ['starred', 'boolean'],
  ['sharedWithMe', 'boolean'],
  ['hidden', 'boolean'],
  ['modifiedTime', 'time'],
  ['createdTime', 'time'],
  ['viewedByMeTime', 'time'],
  ['sharedWithMeTime', 'time'],
  ['memberCount', 'count'],
  ['organizerCount', 'count'],
]);
const ORDER_OPS = ['=', '!=', '<', '<=', '>', '>='];
const KIND_OPS: Record<Kind, string[]> = {
  name: ['contains', '=', '!='],
  mimeType: ['contains', '=', '!='],
  fullText: ['contains'],
  boolean: ['=', '!='],
  time: ORDER_OPS,
  count: ORDER_OPS,
};
const COLLECTIONS = new Set(['parents', 'owners']);
const OWNER_KEYS = ['emailAddress', 'permissionId', 'id', 'displayName'];

function tokenize(cursor: Cursor): Token[] {
  const tokens: Token[] = [];
  for (cursor.skipSpace(); !cursor.done; cursor.skipSpace()) {
    const pos = cursor.pos;
    const char = cursor.peek();
    if (char === "'") tokens.push({ kind: 'string', text: cursor.readQuoted("'"), pos });
    else if (char === '"') cursor.fail("strings are quoted with single quotes ('…'), not double quotes");
    else if ('(){},'.includes(char)) tokens.push({ kind: 'punct', text: char, pos: cursor.pos++ });
    else if ('=!<>'.includes(char)) {
      const op = cursor.readWhile((c) => '=!<>'.includes(c));
      if (!ORDER_OPS.includes(op)) {
        cursor.fail(`unknown operator ${describeToken(op)}; use =, !=, <, <=, > or >=`, 'unknown_operator', pos);
      }
      tokens.push({ kind: 'op', text: op, pos });
    } else {
      const word = cursor.readWhile((c) => /[\w.+:-]/.test(c));
      if (word === '') cursor.fail(`unexpected character ${describeToken(char)}`);
      tokens.push({ kind: 'word', text: word, pos });
    }
  }
  return tokens;
}

/** `name contains`: the operand starts the name or any word of it (case ignored). */
function prefixOfWord(name: string, operand: string): boolean {
  const text = name.toLowerCase();
  for (let i = 0; i <= text.length - operand.length; i++) {
    const boundary = i === 0 || !/[\p{L}\p{N}]/u.test(text.charAt(i - 1));
    if (boundary && text.startsWith(operand, i)) return true;
  }
  return false;
}

function fullTextTest(operand: string): RecordTest {
  const phrase = /^".*"$/s.test(operand.trim());
  const words = wordsOf(operand);
  return (record) => {
    const texts = textLeaves(record).map((text) => wordsOf(text));
    if (phrase) return texts.some((w) => ` ${w.join(' ')} `.includes(` ${words.join(' ')} `));
    const all = new Set(texts.flat());
    return words.every((word) => all.has(word));
  };
}

function ordered(op: string, order: number): boolean {
  return (
    { '=': order === 0, '!=': order !== 0, '<': order < 0, '<=': order <= 0, '>': order > 0, '>=': order >= 0 }[op] ??
    false
  );
}

class Parser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly cursor: Cursor,
  ) {}

  private peek(): Token | undefined {
    return this.tokens[this.index];
  }

  private isWord(token: Token | undefined, word: string): boolean {
    return token?.kind === 'word' && token.text.toLowerCase() === word;
  }

  private fail(detail: string, token: Token | undefined, code: Parameters<Cursor['fail']>[1] = 'query_syntax'): never {
    return this.cursor.fail(detail, code, token?.pos ?? this.cursor.text.length);
  }

  parse(): RecordTest {
    if (!this.peek()) return () => true;
    const test = this.parseOr();
    const rest = this.peek();
    if (rest) this.fail(`unexpected ${describeToken(rest.text)}; expected and, or or the end of the query`, rest);
    return test;
  }

  private parseOr(): RecordTest {
    const parts = [this.parseAnd()];
    while (this.isWord(this.peek(), 'or')) {
      this.index++;
      parts.push(this.parseAnd());
    }
    return parts.length === 1 ? parts[0]! : (r) => parts.some((test) => test(r));
  }

  private parseAnd(): RecordTest {
    const parts = [this.parseNot()];
    while (this.isWord(this.peek(), 'and')) {
      this.index++;
      parts.push(this.parseNot());
    }
    return parts.length === 1 ? parts[0]! : (r) => parts.every((test) => test(r));
  }

  private parseNot(): RecordTest {
    const token = this.peek();
    if (++this.depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`, token, 'limit_exceeded');
    try {
      if (this.isWord(token, 'not')) {
        this.index++;
        const inner = this.parseNot();
        return (r) => !inner(r);
      }
      if (token?.kind === 'punct' && token.text === '(') {
        this.index++;
        const inner = this.parseOr();
        const close = this.peek();
        if (close?.kind !== 'punct' || close.text !== ')') {
          this.fail(`expected a closing ), found ${describeToken(close?.text)}`, close);
        }
        this.index++;
        return inner;
      }
      return token?.kind === 'string' ? this.membership() : this.comparison();
    } finally {
      this.depth--;
    }
  }

  /** `'value' in parents|owners`. */
  private membership(): RecordTest {
    const value = this.tokens[this.index++]!.text;
    if (!this.isWord(this.peek(), 'in')) {
      this.fail(`expected in after a string, found ${describeToken(this.peek()?.text)}`, this.peek());
    }
    this.index++;
    const field = this.peek();
    if (field?.kind !== 'word') {
      this.fail(`expected parents or owners after in, found ${describeToken(field?.text)}`, field);
    }
    this.index++;
    if (!COLLECTIONS.has(field.text)) {
      this.fail(`'…' in ${field.text} is not supported; use parents or owners`, field, 'query_unsupported');
    }
    const keys = field.text === 'owners' ? OWNER_KEYS : [];
    return (record) => {
      const list = own(record, field.text);
      return (
        Array.isArray(list) &&
        list.some((item) => (isObject(item) ? keys.some((k) => own(item, k) === value) : item === value))
      );
    };
  }

  /** `field op value` or `field contains 'x'`. */
  private comparison(): RecordTest {
    const field = this.peek();
    if (field?.kind !== 'word' || ['and', 'or'].includes(field.text.toLowerCase())) {
      this.fail(`expected a field name, a string or (, found ${describeToken(field?.text)}`, field);
    }
    this.index++;
    const kind = FIELD_KINDS.get(field.text);
    const opToken = this.peek();
    if (this.isWord(opToken, 'has')) {
      this.fail(`has (${field.text} has { … }) is not supported`, opToken, 'query_unsupported');
    }
    if (kind === undefined) {
      this.fail(
        `field ${field.text} is not supported; use ${[...FIELD_KINDS.keys()].join(', ')} or '…' in parents|owners`,
        field,
        'query_unsupported',
      );
    }
    if (!opToken || (opToken.kind !== 'op' && opToken.kind !== 'word')) {
      this.fail(`expected an operator after ${field.text}, found ${describeToken(opToken?.text)}`, opToken);
    }
    const op = opToken.kind === 'word' ? opToken.text.toLowerCase() : opToken.text;
    if (!KIND_OPS[kind].includes(op)) {
      this.fail(
        `operator ${describeToken(opToken.text)} does not apply to ${field.text}; use ${KIND_OPS[kind].join(', ')}`,
        opToken,
        'unknown_operator',
      );
    }
    this.index++;
    const valueToken = this.peek();
    if (!valueToken || (valueToken.kind !== 'string' && valueToken.kind !== 'word')) {
      this.fail(`expected a value after ${opToken.text}, found ${describeToken(valueToken?.text)}`, valueToken);
    }
    this.index++;
    return this.test(field.text, kind, op, valueToken);
  }

  private test(field: string, kind: Kind, op: string, token: Token): RecordTest {
    const wrong = (expected: string): never =>
      this.fail(`${field} takes ${expected}, got ${describeToken(token.text)}`, token, 'invalid_value');
    const read = (record: Record<string, unknown>) => own(record, field);
    if (kind === 'boolean') {
      const lower = token.text.toLowerCase();
      if (token.kind !== 'word' || (lower !== 'true' && lower !== 'false')) wrong('true or false');
      const wanted = lower === 'true';
      return (r) => ((read(r) === true) === wanted) === (op === '=');
    }
    if (kind === 'count') {
      const wanted = (token.kind === 'word' ? asNumber(token.text) : undefined) ?? wrong('an unquoted number');
      return (r) => {
        const n = asNumber(read(r));
        return n !== undefined && ordered(op, Math.sign(n - wanted));
      };
    }
    if (token.kind !== 'string') wrong("a string in single quotes ('…')");
    const operand = token.text;
    if (kind === 'time') {
      const wanted = asDate(operand) ?? wrong("an RFC 3339 time such as '2024-06-01T12:00:00Z'");
      return (r) => {
        const t = asDate(read(r));
        return t !== undefined && ordered(op, Math.sign(t - wanted));
      };
    }
    if (kind === 'fullText') return fullTextTest(operand);
    if (op === 'contains') {
      const lower = operand.toLowerCase();
      return kind === 'name'
        ? (r) => {
            const v = read(r);
            return typeof v === 'string' && prefixOfWord(v, lower);
          }
        : (r) => {
            const v = read(r);
            return typeof v === 'string' && v.toLowerCase().includes(lower);
          };
    }
    return op === '=' ? (r) => read(r) === operand : (r) => !(isScalar(read(r)) && read(r) === operand);
  }
}

/** Plans a file-storage `q` query (see the file's documentation for the supported subset). */
export function planDriveQuery(params: Record<string, unknown>, paramName: string): QueryPlan {
  const text = readQueryText(params, paramName, { required: false }) ?? '';
  const cursor = new Cursor(text, paramName);
  return { matches: new Parser(tokenize(cursor), cursor).parse() };
}
