/** The contract of a CLI command: its own options, its usage lines, and a run function returning the exit code. */
import type { ParseArgsConfig } from 'node:util';
import type { ResolvedConfig } from '../../config/config.js';

/** Output streams, so commands can be run and read in tests. */
export interface CommandIO {
  /** Standard output. */
  stdout: (text: string) => void;
  /** Standard error. */
  stderr: (text: string) => void;
}

/** What every command can ask for besides its options. */
export interface CommandContext {
  /** The project config (connector-codegen.config.json, found from the working directory) with --config, --spec and --out applied; read on first use. */
  config(): ResolvedConfig;
  /** Arguments after `--`, for commands with `passThrough` (handed to another tool as they are). */
  rest: string[];
}

/** One subcommand of connector-codegen. */
export interface Command {
  /** Name typed after `connector-codegen`. */
  name: string;
  /** Usage lines shown by --help (the first names the command and its arguments). */
  usage: string[];
  /** Options of this command (parsed with node:util parseArgs, with the shared --spec and --help). */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Whether arguments after `--` are handed through (`context.rest`) instead of being positionals. */
  passThrough?: boolean;
  /** Runs the command with parsed values and positionals (after the command name); returns the exit code. */
  run(values: Record<string, string | boolean | string[] | undefined>, positionals: string[], io: CommandIO, context: CommandContext): Promise<number>;
}
