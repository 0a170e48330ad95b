/** Plain-text and GitHub-annotation renderings of a diff. Sorted input, no timestamps: byte-identical output. */
import type { Severity } from './checks.js';
import { whereText, type Change, type ConnectorVerdict, type DiffResult } from './model.js';

/** `2 breaking, 1 warning, 0 non-breaking`. */
export function countsText(counts: Record<Severity, number>): string {
  return `${counts.breaking} breaking, ${counts.warning} warning${counts.warning === 1 ? '' : 's'}, ${counts['non-breaking']} non-breaking`;
}

/** Totals over all changes (each counted once). */
export function totals(result: DiffResult): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, warning: 0, 'non-breaking': 0 };
  for (const c of result.changes) counts[c.severity]++;
  return counts;
}

/** `0.1.0 → 0.2.0`, `new at 0.1.0`, `0.3.0 → removed`. */
export function versionText(v: ConnectorVerdict): string {
  if (v.version.from === undefined) return `new at ${v.version.to}`;
  if (v.version.to === undefined) return `${v.version.from} → removed`;
  return `${v.version.from} → ${v.version.to}`;
}

/** Changes grouped as printed: the common contract first (key ''), then each connector. */
export function groups(result: DiffResult): [string, Change[]][] {
  const map = new Map<string, Change[]>();
  for (const c of result.changes) {
    const key = c.connector ?? '';
    map.set(key, [...(map.get(key) ?? []), c]);
  }
  return [...map];
}

/** `breaking`, or `breaking (configured; default warning)` for an overridden severity. */
export function severityText(change: Change): string {
  return change.defaultSeverity === undefined ? change.severity : `${change.severity} (configured; default ${change.defaultSeverity})`;
}

/** `Severity overrides (config diff.severity): a → breaking, b → warning.`, or '' when none applied. */
export function overridesText(result: DiffResult): string {
  const entries = Object.entries(result.overrides ?? {});
  return entries.length ? `Severity overrides (config diff.severity): ${entries.map(([id, s]) => `${id} → ${s}`).join(', ')}.` : '';
}

/** The diff as plain text (the default format). */
export function formatText(result: DiffResult): string {
  if (result.changes.length === 0) return `No semantic changes from ${result.base} to ${result.head}.\n`;
  const lines = [`Spec diff from ${result.base} to ${result.head}: ${result.changes.length} change${result.changes.length === 1 ? '' : 's'} (${countsText(totals(result))}).`, ''];
  if (result.overrides) lines.push(overridesText(result), '');
  const idWidth = Math.max(...result.connectors.map((v) => v.connector.length));
  lines.push('Packages:');
  for (const v of result.connectors) lines.push(`  ${v.connector.padEnd(idWidth)}  ${v.bump.padEnd(5)}  ${versionText(v)}  (${countsText(v.counts)})`);
  for (const [connector, changes] of groups(result)) {
    lines.push('', connector === '' ? 'Common contract (service.yaml):' : `${connector}:`);
    for (const c of changes) {
      const place = whereText(c);
      const reach = c.connector === undefined ? ` [reaches ${c.affects.length} connector${c.affects.length === 1 ? '' : 's'}]` : '';
      lines.push(`  [${severityText(c)}] ${c.id}  ${place ? `${place}: ` : ''}${c.message}${reach}  (${c.location.file}:${c.location.line})`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const LEVEL: Record<Severity, string> = { breaking: 'error', warning: 'warning', 'non-breaking': 'notice' };

/** Escapes an annotation's message (GitHub's workflow-command rules). */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes an annotation's property value. */
function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The diff as GitHub workflow annotations: breaking → error, warning → warning, non-breaking → notice. `fileOf` turns a
 * location's spec path (`spec/connectors/x.yaml`) into the path the workflow's checkout has it at (`api/spec/…`).
 */
export function formatGithub(result: DiffResult, fileOf: (file: string) => string = (file) => file): string {
  return result.changes
    .map((c) => {
      const where = [c.connector ?? 'service', whereText(c, 2)].filter(Boolean).join(' ');
      const configured = c.defaultSeverity === undefined ? '' : `, configured ${c.severity}`;
      const props = `file=${escapeProperty(fileOf(c.location.file))},line=${c.location.line},title=${escapeProperty(`${c.id} (${where}${configured})`)}`;
      return `::${LEVEL[c.severity]} ${props}::${escapeData(c.message)}\n`;
    })
    .join('');
}
