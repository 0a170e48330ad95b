/** `connector-codegen mock`: the local mock of the service, from the spec and deterministic fixtures. */
import path from 'node:path';
import type { Command } from './types.js';

function positiveInteger(value: unknown, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
  return n;
}

/** The mock command. */
export const mockCommand: Command = {
  name: 'mock',
  usage: [
    'mock                  Serve the service locally from the spec and deterministic fixtures.',
    '    --port N          Port (default 4010; 0 picks a free one).   --host H   Interface (default 127.0.0.1).',
    '    --token T         Accept only this bearer token (default: any non-empty token).',
    '    --seed N          Fixture seed (default 1).   --records N   Records per listable entity.',
    '    --quiet           Do not log requests.',
  ],
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    token: { type: 'string' },
    seed: { type: 'string', default: '1' },
    records: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
  async run(values, _positionals, io, context) {
    const port = positiveInteger(values.port, 'port')!;
    const seed = positiveInteger(values.seed, 'seed')!;
    const records = positiveInteger(values.records, 'records', 1);
    const [{ readSpec }, { startMock }] = await Promise.all([import('../../spec/read.js'), import('../../../mock/server.js')]);
    const { ir } = await readSpec(context.config().specDir);
    const server = await startMock({
      ir,
      port,
      host: String(values.host),
      seed,
      ...(records ? { records } : {}),
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
