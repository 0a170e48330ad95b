/** `connector-codegen mock`: the local mock of the service, from the spec and deterministic fixtures. */
import path from 'node:path';
import { DEFAULT_MAX_SOURCES, MAX_RECORDS } from '../../../mock/limits.js';
import type { Command } from './types.js';

function positiveInteger(value: unknown, name: string, min = 0, max = Number.MAX_SAFE_INTEGER, why = ''): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  if (n > max) throw new Error(`--${name} must be at most ${max}${why}, got ${n}`);
  return n;
}


/** The mock command. */
export const mockCommand: Command = {
  name: 'mock',
  usage: [
    'mock                  Serve the service locally from the spec and deterministic fixtures.',
    '    --port N          Port (default 4010; 0 picks a free one).   --host H   Interface (default 127.0.0.1).',
    '    --token T         Accept only this bearer token (default: any non-empty token).',
    `    --seed N          Fixture seed (default 1).   --records N   Records per listable entity (1 to ${MAX_RECORDS}).`,
    `    --max-sources N   Sources that may be created (default ${DEFAULT_MAX_SOURCES}); beyond, source creation answers 429.`,
    '    --quiet           Do not log requests.   --debug   Also log debug lines (clients that went away mid-request).',
  ],
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    seed: { type: 'string', default: '1' },
    records: { type: 'string' },
    'max-sources': { type: 'string' },
    quiet: { type: 'boolean', default: false },
    debug: { type: 'boolean', default: false },
  },
  async run(values, _positionals, io, context) {
    const port = positiveInteger(values.port, 'port')!;
    const seed = positiveInteger(values.seed, 'seed')!;
    const records = positiveInteger(values.records, 'records', 1, MAX_RECORDS, ' (records per entity the mock computes on demand; a full scan reads them all)');
    const maxSources = positiveInteger(values['max-sources'], 'max-sources', 0);
    const [{ readSpec }, { startMock }] = await Promise.all([import('../../spec/read.js'), import('../../../mock/server.js')]);
    const { ir } = await readSpec(context.config().specDir);
    const server = await startMock({
      ir,
      port,
      host: String(values.host),
      seed,
      ...(records ? { records } : {}),
      ...(maxSources !== undefined ? { maxSources } : {}),
      ...(values.debug ? { debug: (line: string) => io.stdout(`debug: ${line}\n`) } : {}),
      ...(typeof values.token === 'string' ? { token: values.token } : {}),
      ...(values.quiet ? {} : { log: (line: string) => io.stdout(`${line}\n`) }),
    });
    io.stdout(`mock service listening on ${server.url}\nsources: ${server.sources.map((s) => s.id).join(', ')}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => void server.close().then(resolve);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
