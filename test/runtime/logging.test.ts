/**
 * Log lines: the `logLevel` option, the CONNECTOR_SDK_LOG environment variable, the default logger (console), and
 * what a line says at each level — connector, entity, action, status, attempt, time, request id; param names at
 * debug, never their values, never the token.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { LOG_LEVEL_ENV, type CallDescriptor, type ClientOptions, type LogLevel } from '../../runtime/src/index.js';
import { SERVICE, TestClient, TOKEN, fakeFetch, json, options, rejection } from './helpers.js';

const get: CallDescriptor = { entity: 'customers', action: 'get' };
const service = { ...SERVICE, requestIdHeader: 'x-request-id' };

/** One call of each outcome: a retried 503 then success, a 404, a write failing with 500 (not retried). No `logLevel` in `extra`: none set. */
async function scenario(extra: Partial<ClientOptions>): Promise<[string, string][]> {
  const lines: [string, string][] = [];
  const logger = Object.fromEntries(['error', 'warn', 'info', 'debug'].map((level) => [level, (line: string) => void lines.push([level, line])]));
  let n = 0;
  const { fetch } = fakeFetch((request) => {
    const status = request.body.action === 'create' ? 500 : request.body.params?.['id'] === 'missing' ? 404 : n++ === 0 ? 503 : 200;
    return json(status === 200 ? { result: { id: 'cus_1' } } : { message: `failed for ${TOKEN}` }, status, { 'x-request-id': `req_${status}` });
  });
  const { logLevel: _, ...unset } = options(fetch, { logger, ...extra });
  const client = new TestClient(extra.logLevel ? { ...unset, logLevel: extra.logLevel } : unset, service, 'payments');
  await client.single(get, { id: 'cus_1', email: 'ada@example.com' });
  await rejection(client.single(get, { id: 'missing' }));
  await rejection(client.single({ entity: 'customers', action: 'create' }, { email: 'ada@example.com' }));
  return lines;
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('logLevel', () => {
  test('debug: every attempt, with the param names but never their values', async () => {
    expect(await scenario({ logLevel: 'debug' })).toEqual([
      ['warn', expect.stringMatching(/^payments customers get 503 attempt 1\/3 \d+ms request-id req_503 params id,email; retrying in \d+ms$/)],
      ['info', expect.stringMatching(/^payments customers get 200 attempt 2\/3 \d+ms request-id req_200 params id,email$/)],
      ['info', expect.stringMatching(/^payments customers get 404 attempt 1\/3 \d+ms request-id req_404 params id$/)],
      ['error', expect.stringMatching(/^payments customers create 500 attempt 1\/1 \d+ms request-id req_500 params email$/)],
    ]);
    const text = (await scenario({ logLevel: 'debug' })).join('\n');
    expect(text).not.toContain('ada@example.com');
    expect(text).not.toContain('cus_1');
    expect(text).not.toContain(TOKEN);
  });

  test.each<[LogLevel, string[]]>([
    ['info', ['warn', 'info', 'info', 'error']],
    ['warn', ['warn', 'error']],
    ['error', ['error']],
    ['off', []],
  ])('%s writes the lines of its level and the levels before it', async (logLevel, levels) => {
    const lines = await scenario({ logLevel });
    expect(lines.map(([level]) => level)).toEqual(levels);
    // Param names are for debug only.
    expect(lines.join('\n')).not.toContain('params');
  });

  test('the default is warn, written to console', async () => {
    vi.stubEnv(LOG_LEVEL_ENV, '');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const { fetch } = fakeFetch((_, i) => json({}, i === 0 ? 503 : 200));
    const { logLevel: _, ...noLevel } = options(fetch);
    await new TestClient(noLevel, service, 'payments').single(get, {});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^payments customers get 503 attempt 1\/3/);
    expect(info).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
  });

  test('a logger without a level method drops that level', async () => {
    const lines: string[] = [];
    const { fetch } = fakeFetch((_, i) => json({}, i === 0 ? 503 : 200));
    await new TestClient(options(fetch, { logLevel: 'debug', logger: { warn: (line) => lines.push(line) } }), service).single(get, {});
    expect(lines).toHaveLength(1);
  });
});

describe(`the ${LOG_LEVEL_ENV} environment variable`, () => {
  test('sets the level when the option does not; the option wins; case does not matter', async () => {
    expect(LOG_LEVEL_ENV).toBe('CONNECTOR_SDK_LOG');
    const levelsWith = async (env: string, extra: Partial<ClientOptions> = {}) => {
      vi.stubEnv(LOG_LEVEL_ENV, env);
      return (await scenario(extra)).map(([level]) => level);
    };
    expect(await levelsWith('info')).toEqual(['warn', 'info', 'info', 'error']);
    expect(await levelsWith('ERROR')).toEqual(['error']);
    expect(await levelsWith('off')).toEqual([]);
    expect(await levelsWith('debug', { logLevel: 'off' })).toEqual([]);
    // An unknown value falls back to the default (warn).
    expect(await levelsWith('loud')).toEqual(['warn', 'error']);
  });
});
