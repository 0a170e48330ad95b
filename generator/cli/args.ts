/**
 * The command line, parsed against the command declarations: the command (found among global options, which may
 * come before or after it), its options and positionals, and `--` pass-through. Node's parseArgs only tokenizes;
 * every rule and message is ours, so a usage error is one line that says what was wrong and what was probably meant.
 */
import { parseArgs } from 'node:util';
import { closest } from '../lib/suggest.js';
import type { Command, OptionSpec, OptionValues } from './commands/types.js';

/** Options every command takes. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  config: { type: 'string', value: 'FILE', description: 'Project config (default: the nearest connector-codegen.config.json up from here).' },
  spec: { type: 'string', value: 'DIR', description: 'Spec directory (default: the config\'s "spec", else the nearest spec/ up from here).' },
  'no-color': { type: 'boolean', description: 'No colour in messages (also NO_COLOR=1; FORCE_COLOR=1 forces it).' },
  help: { type: 'boolean', short: 'h', description: 'Show help (of the command, when one is given).' },
  version: { type: 'boolean', short: 'v', description: 'Print the version.' },
};

/** A mistake in the command line: exit code 2, one message, and the command whose usage to point at. */
export class UsageError extends Error {
  /** The command the error concerns, if known. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** What was asked for. */
export type Invocation =
  | { kind: 'help'; command?: Command }
  | { kind: 'version' }
  | { kind: 'run'; command: Command; values: OptionValues; positionals: string[]; rest: string[] };

/** `--name` or `-n` as typed. */
const flag = (name: string) => (name.length === 1 ? `-${name}` : `--${name}`);

/** Finds the command's position: the first argument that is not an option or the value of a string option. */
function findCommand(argv: string[], commands: Command[]): number {
  const stringOptions = new Set<string>();
  for (const [name, spec] of Object.entries(GLOBAL_OPTIONS)) if (spec.type === 'string') stringOptions.add(`--${name}`);
  // An option of some command given before the command takes a value when every command declaring it says so.
  for (const c of commands) for (const [name, spec] of Object.entries(c.options)) if (spec.type === 'string') stringOptions.add(`--${name}`);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (!arg.startsWith('-') || arg === '-') return i;
    if (stringOptions.has(arg)) i++; // its value
  }
  return -1;
}

