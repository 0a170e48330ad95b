/** The MCP server's token scrubbing (its bin's messages and every tool result) follows the clients' rule. */
import { describe, expect, test } from 'vitest';
import { MIN_SECRET_LENGTH } from '@connector-sdk/runtime';
import { redactToken } from '@connector-sdk/mcp';

describe('redactToken', () => {
  test('a token of MIN_SECRET_LENGTH characters or more is scrubbed wherever it appears, inside words too', () => {
    const token = 'sk_live_0123456789';
    expect(token.length).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
    expect(redactToken(`Bearer ${token} in x${token}y`, token)).toBe('Bearer [REDACTED] in x[REDACTED]y');
  });

  test('a shorter test token leaves messages readable (it was cut out of every word: "la[REDACTED]-server")', () => {
    expect(redactToken('--base-url is not a URL: "latest-server"', 'test')).toBe('--base-url is not a URL: "latest-server"');
    expect(redactToken('the service and --max-chars', 'e')).toBe('the service and --max-chars');
    expect(redactToken('anything', undefined)).toBe('anything');
  });
});
