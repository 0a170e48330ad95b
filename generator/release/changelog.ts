/** Changelog entries written by `release`: one per version, breaking changes first, each naming its check id. */
import { whereText, type Change } from '../diff/model.js';

const SECTIONS = [
  ['breaking', 'Breaking changes'],
  ['warning', 'Warnings'],
  ['non-breaking', 'Other changes'],
] as const;

/** One line of an entry: check id, where, what, and the spec location. */
function line(change: Change): string {
  const place = whereText(change, 8);
  const scope = change.connector === undefined ? 'common contract' : '';
  const where = [scope, place].filter(Boolean).join(', ');
  return `- \`${change.id}\` — ${where ? `${where}: ` : ''}${change.message} (${change.location.file}:${change.location.line})`;
}

/** The entry of `version` for a package whose spec changed by `changes` (already sorted). */
export function changelogEntry(version: string, changes: readonly Change[]): string {
  const lines = [`## ${version}`];
  for (const [severity, title] of SECTIONS) {
    const these = changes.filter((c) => c.severity === severity);
    if (these.length) lines.push('', `### ${title}`, '', ...these.map(line));
  }
  return `${lines.join('\n')}\n`;
}

/** `entries` with `entry` on top (newest first). */
export function prependEntry(entries: string, entry: string): string {
  return `${entry}\n${entries.trimStart()}`;
}