/** Parses `argv` (after `connector-codegen`) against the commands. Throws UsageError. */
export function parseCommandLine(argv: string[], commands: Command[]): Invocation {
  const at = findCommand(argv, commands);
  let name = at < 0 ? undefined : argv[at];
  // `--confg x.json generate`: an unknown option took the word after it for the command; the option is the mistake.
  const before = at > 0 ? argv[at - 1]! : '';
  if (name !== undefined && name !== 'help' && !commands.some((c) => c.name === name) && /^--[^=]+$/.test(before)) {
    const known = [...new Set([...Object.keys(GLOBAL_OPTIONS), ...commands.flatMap((c) => Object.keys(c.options))])].map((n) => `--${n}`);
    if (!known.includes(before)) {
      const guess = closest(before, known);
      throw new UsageError(`unknown option '${before}'${guess ? `; did you mean '${guess}'?` : ''}`);
    }
  }
  if (name === 'help') {
    // `help [command]`: anything after the command name is ignored, as git does.
    const rest = argv.slice(at + 1).filter((a) => !a.startsWith('-'));
    const globals = Object.entries(GLOBAL_OPTIONS).flatMap(([n, o]) => [`--${n}`, ...(o.short ? [`-${o.short}`] : [])]);
    const stray = argv.slice(at + 1).find((a) => a.startsWith('-') && !globals.includes(a.split('=')[0]!));
    if (stray !== undefined) {
      const guess = closest(stray, globals);
      throw new UsageError(`unknown option '${stray}' for help${guess ? `; did you mean '${guess}'?` : ''}`);
    }
    // `help help`: the help of help is the overview.
    if (rest.length === 0 || rest[0] === 'help') return { kind: 'help' };
    return { kind: 'help', command: lookup(rest[0]!, commands) };
  }
  const command = name === undefined ? undefined : lookup(name, commands);
  const args = at < 0 ? argv : [...argv.slice(0, at), ...argv.slice(at + 1)];
  const own = command?.options ?? {};
  const options: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS, ...own };
  // With passThrough, everything after the first `--` is another tool's.
  const dashes = command?.passThrough ? args.indexOf('--') : -1;
  const mine = dashes < 0 ? args : args.slice(0, dashes);
  const rest = dashes < 0 ? [] : args.slice(dashes + 1);
  const { tokens } = parseArgs({
    args: mine,
    options: Object.fromEntries(Object.entries(options).map(([n, o]) => [n, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) }])),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: OptionValues = {};
  const positionals: string[] = [];
  const where = command ? ` for ${command.name}` : '';
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind === 'option-terminator') continue;
    const spec = options[token.name];
    if (!spec) {
      const known = Object.entries(options).flatMap(([n, o]) => [`--${n}`, ...(o.short ? [`-${o.short}`] : [])]);
      const guess = closest(token.rawName, known);
      throw new UsageError(`unknown option '${token.rawName}'${where}${guess ? `; did you mean '${guess}'?` : ''}`, command?.name);
    }
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`option '${flag(token.name)}' takes no value (got '${token.value}')`, command?.name);
      values[token.name] = true;
      continue;
    }
    if (token.value === undefined) throw new UsageError(`option '${flag(token.name)}' needs a value: ${flag(token.name)} ${spec.value ?? 'VALUE'}`, command?.name);
    // An empty value is a mistake (an unset shell variable): '--out \'\'' meant the working directory.
    if (token.value === '') throw new UsageError(`option '${flag(token.name)}' needs a non-empty value: ${flag(token.name)} ${spec.value ?? 'VALUE'}`, command?.name);
    // A negative number is a value (its range is the command's to check), any other word starting with - an option.
    if (!token.inlineValue && token.value.startsWith('-') && token.value !== '-' && !/^-\d+(\.\d+)?$/.test(token.value)) {
      throw new UsageError(`option '${flag(token.name)}' needs a value, got the option '${token.value}' (write ${flag(token.name)}=${token.value} if that is the value)`, command?.name);
    }
    if (spec.choices && !spec.choices.includes(token.value)) {
      const guess = closest(token.value, spec.choices);
      throw new UsageError(`option '${flag(token.name)}' must be one of ${spec.choices.join(', ')}, not '${token.value}'${guess ? `; did you mean '${guess}'?` : ''}`, command?.name);
    }
    if (spec.multiple) values[token.name] = [...((values[token.name] as string[] | undefined) ?? []), token.value];
    else values[token.name] = token.value;
  }
  if (values.version && !command) return { kind: 'version' };
  if (values.help) return command ? { kind: 'help', command } : { kind: 'help' };
  if (!command) {
    if (positionals.length === 0 && tokens.length === 0) throw new UsageError('no command given');
    throw new UsageError(positionals.length ? `unknown command '${positionals[0]}'` : 'no command given');
  }
  if (values.version) return { kind: 'version' };
  for (const [n, spec] of Object.entries(options)) if (values[n] === undefined && spec.default !== undefined) values[n] = spec.default;
  const alone = Object.entries(command.options).some(([n, spec]) => spec.alone && values[n]);
  if (!alone) checkPositionals(command, positionals);
  return { kind: 'run', command, values, positionals, rest };
}

function lookup(name: string, commands: Command[]): Command {
  const command = commands.find((c) => c.name === name);
  if (command) return command;
  const guess = closest(name, [...commands.map((c) => c.name), 'help']);
  throw new UsageError(`unknown command '${name}'${guess ? `; did you mean '${guess}'?` : ''}`);
}

/** The arity a command's `args` synopsis declares: `<a> [<b>]` → 1..2; `<files>...` → 1..∞. */
export function arity(args: string | undefined): { min: number; max: number } {
  const parts = (args ?? '').match(/\[[^\]]*\]|<[^>]*>(\.\.\.)?/g) ?? [];
  let min = 0;
  let max = 0;
  for (const part of parts) {
    if (part.endsWith('...') || part.endsWith('...]')) max = Infinity;
    else max++;
    if (part.startsWith('<')) min++;
  }
  return { min, max };
}

function checkPositionals(command: Command, positionals: string[]): void {
  const { min, max } = arity(command.args);
  if (positionals.length > max) {
    const extra = positionals[max]!;
    // `generate check`: probably an option without its dashes.
    const names = Object.keys(command.options);
    const option = names.includes(extra) ? extra : closest(extra, names);
    const hint = option ? `; did you mean '--${option}'?` : '';
    throw new UsageError(max === 0 ? `${command.name} takes no arguments, got '${extra}'${hint}` : `unexpected argument '${extra}' (${command.name} takes ${command.args})${hint}`, command.name);
  }
  if (positionals.length < min) {
    const missing = (command.args ?? '').match(/<[^>]*>/g)![positionals.length]!;
    throw new UsageError(`missing argument ${missing} (${command.name} takes ${command.args})`, command.name);
  }
}
