/**
 * connector-codegen command line. Each command is a module in generator/cli/commands/ (listed in commands/index.ts)
 * that declares its arguments, options and examples; this file parses the command line against them, prints help,
 * and turns failures into exit codes: 0 success, 1 a problem in the input (located diagnostics, or one line), 2 a
 * mistake in the command line (one line with a did-you-mean). A bug prints one line too (set
 * CONNECTOR_CODEGEN_DEBUG=1 for the stack).
 */
import { readFileSync } from 'node:fs';
import { parseCommandLine, UsageError } from './args.js';
import { COMMANDS } from './commands/index.js';
import type { CommandContext, CommandIO } from './commands/types.js';
import { commandHelp, globalHelp } from './help.js';
import { renderText, summaryLine } from './report.js';
import { detectStyle } from './style.js';
import { SpecDirError, SpecError } from '../spec/diagnostics.js';
import { forgetShownPaths } from '../lib/display-path.js';
import { systemErrorMessage } from './system-errors.js';
import { isTerminal, outputTo } from '../lib/fd-output.cjs';
// Every command but --help and --version reads the config: loaded with this module.
import type { ResolvedConfig } from '../config/config.js';
import { loadConfig } from '../config/load.js';

export { runKind } from '../lib/run-kind.js';

/** The version of connector-codegen (its package.json). */
export function version(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Errors that are bugs of connector-codegen, not problems of the input. */
const INTERNAL = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError];

/** The process's output: straight to its descriptors unless they are terminals (lib/fd-output.cjs: no streams to set up). */
function processIO(noColor: boolean): CommandIO {
  const style = detectStyle(isTerminal(2), process.env, noColor);
  return { stdout: outputTo(1), stderr: outputTo(2), color: style.color, pretty: style.frames };
}

/** Runs the CLI; returns the exit code. `io` defaults to the process's streams (tests pass their own). */
export async function main(argv: string[], io?: CommandIO): Promise<number> {
  const out = io ?? processIO(argv.includes('--no-color'));
  let invocation;
  try {
    invocation = parseCommandLine(argv, COMMANDS);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (argv.length === 0) {
      out.stderr(globalHelp(COMMANDS, version()));
      return 2;
    }
    const help = error.command ? `connector-codegen ${error.command} --help` : 'connector-codegen --help';
    out.stderr(`connector-codegen: ${error.message}\nRun '${help}' for usage.\n`);
    return 2;
  }
  if (invocation.kind === 'version') {
    out.stdout(`${version()}\n`);
    return 0;
  }
  if (invocation.kind === 'help') {
    out.stdout(invocation.command ? commandHelp(invocation.command) : globalHelp(COMMANDS, version()));
    return 0;
  }
  const { command, values, positionals, rest } = invocation;
  const style = { color: out.color ?? false, frames: out.pretty ?? false };
  forgetShownPaths();
  let config: ResolvedConfig | undefined;
  try {
    const overrides = {
      ...(typeof values.config === 'string' ? { config: values.config } : {}),
      ...(typeof values.spec === 'string' ? { spec: values.spec } : {}),
      ...(typeof values.out === 'string' ? { out: values.out } : {}),
    };
    const context: CommandContext = {
      rest,
      config: (options) => {
        if (!config || options?.reload) config = loadConfig(process.cwd(), overrides);
        return config;
      },
    };
    return await command.run(values, positionals, out, context);
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`connector-codegen: ${error.message}\nRun 'connector-codegen ${error.command ?? command.name} --help' for usage.\n`);
      return 2;
    }
    if (error instanceof SpecError) {
      const inConfig = error.diagnostics.every((d) => d.code.startsWith('CFG'));
      const writes = typeof command.writes === 'function' ? command.writes(values) : Boolean(command.writes);
      out.stderr(renderText(error.diagnostics, style, error.sources));
      out.stderr(`${style.frames ? '' : '\n'}${summaryLine(error.diagnostics, inConfig ? 'config' : 'spec', writes ? 'nothing' : undefined)}\n`);
      return 1;
    }
    if (error instanceof SpecDirError) {
      const message =
        config?.specFrom === 'default'
          ? `no spec directory found: no spec/service.yaml in ${process.cwd()} or a directory above it; give --spec DIR, or write a connector-codegen.config.json`
          : `${error.message}${config?.specFrom === 'config' ? `, named by "spec" in ${config.file}` : ''}`;
      out.stderr(`connector-codegen ${command.name}: ${message}\n`);
      return 1;
    }
    if (process.env.CONNECTOR_CODEGEN_DEBUG) throw error;
    const message = systemErrorMessage(error) ?? (error instanceof Error ? error.message : String(error));
    if (INTERNAL.some((kind) => error instanceof kind)) {
      out.stderr(`connector-codegen ${command.name}: internal error: ${message}\nThis is a bug in connector-codegen; run with CONNECTOR_CODEGEN_DEBUG=1 for the stack trace and report it.\n`);
    } else {
      out.stderr(`connector-codegen ${command.name}: ${message}\n`);
    }
    return 1;
  }
}
