/**
 * `connector-codegen diff <base> [<head>]`: what a spec change does to clients, classified and located.
 * Exit codes tell CI what happened: 0 nothing at or above --fail-on, 1 the threshold was reached, 2 a usage
 * error (bad option, a side that is neither a directory nor a git ref, a broken config), 3 a side is not a valid
 * spec (its diagnostics printed, naming the side), 70 an internal error.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command, CommandIO } from './types.js';

const FORMATS = ['text', 'markdown', 'json', 'github'] as const;
const FAIL_ON = ['breaking', 'warning', 'non-breaking'] as const;

/** Exit codes of `diff` (documented in the README and --help). */
export const DIFF_EXIT = { ok: 0, threshold: 1, usage: 2, invalidSpec: 3, internal: 70 } as const;

/** The diff command. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'Compare two specs semantically: each change with its check id, severity and location.',
  args: '<base> [<head>]',
  description:
    'Each side is a spec directory or a git ref; <head> defaults to the working tree (--spec). Narrowing what requests\nmay carry, or widening what responses may carry, breaks clients. Config: diff.severity overrides severities per\ncheck id; diff.deprecation (released, any, off).\nExit: 0 below --fail-on, 1 at or above it, 2 usage error, 3 a side is not a valid spec, 70 internal error.',
  options: {
    format: { type: 'string', value: 'F', default: 'text', choices: FORMATS, description: 'text, markdown (a PR comment), json (generator/diff/diff-output.schema.json)\nor github (workflow annotations).' },
    'fail-on': { type: 'string', value: 'S', choices: FAIL_ON, description: 'Exit 1 when a change is at or above S: breaking, warning or non-breaking (any change).' },
    'list-checks': { type: 'boolean', alone: true, description: 'Print every check id with its severity, bump and why (Markdown) and exit.' },
  },
  examples: [
    { command: 'diff origin/main', description: "This branch's spec against main's." },
    { command: 'diff HEAD --format markdown --fail-on breaking', description: 'A PR comment; exit 1 if anything breaks.' },
  ],
  async run(values, positionals, io, context) {
    if (values['list-checks']) {
      const { checksMarkdown } = await import('../../diff/checks.js');
      io.stdout(checksMarkdown());
      return DIFF_EXIT.ok;
    }
    const format = String(values.format);
    const failOn = values['fail-on'] === undefined ? undefined : String(values['fail-on']);
    if (!(FORMATS as readonly string[]).includes(format)) return usageError(io, `--format must be one of ${FORMATS.join(', ')}, not '${format}'`);
    if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) return usageError(io, `--fail-on must be one of ${FAIL_ON.join(', ')}, not '${failOn}'`);
    if (positionals.length < 1 || positionals.length > 2) return usageError(io, 'give a base (spec directory or git ref) and optionally a head');

    const [{ runDiff }, formats, sides, diagnostics] = await Promise.all([
      import('../../diff/run.js'),
      import('../../diff/formats.js'),
      import('../../diff/sides.js'),
      import('../../spec/diagnostics.js'),
    ]);
    let config;
    try {
      config = context.config();
    } catch (error) {
      if (!(error instanceof diagnostics.SpecError)) throw error;
      for (const d of error.diagnostics) io.stderr(`${diagnostics.formatDiagnostic(d)}\n`);
      return usageError(io, 'the config is not valid (see above)');
    }
    let result;
    try {
      result = await runDiff({ base: positionals[0]!, head: positionals[1], specDir: config.specDir, packages: config.packages, releaseDir: config.releaseDir, severity: config.diff.severity, deprecation: config.diff.deprecation });
    } catch (error) {
      if (error instanceof sides.SideUsageError) return usageError(io, error.message);
      if (error instanceof sides.InvalidSidesError) {
        for (const side of error.sides) {
          const errors = side.error.diagnostics.filter((d) => d.severity === 'error').length;
          io.stderr(`connector-codegen diff: the ${side.role} side (${side.label}) is not a valid spec: ${errors} error${errors === 1 ? '' : 's'}\n`);
          for (const d of side.error.diagnostics) io.stderr(`${diagnostics.formatDiagnostic(d)}\n`);
          // A workflow shows the spec's errors on the pull request, as validate --format github does.
          if (format === 'github') io.stdout((await import('../report.js')).renderGithub(side.error.diagnostics));
        }
        return DIFF_EXIT.invalidSpec;
      }
      if (process.env.CONNECTOR_CODEGEN_DEBUG) throw error;
      io.stderr(`connector-codegen diff: internal error: ${(error as Error).message ?? String(error)}\n`);
      return DIFF_EXIT.internal;
    }
    // Annotations name files as the workflow's checkout has them: a spec at api/spec is not at spec/ (the locations'
    // spec paths start with the spec directory's name). The head side in the working tree only: a ref's paths stay.
    const headDir = positionals[1] === undefined ? config.specDir : existsSync(positionals[1]) ? path.resolve(positionals[1]) : undefined;
    const shown = headDir && path.relative(process.cwd(), headDir);
    const name = headDir && `${path.basename(headDir)}/`;
    const fileOf = shown && name && !shown.startsWith('..') && `${shown}/` !== name ? (file: string) => (file.startsWith(name) ? `${shown}/${file.slice(name.length)}` : file) : undefined;
    io.stdout(formats.render(result, format as (typeof FORMATS)[number], fileOf));
    if (failOn === undefined) return DIFF_EXIT.ok;
    const rank = FAIL_ON.indexOf(failOn as (typeof FAIL_ON)[number]);
    const failing = result.changes.filter((c) => FAIL_ON.indexOf(c.severity) <= rank);
    if (failing.length === 0) return DIFF_EXIT.ok;
    io.stderr(`connector-codegen diff: ${failing.length} change${failing.length === 1 ? '' : 's'} at or above --fail-on ${failOn}\n`);
    return DIFF_EXIT.threshold;
  },
};

function usageError(io: CommandIO, message: string): number {
  io.stderr(`connector-codegen diff: ${message}\n`);
  return DIFF_EXIT.usage;
}
