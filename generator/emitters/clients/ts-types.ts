/** Renders IR schemas as TypeScript types: records, meta, params and searchable fields. */
import type { Literal, PropertyIR, SchemaIR, ShapeIR } from '../../ir.js';
import type { BaseType } from '../../spec/type-expr.js';
import { propertyKey, stringLiteral } from '../naming.js';
import { boundText, deriveText, FORMAT_TEXT, matchesText } from '../rules-text.js';

/** An open object, for anything the contract does not specify. */
export const OPEN_OBJECT = 'Record<string, unknown>';

function literal(value: Literal): string {
  return typeof value === 'string' ? stringLiteral(value) : String(value);
}

function baseType(t: BaseType, schema: SchemaIR, mode: 'read' | 'param'): string {
  switch (t) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'any':
      return 'unknown';
    case 'array':
      return `Array<${schema.items ? schemaType(schema.items, mode) : 'unknown'}>`;
    case 'object':
      return schema.properties ? objectType(schema.properties, mode, false) : OPEN_OBJECT;
  }
}

/** The type of a value: literal and enum unions first, then base types, then `| null`. */
export function schemaType(schema: SchemaIR, mode: 'read' | 'param'): string {
  let type: string;
  if (schema.const !== undefined) type = literal(schema.const);
  else if (schema.enum && !schema.separator && !schema.types.includes('array')) type = schema.enum.map(literal).join(' | ');
  else if (schema.types.includes('any')) type = 'unknown';
  else type = schema.types.map((t) => baseType(t, schema, mode)).join(' | ');
  if (schema.types[0] === 'array' && schema.enum && !schema.items) type = `Array<${schema.enum.map(literal).join(' | ')}>`;
  return schema.nullable && type !== 'unknown' ? `${type} | null` : type;
}

/** An inline object type `{ a: string; b?: number }` with JSDoc on each member. */
export function objectType(props: PropertyIR[], mode: 'read' | 'param', open: boolean): string {
  if (props.length === 0) return open ? OPEN_OBJECT : '{}';
  const members = props.map((p) => `${docComment(memberDoc(p))}${propertyKey(p.name)}${mode === 'param' && !p.required ? '?' : ''}: ${schemaType(p, mode)};`);
  if (open) members.push('/** The contract does not list every field; others may be present. */\n[key: string]: unknown;');
  return `{\n${members.join('\n')}\n}`;
}

/** What a member's hover says when the spec has no description for it: the contract's silence, plainly. */
export const NOT_DESCRIBED = 'Not described by the contract.';

/**
 * Doc lines of a member: the spec's description (else that the contract does not describe it), the facts its
 * type carries (literal, enum, null), then its constraints, deprecation and notes. Never a sentence that only
 * repeats the name.
 */
export function memberDoc(p: PropertyIR | SchemaIR): string[] {
  const lines: string[] = [];
  const shown = (v: Literal) => `\`${literal(v)}\``;
  const typeFacts: string[] = [];
  const only = p.const ?? (p.enum?.length === 1 ? p.enum[0] : undefined);
  if (only !== undefined) typeFacts.push(`Always ${shown(only)}.`);
  else if (p.enum && !p.separator && !p.types.includes('array')) typeFacts.push(`One of ${p.enum.map(shown).join(', ')}.`);
  if (p.nullable) typeFacts.push('May be null.');
  lines.push([p.description ?? NOT_DESCRIBED, ...typeFacts].join(' '));
  const facts: string[] = [];
  if (p.enum && (p.separator || p.types.includes('array'))) facts.push(`Allowed values: ${p.enum.join(', ')}.`);
  if (p.separator) facts.push(`A list joined with '${p.separator}'.`);
  if (p.default !== undefined) facts.push(`Default: ${JSON.stringify(p.default)}.`);
  if (p.minimum !== undefined || p.maximum !== undefined) facts.push(`Range: ${p.minimum ?? '…'} to ${p.maximum ?? '…'}.`);
  if (p.minLength !== undefined || p.maxLength !== undefined) facts.push(`Length: ${p.minLength ?? 0} to ${p.maxLength ?? '…'} characters.`);
  if (p.pattern !== undefined) facts.push(`Pattern: \`${p.pattern}\`.`);
  if (p.maxItems !== undefined) facts.push(`At most ${p.maxItems} entries.`);
  if (p.format) facts.push(`Format: ${FORMAT_TEXT[p.format]}.`);
  if (facts.length) lines.push(facts.join(' '));
  if (p.matches) lines.push(matchesText(p.matches));
  if (p.rangeOf && !p.bound) lines.push(`An interval on \`${p.rangeOf}\`.`);
  if (p.bound) lines.push(boundText(p.bound, p.rangeOf));
  if (p.derive) lines.push(deriveText(p.derive, p.format));
  if (p.note) lines.push(`Note: ${p.note}`);
  if (p.assumption) lines.push(`Assumption: ${p.assumption}`);
  if (p.provenance) lines.push(`Provenance: ${p.provenance}`);
  if (p.deprecated) lines.push(`@deprecated ${p.deprecated}`);
  return lines;
}

/** A JSDoc block from lines (empty lines dropped); `*\/` inside text is defused. */
export function docComment(lines: string[]): string {
  const clean = lines.flatMap((l) => l.split('\n')).map((l) => l.replace(/\*\//g, '*\\/').trimEnd());
  if (clean.length === 0) return '';
  if (clean.length === 1) return `/** ${clean[0]} */\n`;
  return `/**\n${clean.map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */\n`;
}

/** The TypeScript type of a record or meta shape. */
export function shapeType(shape: ShapeIR): string {
  return objectType(shape.properties, 'read', shape.unspecified !== undefined);
}
