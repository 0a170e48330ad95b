/**
 * `jql`: a subset of the issue query language, over project-tracking issue records `{ id, key, self, fields }`.
 *
 * Supported subset:
 * - clauses `field OP value`: `=`, `!=`, `~` (contains text), `!~`, `>`, `>=`, `<`, `<=`, `IN (v, …)`,
 *   `NOT IN (v, …)`, `IS EMPTY`, `IS NOT EMPTY` (`NULL` is a synonym of `EMPTY`; `= EMPTY` and `!= EMPTY` work too,
 *   and `EMPTY` may appear in an IN list);
 * - `AND`, `OR`, `NOT` and parentheses; NOT binds tightest, then AND, then OR; keywords in any case;
 * - `ORDER BY field [ASC|DESC], …` after the condition, or alone;
 * - values: unquoted words (`Done`, `ABC-123`, `2024-01-15`, `42`) or strings in double or single quotes, where a
 *   backslash makes the next character literal; an empty query matches every issue.
 *
 * Fields (names ignore case): `key` (alias `issuekey`) and `id` are top-level; `project` is `fields.project`,
 * matched by its key, name or id; `status` is `fields.status`, matched by its name (or id); `text` searches every
 * string in `fields`; `cf[10010]` is `fields.customfield_10010`; aliases `type` → `issuetype`, `due` → `duedate`,
 * `resolved` → `resolutiondate`, `createdDate` → `created`, `updatedDate` → `updated`; any other name is
 * `fields.<name>`. Objects compare by their name, key, value, displayName, emailAddress, accountId or id; an array
 * field matches when any element does.
 *
 * Semantics: `=` and `IN` ignore case; `~` holds when every word of the operand (a trailing `*` is ignored) is a
 * case-insensitive substring of the field's text (ADF documents included); `!=`, `!~` and `NOT IN` never match an
 * empty field (as upstream); order operators compare numbers numerically and dates (`yyyy-MM-dd`, `yyyy/MM/dd`,
 * optional ` HH:mm`, UTC) chronologically, else text by code unit. ORDER BY sorts by the same resolution (`status`
 * by `fields.status.name`, `project` by `fields.project.key`), missing values last.
 *
 * Errors (with positions): `query_syntax` for malformed text; `unknown_operator` for operators such as `==` or
 * `LIKE`; `query_unsupported` for functions (`currentUser()`), history operators (`WAS`, `CHANGED`) and relative
 * dates (`-7d`); `invalid_value` for an empty `~` operand; `limit_exceeded` past 64 levels of nesting.
 */
import { Cursor, describeToken, MAX_NESTING, readQueryText } from './cursor.js';
import type { QueryPlan } from './index.js';
import { anyLabel, equalsIgnoringCase, firstLabel, resolveField, someElement, type Resolver } from './jql-fields.js';
import { compareToOperand, isEmptyValue, textLeaves, toOperand } from './values.js';

type RecordTest = (record: Record<string, unknown>) => boolean;

interface Token {
  kind: 'word' | 'string' | 'op' | 'punct';
  text: string;
  pos: number;
}

