/** Help texts, rendered from the command declarations: the command list, and each command's usage, options and examples. */
import { GLOBAL_OPTIONS } from './args.js';
import type { Command, OptionSpec } from './commands/types.js';

const BIN = 'connector-codegen';

/** `--out DIR`, `-h, --help`. */
function optionLabel(name: string, spec: OptionSpec): string {
  const long = `--${name}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;
  return spec.short ? `-${spec.short}, ${long}` : `    ${long}`;
}

/** Two columns: labels padded to the widest (at most 26), descriptions indented under themselves. */
function table(rows: [string, string][], indent = '  '): string[] {
  const width = Math.min(26, Math.max(...rows.map(([l]) => l.length)) + 2);
  return rows.flatMap(([label, text]) => {
    const lines = text.split('\n');
    if (label.length + 2 > width) return [`${indent}${label}`, ...lines.map((l) => `${indent}${' '.repeat(width)}${l}`)];
    return lines.map((l, i) => `${indent}${(i === 0 ? label : '').padEnd(width)}${l}`);
  });
}

function optionRows(options: Record<string, OptionSpec>): [string, string][] {
  return Object.entries(options).map(([name, spec]) => {
    const extra = [spec.choices ? `One of: ${spec.choices.join(', ')}.` : '', spec.default !== undefined && spec.default !== false ? `Default: ${String(spec.default)}.` : '']
      .filter(Boolean)
      .join(' ');
    return [optionLabel(name, spec), [spec.description ?? '', extra].filter(Boolean).join(' ')];
  });
}

/** The global help: what the tool is, every command, the global options. */
export function globalHelp(commands: Command[], version: string): string {
  return [
    `${BIN} ${version} — typed TypeScript SDKs, validators, fixtures, a mock, docs and an OpenAPI export from a YAML spec.`,
    '',
    `Usage: ${BIN} <command> [options]`,
    '',
    'Commands:',
    ...table([...commands.map((c): [string, string] => [c.name, c.summary]), ['help [command]', 'Show the help of a command: its options and examples.']]),
    '',
    'Global options (before or after the command):',
    ...table(optionRows(GLOBAL_OPTIONS)),
    '',
    `Run '${BIN} help <command>' (or '${BIN} <command> --help') for a command's options and examples.`,
    '',
  ].join('\n');
}

/** The help of one command: usage, description, options, examples, global options. */
export function commandHelp(command: Command): string {
  const synopsis = [BIN, command.name, command.args ?? '', Object.keys(command.options).length ? '[options]' : '', command.passThrough ? '[-- ARGS]' : '']
    .filter(Boolean)
    .join(' ');
  const lines = [`Usage: ${synopsis}`, '', command.summary];
  if (command.description) lines.push('', command.description);
  if (Object.keys(command.options).length) lines.push('', 'Options:', ...table(optionRows(command.options)));
  lines.push('', 'Global options:', ...table(optionRows(GLOBAL_OPTIONS)));
  if (command.examples?.length) {
    lines.push('', 'Examples:');
    for (const e of command.examples) lines.push(`  ${BIN} ${e.command}`, `      ${e.description}`);
  }
  lines.push('');
  return lines.join('\n');
}
