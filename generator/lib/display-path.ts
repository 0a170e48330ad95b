/** Paths as users see them in messages. */
import path from 'node:path';

/** A path relative to the working directory when it is inside it, else absolute ('.' for the directory itself). */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  if (relative === '') return '.';
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