const OPERATORS = ['!=', '!~', '>=', '<=', '=', '~', '>', '<'];
const WORD_STOP = /[\s()=,!<>~"']/;
const RELATIVE_DATE = /^[-+]?\d+[wdhm]$/i;

/** Splits a JQL text into words, quoted strings, operators and punctuation, each with its position. */
function tokenize(cursor: Cursor): Token[] {
  const tokens: Token[] = [];
  for (cursor.skipSpace(); !cursor.done; cursor.skipSpace()) {
    const pos = cursor.pos;
    const char = cursor.peek();
    if (char === '"' || char === "'") tokens.push({ kind: 'string', text: cursor.readQuoted(`"'`), pos });
    else if ('(),'.includes(char)) tokens.push({ kind: 'punct', text: char, pos: cursor.pos++ });
    else {
      const op = OPERATORS.find((candidate) => cursor.startsWith(candidate));
      if (op) {
        cursor.pos += op.length;
        // `==`, `=>` and the like are one unknown operator, not two tokens.
        const more = cursor.readWhile((c) => '=!<>~'.includes(c));
        tokens.push({ kind: 'op', text: op + more, pos });
      } else if (char === '!') {
        cursor.fail('! is not an operator; use != or !~ after a field, or NOT', 'unknown_operator');
      } else tokens.push({ kind: 'word', text: cursor.readWhile((c) => !WORD_STOP.test(c)), pos });
    }
  }
  return tokens;
}

/** `2024/01/15 10:30` → `2024-01-15 10:30`, the form dates compare in; other values unchanged. */
function normaliseDate(text: string): string {
  return /^\d{4}\/\d{2}\/\d{2}(?: \d{2}:\d{2})?$/.test(text) ? text.replace(/\//g, '-') : text;
}

/** Recursive-descent parser over the token list. */
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

  private isWord(token: Token | undefined, ...words: string[]): boolean {
    return token?.kind === 'word' && words.includes(token.text.toUpperCase());
  }

  private fail(detail: string, token: Token | undefined, code: Parameters<Cursor['fail']>[1] = 'query_syntax'): never {
    return this.cursor.fail(detail, code, token?.pos ?? this.cursor.text.length);
  }

  private expectPunct(text: string, what: string): void {
    const token = this.peek();
    if (token?.kind !== 'punct' || token.text !== text) {
      this.fail(`expected ${what}, found ${describeToken(token?.text)}`, token);
    }
    this.index++;
  }

  /** The whole query: `[condition] [ORDER BY …]`. */
  parse(): QueryPlan {
    let matches: RecordTest = () => true;
    if (this.peek() && !this.isWord(this.peek(), 'ORDER')) matches = this.parseOr();
    const plan: QueryPlan = { matches };
    if (this.isWord(this.peek(), 'ORDER')) plan.sort = this.parseOrderBy();
    const rest = this.peek();
    if (rest) this.fail(`unexpected ${describeToken(rest.text)}; expected AND, OR or ORDER BY`, rest);
    return plan;
  }

  private parseOr(): RecordTest {
    const parts = [this.parseAnd()];
    while (this.isWord(this.peek(), 'OR')) {
      this.index++;
      parts.push(this.parseAnd());
    }
    return parts.length === 1 ? parts[0]! : (r) => parts.some((test) => test(r));
  }

  private parseAnd(): RecordTest {
    const parts = [this.parseNot()];
    while (this.isWord(this.peek(), 'AND')) {
      this.index++;
      parts.push(this.parseNot());
    }
    return parts.length === 1 ? parts[0]! : (r) => parts.every((test) => test(r));
  }

  private parseNot(): RecordTest {
    const token = this.peek();
    if (++this.depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`, token, 'limit_exceeded');
    try {
      if (this.isWord(token, 'NOT')) {
        this.index++;
        const inner = this.parseNot();
        return (r) => !inner(r);
      }
      if (token?.kind === 'punct' && token.text === '(') {
        this.index++;
        const inner = this.parseOr();
        this.expectPunct(')', 'a closing )');
        return inner;
      }
      return this.parseClause();
    } finally {
      this.depth--;
    }
  }

  private parseFieldName(): Token {
    const token = this.peek();
    if (
      !token ||
      (token.kind !== 'word' && token.kind !== 'string') ||
      this.isWord(token, 'AND', 'OR', 'ORDER', 'BY')
    ) {
      this.fail(`expected a field name, found ${describeToken(token?.text)}`, token);
    }
    this.index++;
    return token;
  }

  private parseClause(): RecordTest {
    const { read } = resolveField(this.parseFieldName().text);
    const token = this.peek();
    if (!token) this.fail('expected an operator after the field', token);
    this.index++;
    if (token.kind === 'op') return this.comparison(token, read);
    const keyword = token.kind === 'word' ? token.text.toUpperCase() : '';
    if (keyword === 'IN') return this.inList(read, false);
    if (keyword === 'NOT') {
      if (!this.isWord(this.peek(), 'IN')) {
        this.fail(`expected IN after NOT, found ${describeToken(this.peek()?.text)}`, this.peek());
      }
      this.index++;
      return this.inList(read, true);
    }
    if (keyword === 'IS') {
      const negated = this.isWord(this.peek(), 'NOT');
      if (negated) this.index++;
      const empty = this.peek();
      if (!this.isWord(empty, 'EMPTY', 'NULL')) {
        this.fail(
          `expected EMPTY or NULL after IS${negated ? ' NOT' : ''}, found ${describeToken(empty?.text)}`,
          empty,
        );
      }
      this.index++;
      return negated ? (r) => !isEmptyValue(read(r)) : (r) => isEmptyValue(read(r));
    }
    if (keyword === 'WAS' || keyword === 'CHANGED') {
      this.fail(`history operator ${keyword} is not supported`, token, 'query_unsupported');
    }
    if (token.kind === 'word') {
      this.fail(
        `unknown operator ${describeToken(token.text)}; use =, !=, ~, !~, >, >=, <, <=, IN, NOT IN or IS`,
        token,
        'unknown_operator',
      );
    }
    return this.fail(`expected an operator after the field, found ${describeToken(token.text)}`, token);
  }

  /** A value: a quoted string or a word, or `undefined` for EMPTY / NULL. Functions and relative dates are refused. */
  private parseValue(allowEmpty: boolean, text = false): { value: string | undefined; token: Token } {
    const token = this.peek();
    if (!token || (token.kind !== 'word' && token.kind !== 'string')) {
      this.fail(`expected a value, found ${describeToken(token?.text)}`, token);
    }
    this.index++;
    const next = this.peek();
    if (token.kind === 'word' && next?.kind === 'punct' && next.text === '(') {
      this.fail(`functions such as ${token.text}() are not supported; use a literal value`, token, 'query_unsupported');
    }
    if (!text && RELATIVE_DATE.test(token.text)) {
      this.fail(
        `relative date ${token.text} is not supported; use an absolute date (yyyy-MM-dd)`,
        token,
        'query_unsupported',
      );
    }
    if (token.kind === 'word') {
      const upper = token.text.toUpperCase();
      if (upper === 'EMPTY' || upper === 'NULL') {
        if (!allowEmpty) this.fail(`${upper} is only allowed with =, !=, IS, IN and NOT IN`, token);
        return { value: undefined, token };
      }
      if (['AND', 'OR', 'NOT', 'ORDER', 'IN', 'IS'].includes(upper)) {
        this.fail(`expected a value, found keyword ${upper} (quote it to use it as a value)`, token);
      }
    }
    return { value: normaliseDate(token.text), token };
  }

  private comparison(op: Token, read: Resolver): RecordTest {
    if (!OPERATORS.includes(op.text)) {
      this.fail(
        `unknown operator ${describeToken(op.text)}; use =, !=, ~, !~, >, >=, <, <=, IN, NOT IN or IS`,
        op,
        'unknown_operator',
      );
    }
    const { value, token } = this.parseValue(op.text === '=' || op.text === '!=', op.text === '~' || op.text === '!~');
    if (value === undefined) return op.text === '=' ? (r) => isEmptyValue(read(r)) : (r) => !isEmptyValue(read(r));
    const operand = toOperand(value);
    switch (op.text) {
      case '=':
        return (r) => anyLabel(read(r), (l) => equalsIgnoringCase(l, operand));
      case '!=':
        return (r) => {
          const value = read(r);
          return someElement(value, () => true) && !anyLabel(value, (l) => equalsIgnoringCase(l, operand));
        };
      case '~':
      case '!~': {
        const words = value
          .toLowerCase()
          .split(/\s+/)
          .map((w) => w.replace(/\*+$/, ''))
          .filter((w) => w !== '');
        if (words.length === 0) this.fail(`${op.text} needs at least one word to look for`, token, 'invalid_value');
        const contains = (r: Record<string, unknown>) => {
          const text = textLeaves(read(r)).join(' ').toLowerCase();
          return words.every((word) => text.includes(word));
        };
        return op.text === '~' ? contains : (r) => !isEmptyValue(read(r)) && !contains(r);
      }
      default: {
        const holds = {
          '>': (o: number) => o > 0,
          '>=': (o: number) => o >= 0,
          '<': (o: number) => o < 0,
          '<=': (o: number) => o <= 0,
        }[op.text]!;
        return (r) =>
          someElement(read(r), (v) => {
            const order = compareToOperand(firstLabel(v), operand);
            return order !== undefined && holds(order);
          });
      }
    }
  }

  private inList(read: Resolver, negated: boolean): RecordTest {
    const fn = this.peek();
    const after = this.tokens[this.index + 1];
    if (fn?.kind === 'word' && after?.kind === 'punct' && after.text === '(') {
      this.fail(`functions such as ${fn.text}() are not supported; use a literal list`, fn, 'query_unsupported');
    }
    this.expectPunct('(', `( after ${negated ? 'NOT IN' : 'IN'}`);
    const values: (string | undefined)[] = [this.parseValue(true).value];
    while (this.peek()?.kind === 'punct' && this.peek()!.text === ',') {
      this.index++;
      values.push(this.parseValue(true).value);
    }
    this.expectPunct(')', 'a closing ) or ,');
    const listed = values.filter((v): v is string => v !== undefined).map(toOperand);
    const withEmpty = listed.length < values.length;
    const inList = (r: Record<string, unknown>) => {
      const value = read(r);
      if (!someElement(value, () => true)) return withEmpty;
      return anyLabel(value, (l) => listed.some((wanted) => equalsIgnoringCase(l, wanted)));
    };
    if (!negated) return inList;
    return (r) => (withEmpty || !isEmptyValue(read(r))) && !inList(r);
  }

  private parseOrderBy(): NonNullable<QueryPlan['sort']> {
    this.index++;
    if (!this.isWord(this.peek(), 'BY')) {
      this.fail(`expected BY after ORDER, found ${describeToken(this.peek()?.text)}`, this.peek());
    }
    this.index++;
    const keys: NonNullable<QueryPlan['sort']> = [];
    do {
      if (keys.length > 0) this.index++;
      const { path } = resolveField(this.parseFieldName().text);
      let direction: 'asc' | 'desc' = 'asc';
      if (this.isWord(this.peek(), 'ASC', 'DESC')) {
        direction = this.tokens[this.index++]!.text.toLowerCase() as 'asc' | 'desc';
      }
      keys.push({ path, direction });
    } while (this.peek()?.kind === 'punct' && this.peek()!.text === ',');
    return keys;
  }
}

/** Plans a JQL query (see the file's documentation for the supported subset). */
export function planJql(params: Record<string, unknown>, paramName: string): QueryPlan {
  const text = readQueryText(params, paramName, { required: false }) ?? '';
  const cursor = new Cursor(text, paramName);
  return new Parser(tokenize(cursor), cursor).parse();
}
