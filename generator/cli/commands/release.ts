/** `connector-codegen release [--base REF]`: version and changelog every package the spec change reaches. */
import path from 'node:path';
import { displayPath as displayDir } from '../../lib/display-path.js';
import { UsageError } from '../args.js';
import type { Command } from './types.js';

/** The release command. */
export const releaseCommand: Command = {
  name: 'release',
  summary: 'Bump the version of each package whose spec changed, write its changelog, and regenerate.',
  description:
    'The semver bump of each package comes from the semantic diff against --base; the new versions and CHANGELOG\nentries are recorded in the project\'s release state (the config\'s "release", else release/ beside the config),\nwhich generate reads. Releasing the same spec twice changes nothing.',
  options: {
    base: { type: 'string', value: 'REF', default: 'HEAD', description: 'Git ref (or spec directory) of the last release.' },
    out: { type: 'string', value: 'DIR', description: 'Output directory to regenerate (default: the config\'s "output", else generated).' },
    'dry-run': { type: 'boolean', description: 'Print the plan; write nothing.' },
  },
  examples: [
    { command: 'release --dry-run', description: 'What would be bumped since HEAD, and why.' },
    { command: 'release --base v1.4.0', description: 'Release everything that changed since the tag v1.4.0.' },
  ],
  writes: (values) => !values['dry-run'],
  async run(values, _positionals, io, context) {
    const [{ release }, { generate }] = await Promise.all([import('../../release/release.js'), import('../../generate.js')]);
    const config = context.config();
    const { releaseDir } = config;
    const specDir = config.specDir;
    const dryRun = Boolean(values['dry-run']);
    const { SideUsageError } = await import('../../diff/sides.js');
    const plan = await release({ base: String(values.base), specDir, releaseDir, dryRun, diff: config.diff }).catch((error: unknown) => {
      // --base names no directory or ref: a mistake in the command line, as diff reports it (exit 2).
      throw error instanceof SideUsageError ? new UsageError(`option '--base': ${error.message}`, 'release') : error;
    });
    if (plan.length === 0) {
      io.stdout(`Nothing to release: no semantic change from ${values.base} to the working tree.\n`);
      return 0;
    }
    for (const p of plan) {
      const counts = `${p.changes.length} change${p.changes.length === 1 ? '' : 's'}`;
      const text = {
        bumped: `${p.connector}: ${p.from} → ${p.to} (${p.bump}; ${counts})`,
        new: `${p.connector}: new package at ${p.to}`,
        removed: `${p.connector}: removed at ${p.from}; its package is no longer generated (deprecate it on the registry)`,
        unchanged: `${p.connector}: already released as ${p.to} (spec unchanged since); skipped`,
      }[p.status];
      io.stdout(`${dryRun ? '[dry run] ' : ''}${text}\n`);
    }
    if (dryRun) return 0;
    const result = await generate({ specDir, outDir: config.outDir, config });
    io.stdout(`release state written to ${path.relative(process.cwd(), releaseDir) || '.'}/; regenerated ${displayDir(config.outDir)}/ (${result.written} written)\n`);
    return 0;
  },
};
