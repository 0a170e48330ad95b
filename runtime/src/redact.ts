/**
 * Token scrubbing. The bearer token must never leave the SDK inside an error or a log line, even when a server
 * echoes it back, so everything built from a response passes through here first.
 */
import type { FetchHeaders } from './options.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Response headers that carry credentials: dropped outright rather than scrubbed. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** The secrets of one call: every token resolved for any of its attempts (a token function may rotate). */
export class Secrets {
  readonly #values = new Set<string>();

  /** Remembers a token, and its URL-encoded form, which is how it would appear inside an echoed URL. */
  add(token: string): void {
    // An empty string would "match" between every character.
    if (token === '') return;
    this.#values.add(token);
    this.#values.add(encodeURIComponent(token));
  }

  /** `text` with every occurrence of every secret replaced by {@link REDACTED}. */
  text(text: string): string {
    let out = text;
    for (const secret of this.#values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A deep copy of a parsed JSON value with every string in it, keys included, scrubbed. */
  deep(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((item) => this.deep(item));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [this.text(key), this.deep(item)]));
    }
    return value;
  }

  /** Response headers as a plain object with lower-cased names, credential headers removed, values scrubbed. */
  headers(headers: FetchHeaders): Record<string, string> {
    const out: Record<string, string> = {};
    headers.forEach((value, name) => {
      const key = name.toLowerCase();
      if (!CREDENTIAL_HEADERS.has(key)) out[key] = this.text(value);
    });
    return out;
  }
}

/**
 * `text` with every token-shaped run replaced by {@link REDACTED}: 16 or more token characters with a digit or both
 * letter cases (API keys, JWTs, refresh tokens). For text whose secrets the client never saw, such as the error a
 * token function throws.
 */
export function redactTokenShaped(text: string): string {
  return text.replace(/[\w+/=.~-]{16,}/g, (run) => (/\d|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(run) ? REDACTED : run));
}
