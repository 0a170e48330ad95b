/** Lines that two entries of the CLI print: the main module (commands/) and the fast no-op answer (noop.ts), bundled apart. */

/** What `generate` (and `generate --check`) prints when the output directory `out` (as displayed) is up to date. */
export function upToDateLine(out: string, fileCount: number): string {
  return `${out}/ is up to date (${fileCount} files)\n`;
}
