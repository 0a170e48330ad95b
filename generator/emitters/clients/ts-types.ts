/** IR schemas as TypeScript type expressions: records, meta, params and searchable fields. */
import type { Literal, PropertyIR, SchemaIR, ShapeIR } from '../../ir.js';
import type { BaseType } from '../../spec/type-expr.js';
import { stringLiteral } from '../naming.js';
import { FORMAT_TEXT, valueRuleTexts } from '../rules-text.js';
import { t, type TypeMember, type TypeNode } from '../ts/syntax.js';

/** An open object, for anything the contract does not specify. */
export const OPEN_OBJECT: TypeNode = t.name('Record', t.name('string'), t.name('unknown'));

const UNKNOWN = t.name('unknown');

function literalType(value: Literal): TypeNode {
  return t.literal(value);
}

function baseType(type: BaseType, schema: SchemaIR, mode: 'read' | 'param'): TypeNode {
  switch (type) {
    case 'string':
      return t.name('string');
    case 'integer':
    case 'number':
      return t.name('number');
    case 'boolean':
      return t.name('boolean');
    case 'any':
      return UNKNOWN;
    case 'array':
      return t.name('Array', schema.items ? schemaType(schema.items, mode) : UNKNOWN);
    case 'object':
      // Read: an object whose fields the contract does not all show (unspecified) may hold others, as an open record does.
      return schema.properties ? objectType(schema.properties, mode, mode === 'read' && schema.unspecified !== undefined) : OPEN_OBJECT;
  }
}

/** A union of types, nested unions flattened and repeated members dropped (as written in source). */
function union(types: TypeNode[]): TypeNode {
  const flat = types.some((m) => m.kind === 'union') ? types.flatMap((m) => (m.kind === 'union' ? m.types : [m])) : types;
  if (flat.length === 1) return flat[0]!;
  // A larger type can only repeat another larger one: its JSON (costly) is read only when there are two.
  const larger = flat.filter((m) => simpleKey(m) === undefined).length;
  const seen = new Set<string>();
  return t.union(
    flat.filter((m, i) => {
      const key = simpleKey(m) ?? (larger > 1 ? JSON.stringify(m) : `#${i}`);
      return !seen.has(key) && seen.add(key);
    }),
  );
}

/** Equal for equal types: a name or a literal by its text (undefined for a larger type). */
function simpleKey(node: TypeNode): string | undefined {
  if (node.kind === 'name' && !node.args) return `n:${node.name}`;
  if (node.kind === 'literal') return `l:${JSON.stringify(node.value)}`;
  return undefined;
}

/** The type of a value: literal and enum unions first, then base types, then `| null`. */
export function schemaType(schema: SchemaIR, mode: 'read' | 'param'): TypeNode {
  let type: TypeNode;
  if (schema.const !== undefined) type = literalType(schema.const);
  else if (schema.enum && !schema.separator && !schema.types.includes('array')) type = union(schema.enum.map(literalType));
  else if (schema.types.includes('any')) type = UNKNOWN;
  else type = union(schema.types.map((b) => baseType(b, schema, mode)));
  if (schema.types[0] === 'array' && schema.enum && !schema.items) type = t.name('Array', union(schema.enum.map(literalType)));
  return schema.nullable && type !== UNKNOWN ? union([type, t.name('null')]) : type;
}

/** Members of an object type, each with its JSDoc; open ones end with an index signature. */
export function objectMembers(props: PropertyIR[], mode: 'read' | 'param', open: boolean): TypeMember[] {
  const members: TypeMember[] = props.map((p) => ({ kind: 'property', name: p.name, optional: mode === 'param' && !p.required, type: schemaType(p, mode), docs: memberDoc(p) }));
  if (open) members.push({ kind: 'index', keyName: 'key', keyType: t.name('string'), type: UNKNOWN, docs: ['The contract does not list every field; others may be present.'] });
  return members;
}

/** An inline object type `{ a: string; b?: number }` with JSDoc on each member. */
export function objectType(props: PropertyIR[], mode: 'read' | 'param', open: boolean): TypeNode {
  if (props.length === 0) return open ? OPEN_OBJECT : t.object([]);
  return t.object(objectMembers(props, mode, open));
}

/** What a member's hover says when the spec has no description for it: the contract's silence, plainly. */
export const NOT_DESCRIBED = 'Not described by the contract.';

/**
 * Doc lines of a member: the spec's description (else that the contract does not describe it), the facts its
 * type carries (literal, enum, null), then its constraints, deprecation and notes. Never a sentence that only
 * repeats the name.
 */
export function memberDoc(p: PropertyIR | SchemaIR): string[] {
  const shown = (v: Literal) => `\`${typeof v === 'string' ? stringLiteral(v) : String(v)}\``;
  const typeFacts: string[] = [];
  const only = p.const ?? (p.enum?.length === 1 ? p.enum[0] : undefined);
  if (only !== undefined) typeFacts.push(`Always ${shown(only)}.`);
  else if (p.enum && !p.separator && !p.types.includes('array')) typeFacts.push(`One of ${p.enum.map(shown).join(', ')}.`);
  if (p.nullable) typeFacts.push('May be null.');
  const facts: string[] = [];
  if (p.enum && (p.separator || p.types.includes('array'))) facts.push(`Allowed values: ${p.enum.join(', ')}.`);
  if (p.separator) facts.push(`A list joined with '${p.separator}'.`);
  if (p.default !== undefined) facts.push(`Default: ${JSON.stringify(p.default)}.`);
  const bounds = (low: number | undefined, high: number | undefined, unit = '') =>
    low !== undefined && high !== undefined ? `${low} to ${high}${unit}` : low !== undefined ? `at least ${low}${unit}` : `at most ${high}${unit}`;
  if (p.minimum !== undefined || p.maximum !== undefined) facts.push(`Range: ${bounds(p.minimum, p.maximum)}.`);
  if (p.minLength !== undefined || p.maxLength !== undefined) facts.push(`Length: ${bounds(p.minLength, p.maxLength, ' characters')}.`);
  if (p.pattern !== undefined) facts.push(`Pattern: \`${p.pattern}\`.`);
  if (p.maxItems !== undefined) facts.push(`At most ${p.maxItems} entries.`);
  if (p.format) facts.push(`Format: ${FORMAT_TEXT[p.format]}.`);
  const rules = valueRuleTexts(p);
  // Without a description, the contract's silence is said, unless a rule of the spec describes the member (an
  // interval bound: "Lower bound, exclusive." after "Not described by the contract." read as a contradiction).
  const description = p.description ?? (rules.length ? undefined : NOT_DESCRIBED);
  const lines: string[] = [];
  // A description without a closing stop ("… 4 low") gets one before the facts that follow it on its line.
  const first = [description && typeFacts.length && !/[.!?:)]$/.test(description) ? `${description}.` : description, ...typeFacts].filter(Boolean);
  if (first.length) lines.push(first.join(' '));
  if (facts.length) lines.push(facts.join(' '));
  lines.push(...rules);
  if (p.note) lines.push(`Note: ${p.note}`);
  if (p.assumption) lines.push(`Assumption: ${p.assumption}`);
  if (p.provenance) lines.push(`Provenance: ${p.provenance}`);
  if (p.deprecated) lines.push(`@deprecated ${p.deprecated}`);
  return lines;
}

/** The TypeScript type of a record or meta shape. */
export function shapeType(shape: ShapeIR): TypeNode {
  return objectType(shape.properties, 'read', shape.unspecified !== undefined);
}
