/** `connector-codegen mock`: the local mock of the service, from the spec and deterministic fixtures. */
import { DEFAULT_MAX_SOURCES, MAX_RECORDS } from '../../../mock/limits.js';
import type { Command } from './types.js';
import { UsageError } from '../args.js';

function integer(value: unknown, name: string, min = 0, max = Number.MAX_SAFE_INTEGER, why = ''): number | undefined {
  if (value === undefined) return undefined;
  // Decimal digits only: Number('') is 0, Number('0x10') 16, Number('1e3') 1000.
  const n = /^-?\d+$/.test(String(value).trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min) throw new UsageError(`option '--${name}' must be an integer ≥ ${min}, not '${String(value)}'`, 'mock');
  if (n > max) throw new UsageError(`option '--${name}' must be at most ${max}${why}, not ${n}`, 'mock');
  return n;
}


/** The mock command. */
export const mockCommand: Command = {
  name: 'mock',
  summary: 'Serve the service locally from the spec and deterministic fixtures.',
  description: 'One ready source per connector (its id is the connector id). Stops on Ctrl-C (SIGINT) or SIGTERM.',
  options: {
    port: { type: 'string', value: 'N', default: '4010', description: 'Port (0 picks a free one).' },
    host: { type: 'string', value: 'HOST', default: '127.0.0.1', description: 'Interface to listen on.' },
    token: { type: 'string', value: 'T', description: 'Accept only this bearer token (default: any non-empty token).' },
    seed: { type: 'string', value: 'N', default: '1', description: 'Fixture seed.' },
    records: { type: 'string', value: 'N', description: `Records per listable entity (1 to ${MAX_RECORDS}).` },
    'max-sources': { type: 'string', value: 'N', description: `Sources that may be created (default ${DEFAULT_MAX_SOURCES}); beyond, source creation answers 429.` },
    quiet: { type: 'boolean', description: 'Do not log requests.' },
    debug: { type: 'boolean', description: 'Also log debug lines (clients that went away mid-request).' },
  },
  examples: [
    { command: 'mock --port 4010', description: 'Serve every connector on http://127.0.0.1:4010.' },
    { command: 'mock --port 0 --token secret --seed 7 --quiet', description: 'A free port, one accepted token, other fixtures, no request log.' },
  ],
  async run(values, _positionals, io, context) {
    const port = integer(values.port, 'port', 0, 65535, ' (a TCP port)')!;
    const seed = integer(values.seed, 'seed')!;
    const records = integer(values.records, 'records', 1, MAX_RECORDS, ' (records per entity the mock computes on demand; a full scan reads them all)');
    const maxSources = integer(values['max-sources'], 'max-sources', 0);
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
