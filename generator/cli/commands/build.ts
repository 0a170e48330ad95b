/** `connector-codegen build`: compile every generated package into dist/ (ESM + CommonJS, with types for both). */
import { displayPath } from '../../lib/display-path.js';
import type { Command } from './types.js';

/** The build command. */
export const buildCommand: Command = {
  name: 'build',
  summary: 'Compile the runtime and every connector package into dist/ (ESM and CommonJS, types for both).',
  description: 'Packages are built in dependency order (the runtime first) with one type-check; only packages whose sources changed are rebuilt.',
  options: { out: { type: 'string', value: 'DIR', description: 'Output directory (default: the config\'s "output", else generated).' } },
  examples: [
    { command: 'build', description: 'Build every package under generated/.' },
    { command: 'build --out sdk', description: 'Build the packages generated into sdk/.' },
  ],
  writes: true,
  async run(_values, _positionals, io, context) {
    const { buildPackages } = await import('../../release/build.js');
    const { outDir } = context.config();
    const built = await buildPackages(outDir);
    const changed = built.filter((p) => p.changed);
    for (const p of changed) io.stdout(`built ${p.name}@${p.version} (${displayPath(p.dir)}/dist)\n`);
    io.stdout(changed.length === 0 ? `all ${built.length} packages are up to date\n` : `${changed.length} of ${built.length} packages built${changed.length < built.length ? '; the others were up to date' : ''}\n`);
    return 0;
  },
};
