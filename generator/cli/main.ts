/**
 * connector-codegen command line. Each command is a module in generator/cli/commands/ registered in COMMANDS.
 * Bad input gets located diagnostics and exit code 1; internal failures print one line (set
 * CONNECTOR_CODEGEN_DEBUG=1 for the stack).
 */
import { parseArgs } from 'node:util';
import { describeCommand } from './commands/describe.js';
import { diffCommand } from './commands/diff.js';
import { generateCommand } from './commands/generate.js';
import { mockCommand } from './commands/mock.js';
import { openapiCommand } from './commands/openapi.js';
import { releaseCommand } from './commands/release.js';
import type { Command, CommandIO } from './commands/types.js';
import { validateCommand } from './commands/validate.js';
import { formatDiagnostic, SpecError } from '../spec/diagnostics.js';

/** Every command, in the order --help lists them. To add one: write generator/cli/commands/<name>.ts, add it here. */
const COMMANDS: Command[] = [validateCommand, describeCommand, generateCommand, mockCommand, diffCommand, releaseCommand, openapiCommand];

const SHARED_OPTIONS = {
  spec: { type: 'string', default: 'spec' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function usage(): string {
  return [
    'Usage: connector-codegen <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.flatMap((c) => c.usage.map((line) => `  ${line}`)),
    '',
    'Options for every command:',
    '  --spec DIR            Spec directory (default: spec).',
    '  -h, --help            Show this help.',
  ].join('\n');
}

const processIO: CommandIO = { stdout: (t) => void process.stdout.write(t), stderr: (t) => void process.stderr.write(t) };

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CommandIO = processIO): Promise<number> {
  const name = argv.find((a) => !a.startsWith('-'));
  const command = COMMANDS.find((c) => c.name === name);
  if (!name || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(`${usage()}\n`);
    return name || argv.length ? 0 : 2;
  }
  if (!command) {
    io.stderr(`connector-codegen: unknown command '${name}'\n\n${usage()}\n`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({ args: argv.filter((a) => a !== name), allowPositionals: true, options: { ...SHARED_OPTIONS, ...command.options } });
  } catch (error) {
    io.stderr(`connector-codegen ${name}: ${(error as Error).message}\n\n${usage()}\n`);
    return 2;
  }
  try {
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (error) {
    if (error instanceof SpecError) {
      for (const d of error.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
      const errors = error.diagnostics.filter((d) => d.severity === 'error').length;
      io.stderr(`\n${errors} error${errors === 1 ? '' : 's'} in the spec; nothing was written.\n`);
      return 1;
    }
    if (process.env.CONNECTOR_CODEGEN_DEBUG) throw error;
    io.stderr(`connector-codegen: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
