/** `connector-codegen build`: compile every generated package into dist/ (ESM + CommonJS, with types for both). */
import { displayPath } from '../../lib/display-path.js';
import type { Command } from './types.js';

/** The build command. */
export const buildCommand: Command = {
  name: 'build',
  usage: [
    'build                 Compile the runtime and every connector package under the output directory into',
    '                      dist/ (ESM and CommonJS, types for both), in dependency order; only what changed.',
    '    --out DIR         Output directory (default: the config\'s "output", else generated).',
  ],
  options: { out: { type: 'string' } },
  async run(_values, positionals, io, context) {
    if (positionals.length) {
      io.stderr(`connector-codegen build: unexpected argument '${positionals[0]}'\n`);
      return 2;
    }
    const { buildPackages } = await import('../../release/build.js');
    const { outDir } = context.config();
    const built = await buildPackages(outDir);
    const changed = built.filter((p) => p.changed);
    for (const p of changed) io.stdout(`built ${p.name}@${p.version} (${displayPath(p.dir)}/dist)\n`);
    io.stdout(changed.length === 0 ? `all ${built.length} packages are up to date\n` : `${changed.length} of ${built.length} packages built${changed.length < built.length ? '; the others were up to date' : ''}\n`);
    return 0;
  },
};
