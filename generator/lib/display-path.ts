/** Paths as users see them in messages: as they typed them, else relative to the working directory. */
import path from 'node:path';

/** Directories the user named on the command line: absolute path → the path as typed. */
const shown = new Map<string, string>();

/**
 * Remembers that `absolute` was given as `asTyped` (`--spec ../api/spec`), so messages show it that way. Trailing
 * separators go (`--out sdk/` shows as `sdk`): messages add their own after a directory.
 */
export function rememberShownPath(absolute: string, asTyped: string): void {
  const trimmed = asTyped.replace(/[\\/]+$/, '');
  shown.set(path.resolve(absolute), trimmed === '' || trimmed.endsWith(':') ? asTyped : trimmed);
}

/** Forgets every remembered path (each CLI run starts afresh). */
export function forgetShownPaths(): void {
  shown.clear();
}

/**
 * A path for messages: under a directory the user named, that name joined with the rest (`../api/spec/service.yaml`);
 * else relative to the working directory when inside it, else absolute ('.' for the directory itself).
 */
export function displayPath(file: string): string {
  const absolute = path.resolve(file);
  for (const [root, typed] of shown) {
    if (absolute === root) return typed;
    if (absolute.startsWith(root + path.sep)) return path.join(typed, path.relative(root, absolute));
  }
  const relative = path.relative(process.cwd(), absolute);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
}
