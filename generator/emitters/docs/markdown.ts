/**
 * Markdown building blocks of the reference: table cells that cannot break a table, code spans that survive
 * any content, anchors, and the seeds' type notation. View models call these; templates only place strings.
 */
import { typeExpression } from '../catalogue/describe.js';
import type { Literal, PropertyIR, SchemaIR } from '../../ir.js';
import { FORMAT_TEXT, valueRuleTexts } from '../rules-text.js';
import { sortedKeys } from '../../lib/stable-json.js';

/** What the reference prints wherever the seeds are silent. */
export const NOT_SPECIFIED = 'not specified by the contract';

/** Text for one table cell: `|` escaped and line breaks folded, so a cell never splits or ends a row. */
export function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n+/g, ' ')
    .trim();
}

/**
 * A code span that holds any text: the fence is one backtick longer than the longest run inside, and `|` is
 * escaped because GitHub splits table cells before it parses code spans.
 */
export function code(text: string): string {
  return inlineCode(text).replace(/\|/g, '\\|');
}

/** A code span outside tables (no `|` escaping: outside a table a backslash would show). */
export function inlineCode(text: string): string {
  if (!text.includes('`')) return `\`${text}\``;
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** Spec prose for Markdown: `<` outside code spans becomes `&lt;`, so `<AUTH_TOKEN>` shows instead of vanishing as HTML. */
export function text(value: string): string;
export function text(value: string | undefined): string | undefined;
export function text(value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('<')) return value;
  return value
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/</g, '&lt;')))
    .join('');
}

/** Prose that is safe in a table cell: `<` and `|` escaped, line breaks folded (code spans are built with `code`). */
export function prose(value: string | undefined): string {
  return value === undefined ? '' : cell(text(value));
}

/** An anchor id from parts: lowercase, anything but letters, digits, `_` and `-` becomes `-`. */
export function anchor(...parts: string[]): string {
  return parts
    .join('-')
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A literal as the reference shows it: strings quoted in a code span, numbers and booleans bare in one. */
export function literal(value: Literal): string {
  return code(typeof value === 'string' ? JSON.stringify(value) : String(value));
}

/** The type of a value in the seeds' notation, without `|null` (nullability has its own column). */
export function typeText(schema: Pick<SchemaIR, 'types' | 'items'>): string {
  // describe's typeExpression, minus the nullability of the outer value (no copy of the schema: this runs per row).
  return schema.types.length === 1 && schema.types[0] !== 'array' ? schema.types[0]! : schema.types.map((t) => (t === 'array' && schema.items ? `array<${typeExpression(schema.items)}>` : t)).join('|');
}

/** The enum values or the literal a value is restricted to, for an "enum / literal" column. */
export function allowedValues(schema: SchemaIR): string {
  if (schema.const !== undefined) return `always ${literal(schema.const)}`;
  if (schema.enum) return schema.enum.map(literal).join(', ');
  return '';
}

/** Description column: the description, its rules (format, filter, bound, derivation), then deprecation, notes, assumptions and provenance, as one cell. */
export function describeCell(p: SchemaIR, fallback = ''): string {
  const parts = [p.description ?? fallback];
  if (p.format) parts.push(`Format: ${FORMAT_TEXT[p.format]}.`);
  parts.push(...valueRuleTexts(p));
  if (p.unspecified) parts.push(`Other inner fields: ${NOT_SPECIFIED} ("${p.unspecified}").`);
  if (p.deprecated) parts.push(`**Deprecated:** ${p.deprecated}`);
  if (p.note) parts.push(`Note: ${p.note}`);
  if (p.assumption) parts.push(`Assumption: ${p.assumption}`);
  if (p.provenance) parts.push(`Provenance: ${p.provenance}`);
  return prose(parts.filter(Boolean).join(' '));
}

/** The constraints of a param in words: bounds, lengths, pattern, entry counts, list separator. */
export function limitsText(p: SchemaIR): string {
  const out: string[] = [];
  if (p.minimum !== undefined && p.maximum !== undefined) out.push(`${p.minimum} to ${p.maximum}`);
  else if (p.minimum !== undefined) out.push(`≥ ${p.minimum}`);
  else if (p.maximum !== undefined) out.push(`≤ ${p.maximum}`);
  if (p.minLength !== undefined || p.maxLength !== undefined) {
    out.push(p.minLength !== undefined && p.maxLength !== undefined ? `${p.minLength} to ${p.maxLength} characters` : p.maxLength !== undefined ? `≤ ${p.maxLength} characters` : `≥ ${p.minLength} characters`);
  }
  if (p.pattern !== undefined) out.push(`pattern ${code(p.pattern)}`);
  if (p.minItems !== undefined) out.push(`≥ ${p.minItems} entries`);
  if (p.maxItems !== undefined) out.push(`≤ ${p.maxItems} entries`);
  if (p.separator !== undefined) out.push(`entries joined with ${code(p.separator)}`);
  return out.join('; ');
}

/** A property and its inner fields, flattened to rows named by path: `a.b` (object), `a[].b` (array items). */
export function flatten(props: PropertyIR[], prefix = ''): { path: string; prop: PropertyIR }[] {
  return props.flatMap((prop) => {
    const path = `${prefix}${prop.name}`;
    const rows = [{ path, prop }];
    if (prop.properties) rows.push(...flatten(prop.properties, `${path}.`));
    if (prop.items?.properties) rows.push(...flatten(prop.items.properties, `${path}[].`));
    return rows;
  });
}

/**
 * A GFM table from header labels and rows of cells already made safe (`cell`, `code`, `prose`); the empty
 * string when there are no rows. Built here rather than with a template loop: a loop per cell made the
 * templates several times slower to compile and render.
 */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '';
  const lines = [`| ${header.join(' | ')} |`, `|${'---|'.repeat(header.length)}`];
  for (const row of rows) lines.push(`| ${row.join(' | ')} |`);
  return lines.join('\n');
}

/** JSON with object keys sorted at every level (spec values must not print in the spec's key order). */
export function sortedJson(value: unknown, indent?: number): string {
  return JSON.stringify(sortedKeys(value), null, indent);
}
