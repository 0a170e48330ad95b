/**
 * The contract of a CLI command. A command is one module in generator/cli/commands/ exporting a `Command`: its
 * name, a one-line summary, its positional arguments, its options (each with its help text), examples, and a run
 * function returning the exit code. main.ts parses the command line against this declaration (unknown options,
 * wrong values and stray arguments exit 2 before `run` is called) and renders `<command> --help` from it.
 */
import type { ResolvedConfig } from '../../config/config.js';

/** Output streams, so commands can be run and read in tests. */
export interface CommandIO {
  /** Standard output. */
  stdout: (text: string) => void;
  /** Standard error. */
  stderr: (text: string) => void;
  /** Whether messages on stderr may use colour (TTY, NO_COLOR, FORCE_COLOR, --no-color); default false. */
  color?: boolean;
  /** Whether diagnostics on stderr get code frames (a terminal, or FORCE_COLOR); default false. */
  pretty?: boolean;
}

/** What every command can ask for besides its options. */
export interface CommandContext {
  /**
   * The project config (connector-codegen.config.json, found from the working directory) with --config, --spec and
   * --out applied; read on first use, and again with `reload` (a watch after the file changed).
   */
  config(options?: { reload?: boolean }): ResolvedConfig;
  /** Arguments after `--`, for commands with `passThrough` (handed to another tool as they are). */
  rest: string[];
}

/** One option of a command (parsed with node:util parseArgs' tokenizer). */
export interface OptionSpec {
  /** `string` takes a value (`--out DIR`, `--out=DIR`); `boolean` does not. */
  type: 'string' | 'boolean';
  /** One-letter alias (`-h`). */
  short?: string;
  /** May be given more than once (the value is then an array). */
  multiple?: boolean;
  /** Value when the option is not given. */
  default?: string | boolean;
  /** Placeholder of the value in help (`DIR`, `N`); default `VALUE`. */
  value?: string;
  /** Help text (may span lines). */
  description?: string;
  /** The only values allowed; anything else exits 2 with a did-you-mean. */
  choices?: readonly string[];
  /** A mode of its own (`diff --list-checks`): when given, the command's positional arguments are not required. */
  alone?: boolean;
}

/** An example shown by `<command> --help`. */
export interface CommandExample {
  /** The command line after `connector-codegen`. */
  command: string;
  /** What it does. */
  description: string;
}

/** Parsed option values: strings, booleans, or arrays for `multiple` options. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** One subcommand of connector-codegen. */
export interface Command {
  /** Name typed after `connector-codegen`. */
  name: string;
  /** One line for the command list of `connector-codegen --help`. */
  summary: string;
  /**
   * Positional arguments as shown in usage: `<base>` required, `[<head>]` optional, `<file>...` any number.
   * Omitted: the command takes none (any positional exits 2).
   */
  args?: string;
  /** Longer explanation printed by `<command> --help` under the usage line. */
  description?: string;
  /** Options of this command (the global ones — --config, --spec, --help, --no-color — come on top). */
  options: Record<string, OptionSpec>;
  /** Examples printed by `<command> --help`. */
  examples?: CommandExample[];
  /** Whether arguments after `--` are handed through (`context.rest`) instead of being positionals. */
  passThrough?: boolean;
  /** Whether the command (with these options) writes files: then a failure message says that nothing was written. */
  writes?: boolean | ((values: OptionValues) => boolean);
  /** Runs the command with parsed values and positionals (after the command name); returns the exit code. */
  run(values: OptionValues, positionals: string[], io: CommandIO, context: CommandContext): Promise<number>;
}
