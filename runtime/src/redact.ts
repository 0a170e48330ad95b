/**
 * Token scrubbing. The bearer token (of MIN_SECRET_LENGTH characters or more) must never leave the SDK inside an
 * error or a log line, even when a server echoes it back, so everything built from a response passes through here
 * first. A call keeps its secrets in a plain list: every token resolved for any of its attempts (a token function may
 * rotate), each also URL-encoded.
 */
import type { FetchHeaders } from './options.js';

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

/** Response headers that carry credentials: dropped outright rather than scrubbed. */
const CREDENTIAL_HEADERS = /^((proxy-)?authorization|(set-)?cookie)$/;

/**
 * The shortest token that is scrubbed. Shorter ones are the tokens of tests and of the local mock (`any`, `test`),
 * not credentials a service issues: scrubbed as text, they would be cut out of every word that holds them ("a
 * comp[REDACTED] record", "[REDACTED]ype must be integer" for a token `t`), leaving errors and logs unreadable. An
 * empty one would "match" between every character.
 */
export const MIN_SECRET_LENGTH = 8;

/**
 * Remembers a token, and its URL-encoded form, which is how it would appear inside an echoed URL; one shorter than
 * {@link MIN_SECRET_LENGTH} characters is not remembered.
 */
export function addSecret(secrets: string[], token: string): void {
  if (token.length >= MIN_SECRET_LENGTH && !secrets.includes(token)) secrets.push(token, encodeURIComponent(token));
}

/** `text` with every occurrence of every secret replaced by {@link REDACTED}. */
export function redact(text: string, secrets: readonly string[]): string {
  for (const secret of secrets) text = text.replaceAll(secret, REDACTED);
  return text;
}

/** A deep copy of a parsed JSON value with every string in it, keys included, scrubbed. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  return typeof value === 'string'
    ? redact(value, secrets)
    : value && typeof value === 'object'
      ? Array.isArray(value)
        ? value.map((item) => redactDeep(item, secrets))
        : Object.fromEntries(
            Object.entries(value).map(([key, item]) => [redact(key, secrets), redactDeep(item, secrets)]),
          )
      : value;
}

/** Response headers as a plain object with lower-cased names, credential headers removed, values scrubbed. */
export function redactHeaders(headers: FetchHeaders, secrets: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    name = name.toLowerCase();
    if (!CREDENTIAL_HEADERS.test(name)) out[name] = redact(value, secrets);
  });
  return out;
}

/**
 * `text` with every token-shaped run replaced by {@link REDACTED}: 16 or more token characters with a digit or both
 * letter cases (API keys, JWTs, refresh tokens). For text whose secrets the client never saw, such as the error a
 * token function throws.
 */
export const redactTokenShaped = (text: string): string =>
  text.replace(/[\w+/=.~-]{16,}/g, (run) => (/\d|[a-z].*[A-Z]|[A-Z].*[a-z]/.test(run) ? REDACTED : run));
