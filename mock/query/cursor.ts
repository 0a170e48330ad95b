/**
 * Character-level reading shared by the text query languages: a position in the query, whitespace skipping,
 * quoted strings with backslash escapes, and errors that carry the position they refer to.
 */
import { QueryError, type QueryErrorCode } from './error.js';

/** Longest query text any language accepts; longer input is refused before it is parsed. */
export const MAX_QUERY_LENGTH = 10_000;

/** Deepest nesting of parentheses and NOT a parser follows (keeps recursion bounded on hostile input). */
export const MAX_NESTING = 64;

/** A read position in one query text. */
export class Cursor {
  /** 0-based offset of the next character to read. */
  pos = 0;

  /** `text` is the query; `field` names the param it came from, for errors. */
  constructor(
    readonly text: string,
    readonly field: string,
  ) {}

  /** Whether everything has been read. */
  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** The character `ahead` places after the position ('' past the end). */
  peek(ahead = 0): string {
    return this.text.charAt(this.pos + ahead);
  }

  /** Whether the text at the position starts with `prefix`. */
  startsWith(prefix: string): boolean {
    return this.text.startsWith(prefix, this.pos);
  }

  /** Skips whitespace; returns whether any was skipped. */
  skipSpace(): boolean {
    const start = this.pos;
    while (this.pos < this.text.length && /\s/.test(this.text.charAt(this.pos))) this.pos++;
    return this.pos > start;
  }

  /** Reads characters while `accept` holds; returns them ('' when none). */
  readWhile(accept: (char: string) => boolean): string {
    const start = this.pos;
    while (this.pos < this.text.length && accept(this.text.charAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /**
   * Reads a string quoted with the character at the position (one of `quotes`), where a backslash makes the next
   * character literal (`\'`, `\"`, `\\`). Throws `query_syntax` at the opening quote when it is never closed.
   */
  readQuoted(quotes: string): string {
    const start = this.pos;
    const quote = this.peek();
    if (!quotes.includes(quote) || quote === '') this.fail(`expected a string quoted with ${quotes}`);
    this.pos++;
    let value = '';
    while (this.pos < this.text.length) {
      const char = this.text.charAt(this.pos++);
      if (char === quote) return value;
      if (char === '\\' && this.pos < this.text.length) value += this.text.charAt(this.pos++);
      else value += char;
    }
    return this.fail(`unterminated string (missing closing ${quote})`, 'query_syntax', start);
  }

  /** Throws a {@link QueryError} for this query at `position` (default: the current position). */
  fail(detail: string, code: QueryErrorCode = 'query_syntax', position: number = this.pos): never {
    throw new QueryError(detail, { field: this.field, code, position });
  }
}

/** A short, quoted rendering of a token for messages (`'LIKE'`, `end of query`). */
export function describeToken(text: string | undefined): string {
  if (text === undefined || text === '') return 'end of query';
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * The query text of `params[paramName]`: a string (undefined when absent or null and not `required`).
 * Throws `invalid_value` for a missing required query or a non-string, `limit_exceeded` past `maxLength`.
 */
export function readQueryText(
  params: Record<string, unknown>,
  paramName: string,
  options: { required: boolean; maxLength?: number },
): string | undefined {
  const value = Object.hasOwn(params, paramName) ? params[paramName] : undefined;
  if (value === undefined || value === null) {
    if (options.required) throw new QueryError(`${paramName} is required`, { field: paramName, code: 'invalid_value' });
    return undefined;
  }
  if (typeof value !== 'string') {
    throw new QueryError(`${paramName} must be a string, got ${Array.isArray(value) ? 'array' : typeof value}`, {
      field: paramName,
      code: 'invalid_value',
    });
  }
  const maxLength = options.maxLength ?? MAX_QUERY_LENGTH;
  if (value.length > maxLength) {
    throw new QueryError(`${paramName} is ${value.length} characters long; the limit is ${maxLength}`, {
      field: paramName,
      code: 'limit_exceeded',
      position: maxLength,
    });
  }
  return value;
}
