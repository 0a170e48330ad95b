/** `connector-codegen publish`: build what is stale, then publish the runtime and every connector package. */
import type { Command } from './types.js';

/** The publish command. */
export const publishCommand: Command = {
  name: 'publish',
  usage: [
    'publish [-- NPM_FLAGS] Build what is stale, then npm publish the runtime and each connector package (skipping',
    '                      versions already on the registry). Auth and settings come from your npm config.',
    '    --registry URL    Registry (default: the config\'s packages.registry, else npm\'s configured one).',
    '    --tag T           dist-tag (default: latest).   --access public|restricted   --otp CODE   --provenance',
    '    --dry-run         Build and check every package; publish nothing.',
    '    --out DIR         Output directory (default: the config\'s "output", else generated).',
  ],
  options: {
    out: { type: 'string' },
    registry: { type: 'string' },
    tag: { type: 'string' },
    access: { type: 'string' },
    otp: { type: 'string' },
    provenance: { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
  },
  passThrough: true,
  async run(values, positionals, io, context) {
    if (positionals.length) {
      io.stderr(`connector-codegen publish: unexpected argument '${positionals[0]}' (npm flags go after --)\n`);
      return 2;
    }
    if (values.access !== undefined && values.access !== 'public' && values.access !== 'restricted') {
      io.stderr(`connector-codegen publish: --access must be public or restricted, not '${String(values.access)}'\n`);
      return 2;
    }
    const { publishPackages } = await import('../../release/publish.js');
    const config = context.config();
    const npmArgs = [
      ...(typeof values.access === 'string' ? ['--access', values.access] : []),
      ...(typeof values.otp === 'string' ? ['--otp', values.otp] : []),
      ...(values.provenance ? ['--provenance'] : []),
      ...context.rest,
    ];
    const registry = typeof values.registry === 'string' ? values.registry : config.packages.registry;
    const outcomes = await publishPackages({
      outDir: config.outDir,
      ...(registry ? { registry } : {}),
      ...(typeof values.tag === 'string' ? { tag: values.tag } : {}),
      dryRun: Boolean(values['dry-run']),
      npmArgs,
      log: (line) => io.stdout(`${line}\n`),
    });
    const count = (status: string) => outcomes.filter((o) => o.status === status).length;
    io.stdout(
      values['dry-run']
        ? `dry run: ${count('would-publish')} package(s) would be published, ${count('skipped')} already on the registry\n`
        : count('published')
          ? `published ${count('published')} package(s); ${count('skipped')} already on the registry\n`
          : `nothing to publish: all ${outcomes.length} packages are already on the registry at these versions\n`,
    );
    return 0;
  },
};
