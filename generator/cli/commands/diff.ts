/** `connector-codegen diff <base> [<head>]`: what a spec change does to clients, classified and located. */
import type { Command } from './types.js';

const FORMATS = ['text', 'markdown', 'json', 'github'] as const;
const FAIL_ON = ['breaking', 'warning'] as const;

/** The diff command. */
export const diffCommand: Command = {
  name: 'diff',
  summary: 'Compare two specs semantically: each change with its check id, severity and location.',
  args: '<base> [<head>]',
  description:
    'Each side is a spec directory or a git ref; <head> defaults to the working tree (--spec). Narrowing what requests\nmay carry, or widening what responses may carry, breaks clients.',
  options: {
    format: { type: 'string', value: 'F', default: 'text', choices: FORMATS, description: 'text, markdown (a PR comment), json (generator/diff/diff-output.schema.json)\nor github (workflow annotations).' },
    'fail-on': { type: 'string', value: 'S', choices: FAIL_ON, description: 'Exit 1 when a change is breaking (breaking), or breaking or a warning (warning).' },
    'list-checks': { type: 'boolean', alone: true, description: 'Print every check id with its severity and bump (Markdown) and exit.' },
  },
  examples: [
    { command: 'diff origin/main', description: "This branch's spec against main's." },
    { command: 'diff HEAD --format markdown --fail-on breaking', description: 'A PR comment; exit 1 if anything breaks.' },
  ],
  async run(values, positionals, io, context) {
    if (values['list-checks']) {
      const { checksMarkdown } = await import('../../diff/checks.js');
      io.stdout(checksMarkdown());
      return 0;
    }
    const format = String(values.format);
    const failOn = values['fail-on'] === undefined ? undefined : String(values['fail-on']);
    if (!(FORMATS as readonly string[]).includes(format)) return usageError(io, `--format must be one of ${FORMATS.join(', ')}, not '${format}'`);
    if (failOn !== undefined && !(FAIL_ON as readonly string[]).includes(failOn)) return usageError(io, `--fail-on must be breaking or warning, not '${failOn}'`);

    const [{ runDiff }, formats] = await Promise.all([import('../../diff/run.js'), import('../../diff/formats.js')]);
    const config = context.config();
    const result = await runDiff({ base: positionals[0]!, head: positionals[1], specDir: config.specDir, packages: config.packages });
    io.stdout(formats.render(result, format as (typeof FORMATS)[number]));
    const failing = failOn === undefined ? [] : result.changes.filter((c) => c.severity === 'breaking' || (failOn === 'warning' && c.severity === 'warning'));
    if (failing.length) {
      io.stderr(`connector-codegen diff: ${failing.length} change${failing.length === 1 ? '' : 's'} at or above --fail-on ${failOn}\n`);
      return 1;
    }
    return 0;
  },
};

function usageError(io: { stderr: (t: string) => void }, message: string): number {
  io.stderr(`connector-codegen diff: ${message}\n`);
  return 2;
}
