/**
 * Colour and layout of messages, decided once per run as compilers do it: colour and code frames on a terminal,
 * plain one-line diagnostics when piped. FORCE_COLOR forces colour (and frames), NO_COLOR (or --no-color) turns
 * colour off; see https://no-color.org and https://force-color.org.
 */

/** How messages are drawn. */
export interface Style {
  /** ANSI colours. */
  color: boolean;
  /** Code frames under diagnostics (the line and a caret). */
  frames: boolean;
}

/** The style for a stream, from its TTY-ness, the environment and `--no-color`. */
export function detectStyle(isTTY: boolean, env: NodeJS.ProcessEnv, noColorFlag = false): Style {
  // FORCE_COLOR=0 (or false) asks for no colour, as Node and chalk read it; any other value forces it.
  const forcedOff = env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false';
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && !forcedOff;
  const off = noColorFlag || forcedOff || (env.NO_COLOR !== undefined && env.NO_COLOR !== '');
  const color = !noColorFlag && (force || (!off && isTTY));
  return { color, frames: isTTY || force };
}

const CODES = { red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], cyan: [36, 39], gray: [90, 39], bold: [1, 22], dim: [2, 22] } as const;

/** A colour function per name; identity functions without colour. */
export type Paint = Record<keyof typeof CODES, (text: string) => string>;

/** Colour functions for `style`. */
export function paint(style: Pick<Style, 'color'>): Paint {
  const entries = Object.entries(CODES).map(([name, [open, close]]) => [name, style.color ? (t: string) => `\u001b[${open}m${t}\u001b[${close}m` : (t: string) => t]);
  return Object.fromEntries(entries) as Paint;
}
