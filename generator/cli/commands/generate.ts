/** `connector-codegen generate [--check] [--timings] [--out DIR]`: the main job. */
import { existsSync } from 'node:fs';
import { formatTimings, type Timings } from '../../lib/timings.js';
import { displayPath } from '../../lib/display-path.js';
import { firstNames } from '../../lib/first-names.js';
import type { Command, CommandContext, CommandIO, OptionValues } from './types.js';
import { UsageError } from '../args.js';
import { renderText, summaryLine } from '../report.js';
import { upToDateLine } from '../messages.js';
import { SpecDirError, SpecError } from '../../spec/diagnostics.js';

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
    watch: { type: 'boolean', short: 'w', description: 'Regenerate on every save of the spec or the config; stop with Ctrl-C.' },
  },
  examples: [
    { command: 'generate', description: 'Regenerate generated/ from spec/.' },
    { command: 'generate --check', description: 'In CI: fail when generated/ is not what the spec generates.' },
    { command: 'generate --spec ../api/spec --out sdk', description: 'Another spec, into sdk/.' },
    { command: 'generate --watch', description: 'Regenerate on every save; a spec that does not validate is reported and the output kept.' },
  ],
  writes: (values) => !values.check,
  async run(values, _positionals, io, context) {
    if (values.watch && values.check) throw new UsageError("--watch and --check do not go together: --check writes nothing, --watch keeps writing", 'generate');
    // Imported here: a no-op run must not pay for loading yaml, ajv or TypeScript.
    const { generate } = await import('../../generate.js');
    if (values.watch) return watchGenerate(generate, io, context);
    const timings: Timings | undefined = values.timings ? [] : undefined;
    const config = context.config();
    const out = displayPath(config.outDir);
    const onLockWait = (notice: string) => io.stderr(`connector-codegen generate: ${notice}\n`);
    const started = performance.now();
    const result = await generate({ specDir: config.specDir, outDir: config.outDir, config, check: Boolean(values.check), timings, onLockWait });
    if (timings) io.stderr(`${formatTimings(timings, performance.now() - started)}\n`);
    if (values.check) {
      if (result.outOfDate.length === 0) {
        io.stdout(upToDateLine(out, result.fileCount));
        return 0;
      }
      // Files generate did not write are the user's to move: regenerating never clears them, so no command is offered for them.
      const foreign = new Set(result.foreign ?? []);
      const stale = result.outOfDate.filter((f) => !foreign.has(f));
      if (stale.length) io.stderr(`${out}/ is out of date (${stale.length} file${stale.length === 1 ? '' : 's'}); to regenerate it, run: ${fixCommand(values)}\n${stale.map((f) => `  ${f}`).join('\n')}\n`);
      if (foreign.size) io.stderr(`${out}/ holds ${foreign.size} file${foreign.size === 1 ? '' : 's'} generate did not write (not in ${out}/.codegen-files); generate never removes them: move them out of the output\n${[...foreign].map((f) => `  ${f}`).join('\n')}\n`);
      return 1;
    }
    io.stdout(
      result.written || result.removed
        ? `generated ${result.fileCount} files into ${out}/ (${result.written} written, ${result.removed} removed)\n`
        : upToDateLine(out, result.fileCount),
    );
    if (result.foreign?.length) io.stderr(`connector-codegen generate: ${foreignNote(out, result.foreign)}\n`);
    return 0;
  },
};

/** What to do about files in the output that generate did not write: it keeps them, and --check reports them. */
function foreignNote(out: string, foreign: readonly string[]): string {
  return `kept ${foreign.length} file${foreign.length === 1 ? '' : 's'} generate did not write (not in ${out}/.codegen-files): ${firstNames(foreign)}. generate never removes them; move them out of the output, where --check stops reporting them.`;
}

/** `generate --watch`: one run now, one per save after; bad specs are reported and the output kept. */
async function watchGenerate(generate: typeof import('../../generate.js').generate, io: CommandIO, context: CommandContext): Promise<number> {
  const { watchAndRun } = await import('../watch.js');
  const config = context.config();
  const out = displayPath(config.outDir);
  const style = { color: io.color ?? false, frames: io.pretty ?? false };
  const time = () => new Date().toTimeString().slice(0, 8);
  io.stdout(`watching ${displayPath(config.specDir)}/${config.file ? ` and ${displayPath(config.file)}` : ''}; Ctrl-C stops\n`);
  await watchAndRun({
    // The release state too: `release` (or a hand edit) changes the packages' versions and changelogs.
    targets: [config.specDir, ...(config.file ? [config.file] : []), ...(existsSync(config.releaseDir) ? [{ dir: config.releaseDir, names: /\.(json|md)$/ }] : [])],
    log: (line) => io.stderr(`${line}\n`),
    run: async (changed) => {
      const cause = changed.length ? ` (${changed.map(displayPath).join(', ')} changed)` : '';
      const started = performance.now();
      try {
        const current = changed.length ? context.config({ reload: true }) : config;
        const result = await generate({ specDir: current.specDir, outDir: current.outDir, config: current, onLockWait: (notice) => io.stderr(`[${time()}] ${notice}\n`) });
        const ms = (performance.now() - started).toFixed(0);
        io.stdout(
          result.written || result.removed
            ? `[${time()}] generated ${out}/: ${result.written} written, ${result.removed} removed, ${result.fileCount} files, ${ms} ms${cause}\n`
            : `[${time()}] ${out}/ is up to date (${result.fileCount} files)${cause}\n`,
        );
      } catch (error) {
        if (error instanceof SpecError) {
          io.stderr(renderText(error.diagnostics, style, error.sources));
          const where = error.diagnostics.every((d) => d.code.startsWith('CFG')) ? 'config' : 'spec';
          io.stderr(`[${time()}] ${summaryLine(error.diagnostics, where, 'nothing')} Waiting for the next save.${cause}\n`);
        } else if (error instanceof SpecDirError) {
          io.stderr(`[${time()}] ${error.message}; waiting for it to come back\n`);
        } else throw error;
      }
    },
  });
  return 0;
}
