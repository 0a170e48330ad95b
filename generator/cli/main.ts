/**
 * connector-codegen command line. Each command is a module in generator/cli/commands/ registered in COMMANDS.
 * Bad input gets located diagnostics and exit code 1; internal failures print one line (set
 * CONNECTOR_CODEGEN_DEBUG=1 for the stack).
 */
import { parseArgs } from 'node:util';
import { describeCommand } from './commands/describe.js';
import { diffCommand } from './commands/diff.js';
import { buildCommand } from './commands/build.js';
import { generateCommand } from './commands/generate.js';
import { mcpCommand } from './commands/mcp.js';
import { mockCommand } from './commands/mock.js';
import { openapiCommand } from './commands/openapi.js';
import { publishCommand } from './commands/publish.js';
import { releaseCommand } from './commands/release.js';
import type { Command, CommandContext, CommandIO } from './commands/types.js';
import { loadConfig, type ResolvedConfig } from '../config/config.js';
import { validateCommand } from './commands/validate.js';
import { formatDiagnostic, SpecError } from '../spec/diagnostics.js';

/** Every command, in the order --help lists them. To add one: write generator/cli/commands/<name>.ts, add it here. */
const COMMANDS: Command[] = [validateCommand, describeCommand, generateCommand, buildCommand, publishCommand, mockCommand, diffCommand, releaseCommand, openapiCommand, mcpCommand];

const SHARED_OPTIONS = {
  spec: { type: 'string' },
  config: { type: 'string' },
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
    '  --config FILE         Project config (default: the nearest connector-codegen.config.json up from here).',
    '  --spec DIR            Spec directory (default: the config\'s "spec", else spec).',
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
  // Arguments after `--` belong to the tool a pass-through command runs (npm for publish).
  const dashes = command.passThrough ? argv.indexOf('--') : -1;
  const own = dashes < 0 ? argv : argv.slice(0, dashes);
  const rest = dashes < 0 ? [] : argv.slice(dashes + 1);
  let parsed;
  try {
    parsed = parseArgs({ args: own.filter((a) => a !== name), allowPositionals: true, options: { ...SHARED_OPTIONS, ...command.options } });
  } catch (error) {
    io.stderr(`connector-codegen ${name}: ${(error as Error).message}\n\n${usage()}\n`);
    return 2;
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  let config: ResolvedConfig | undefined;
  const context: CommandContext = {
    rest,
    config: () =>
      (config ??= loadConfig(process.cwd(), {
        ...(typeof values.config === 'string' ? { config: values.config } : {}),
        ...(typeof values.spec === 'string' ? { spec: values.spec } : {}),
        ...(typeof values.out === 'string' ? { out: values.out } : {}),
      })),
  };
  try {
    return await command.run(values, parsed.positionals, io, context);
  } catch (error) {
    if (error instanceof SpecError) {
      for (const d of error.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
      const errors = error.diagnostics.filter((d) => d.severity === 'error').length;
      const inConfig = error.diagnostics.every((d) => d.code.startsWith('CFG'));
      io.stderr(`\n${errors} error${errors === 1 ? '' : 's'} in the ${inConfig ? 'config' : 'spec'}; nothing was written.\n`);
      return 1;
    }
    if (process.env.CONNECTOR_CODEGEN_DEBUG) throw error;
    io.stderr(`connector-codegen: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}
