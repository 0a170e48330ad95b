/** `connector-codegen diff <base> [<head>]`: what a spec change does to clients, classified and located. */
import path from 'node:path';
import type { Command } from './types.js';

const FORMATS = ['text', 'markdown', 'json', 'github'] as const;
const FAIL_ON = ['breaking', 'warning'] as const;

/** The diff command. */
export const diffCommand: Command = {
  name: 'diff',
  usage: [
    'diff <base> [<head>]  Compare two specs semantically; each side a spec directory or a git ref',
    '                      (head defaults to --spec, the working tree). Each change: check id, severity, location.',
    '    --format F        text (default), markdown (a PR comment), json (schema: generator/diff/diff-output.schema.json),',
    '                      github (workflow annotations).',
    '    --fail-on S       Exit 1 when a change is breaking (S=breaking) or breaking or a warning (S=warning).',
    '    --list-checks     Print every check id with its severity and bump (Markdown) and exit.',
  ],
  options: {
    format: { type: 'string', default: 'text' },
    'fail-on': { type: 'string' },
    'list-checks': { type: 'boolean', default: false },
  },
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
    if (positionals.length < 1 || positionals.length > 2) return usageError(io, 'give a base (spec directory or git ref) and optionally a head');

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
