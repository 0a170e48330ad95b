/** `connector-codegen generate [--check] [--timings] [--out DIR]`: the main job. */
import path from 'node:path';
import { formatTimings, type Timings } from '../../lib/timings.js';
import { displayPath as displayDir } from '../../lib/display-path.js';
import type { Command } from './types.js';

/** The generate command. */
export const generateCommand: Command = {
  name: 'generate',
  usage: [
    'generate              Validate and regenerate everything under generated/.',
    '    --check           Write nothing; exit 1 and name each out-of-date file.',
    '    --timings         Print each phase\'s time.',
    '    --out DIR         Output directory (default: the config\'s "output", else generated).',
  ],
  options: {
    out: { type: 'string' },
    check: { type: 'boolean', default: false },
    timings: { type: 'boolean', default: false },
  },
  async run(values, _positionals, io, context) {
    // Imported here: a no-op run must not pay for loading yaml, ajv or TypeScript.
    const { generate } = await import('../../generate.js');
    const timings: Timings | undefined = values.timings ? [] : undefined;
    const config = context.config();
    const out = displayDir(config.outDir);
    const result = await generate({ specDir: config.specDir, outDir: config.outDir, config, check: Boolean(values.check), timings });
    if (timings) io.stderr(`${formatTimings(timings)}\n`);
    if (values.check) {
      if (result.outOfDate.length === 0) {
        io.stdout(`${out}/ is up to date (${result.fileCount} files)\n`);
        return 0;
      }
      io.stderr(`${out}/ is out of date; run npm run generate:\n${result.outOfDate.map((f) => `  ${f}`).join('\n')}\n`);
      return 1;
    }
    io.stdout(
      result.written || result.removed
        ? `generated ${result.fileCount} files into ${out}/ (${result.written} written, ${result.removed} removed)\n`
        : `${out}/ is up to date (${result.fileCount} files)\n`,
    );
    return 0;
  },
};
