/** `connector-codegen publish`: regenerate and build what is stale, then publish the runtime and every connector package. */
import { UsageError } from '../args.js';
import type { Command } from './types.js';

/**
 * `--registry` as npm needs it: an absolute http(s) URL. npm takes anything else without a word and falls back to
 * another registry (the package's publishConfig, else the public one), so a typo could publish a private SDK publicly.
 */
export function checkRegistry(value: string): string {
  const protocol = URL.canParse(value) ? new URL(value).protocol : undefined;
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new UsageError(`option '--registry' must be an absolute http(s) URL such as https://npm.acme.dev/, not '${value}'`, 'publish');
  }
  return value;
}

/** The publish command. */
export const publishCommand: Command = {
  name: 'publish',
  summary: 'Regenerate and build what is stale, then npm publish the runtime and every connector package.',
  description:
    'Versions already on the registry with the same files are skipped, so a second run publishes nothing; one with other\nfiles fails (raise its version with `release`). Auth, proxies and scoped registries come from your npm config, as\nfor `npm publish`; arguments after -- go to npm unchanged.',
  options: {
    out: { type: 'string', value: 'DIR', description: 'Output directory (default: the config\'s "output", else generated).' },
    registry: { type: 'string', value: 'URL', description: "Registry (default: the config's packages.registry, else npm's)." },
    tag: { type: 'string', value: 'TAG', description: 'dist-tag (default: latest).' },
    access: { type: 'string', value: 'ACCESS', choices: ['public', 'restricted'], description: 'npm access of scoped packages.' },
    otp: { type: 'string', value: 'CODE', description: 'One-time password for registries with 2FA.' },
    provenance: { type: 'boolean', description: 'Publish with provenance statements (npm --provenance).' },
    'dry-run': { type: 'boolean', description: 'Build and check every package; publish nothing.' },
  },
  passThrough: true,
  examples: [
    { command: 'publish --registry https://npm.acme.dev/', description: 'Publish every package that is not yet on that registry.' },
    { command: 'publish --dry-run', description: 'Check every package; publish nothing.' },
    { command: 'publish --tag next --otp 123456 -- --provenance', description: 'npm flags after -- pass through.' },
  ],
  writes: true,
  async run(values, _positionals, io, context) {
    const [{ publishPackages }, { generate }, { displayPath }] = await Promise.all([import('../../release/publish.js'), import('../../generate.js'), import('../../lib/display-path.js')]);
    const config = context.config();
    const registry = typeof values.registry === 'string' ? checkRegistry(values.registry) : config.packages.registry;
    // What is published is what the spec and config generate now (a new scope, a spec edit): regenerated first when the
    // output is behind them, as build brings dist/ up to date; an output up to date costs a hash of the inputs.
    const regenerated = await generate({ specDir: config.specDir, outDir: config.outDir, config, onLockWait: (notice) => io.stderr(`connector-codegen publish: ${notice}\n`) });
    if (regenerated.written || regenerated.removed) {
      io.stdout(`regenerated ${displayPath(config.outDir)}/ from the spec and config first (${regenerated.written} written, ${regenerated.removed} removed)\n`);
    }
    const npmArgs = [
      ...(typeof values.access === 'string' ? ['--access', values.access] : []),
      ...(typeof values.otp === 'string' ? ['--otp', values.otp] : []),
      ...(values.provenance ? ['--provenance'] : []),
      ...context.rest,
    ];
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
