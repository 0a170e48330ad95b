/** `connector-codegen generate [--check] [--timings] [--out DIR]`: the main job. */
import { formatTimings, type Timings } from '../../lib/timings.js';
import { displayPath } from '../../lib/display-path.js';
import type { Command, OptionValues } from './types.js';

/** The command line that regenerates what --check found out of date: the same config, spec and output. */
function fixCommand(values: OptionValues): string {
  const flags = ['config', 'spec', 'out'].flatMap((name) => (typeof values[name] === 'string' ? [`--${name} ${quote(values[name] as string)}`] : []));
  return ['npx connector-codegen generate', ...flags].join(' ');
}

function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/** The generate command. */
export const generateCommand: Command = {
  name: 'generate',
  summary: 'Validate the spec and regenerate the output directory (packages, docs, fixtures, OpenAPI, tests).',
  description:
    'Only files whose content changed are written and stale files are removed; the output directory is replaced\nas a whole or not at all. A run with nothing to do stops after hashing its inputs and outputs.',
  options: {
    out: { type: 'string', value: 'DIR', description: 'Output directory (default: the config\'s "output", else generated).' },
    check: { type: 'boolean', description: 'Write nothing; exit 1 and name each out-of-date or unknown file.' },
    timings: { type: 'boolean', description: "Print each phase's time." },
  },
  examples: [
    { command: 'generate', description: 'Regenerate generated/ from spec/.' },
    { command: 'generate --check', description: 'In CI: fail when generated/ is not what the spec generates.' },
    { command: 'generate --spec ../api/spec --out sdk', description: 'Another spec, into sdk/.' },
  ],
  writes: (values) => !values.check,
  async run(values, _positionals, io, context) {
    // Imported here: a no-op run must not pay for loading yaml, ajv or TypeScript.
    const { generate } = await import('../../generate.js');
    const timings: Timings | undefined = values.timings ? [] : undefined;
    const config = context.config();
    const out = displayPath(config.outDir);
    const result = await generate({ specDir: config.specDir, outDir: config.outDir, config, check: Boolean(values.check), timings });
    if (timings) io.stderr(`${formatTimings(timings)}\n`);
    if (values.check) {
      if (result.outOfDate.length === 0) {
        io.stdout(`${out}/ is up to date (${result.fileCount} files)\n`);
        return 0;
      }
      io.stderr(`${out}/ is out of date (${result.outOfDate.length} file${result.outOfDate.length === 1 ? '' : 's'}); to regenerate it, run: ${fixCommand(values)}\n${result.outOfDate.map((f) => `  ${f}`).join('\n')}\n`);
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
