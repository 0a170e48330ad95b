/**
 * IR → JSON Schema (draft-07) for params and records. Params are closed (an unknown param is an error) unless the
 * contract cuts their list off; records require every field the contract lists and allow others (upstream APIs
 * add fields; validateResponses checks what the contract promises).
 */
import { FORMAT_PATTERNS, type ActionIR, type PropertyIR, type SchemaIR, type ShapeIR, type ValueFormat } from '../../ir.js';
import type { BaseType } from '../../spec/type-expr.js';

/** A JSON Schema object. */
export type JsonSchema = Record<string, unknown>;

const JSON_TYPE: Record<Exclude<BaseType, 'any'>, string> = {
  string: 'string',
  integer: 'integer',
  number: 'number',
  boolean: 'boolean',
  object: 'object',
  array: 'array',
};

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An example string of each value format (it matches FORMAT_PATTERNS): contract tests and agent tools' examples use it. */
export const FORMAT_EXAMPLES: Record<ValueFormat, string> = {
  currency_lower_iso: 'usd',
  date_time: '2024-04-05T10:00:00Z',
  lowercase_name: 'team-updates',
  md5_of_lower_email: 'f5b1b4f3b43d8e2b5a3e86a9e1c4f2a7',
  unix_time_string: '1712345678.000100',
  url: 'https://contract.example/path',
};

/** A string holding a separated list: entries from `enum` (when given), at most `maxItems` of them. */
function separatedListPatterns(s: SchemaIR): string[] {
  const sep = escapeRegex(s.separator!);
  const entry = s.enum ? `(?:${s.enum.map((v) => escapeRegex(String(v))).join('|')})` : `[^${sep}]+`;
  const patterns: string[] = [];
  if (s.enum) patterns.push(`^${entry}(?:${sep}${entry})*$`);
  if (s.maxItems !== undefined) patterns.push(`^[^${sep}]*(?:${sep}[^${sep}]*){0,${Math.max(0, s.maxItems - 1)}}$`);
  return patterns;
}

/** The JSON Schema of one value. `mode` decides whether inner objects are closed (params) or open (records). */
export function valueSchema(s: SchemaIR, mode: 'param' | 'record'): JsonSchema {
  const out: JsonSchema = {};
  if (!s.types.includes('any')) {
    const types = s.types.map((t) => JSON_TYPE[t as Exclude<BaseType, 'any'>]);
    if (s.nullable) types.push('null');
    out.type = types.length === 1 ? types[0] : types;
  }
  if (s.const !== undefined) out.const = s.const;
  if (s.enum && !s.separator) {
    if (s.types[0] === 'array') out.items = { enum: s.enum };
    else out.enum = s.nullable ? [...s.enum, null] : s.enum;
  }
  if (s.separator) {
    const patterns = separatedListPatterns(s);
    if (patterns.length === 1) out.pattern = patterns[0];
    else if (patterns.length > 1) out.allOf = patterns.map((pattern) => ({ pattern }));
  } else {
    const patterns = [s.pattern, s.format && s.types.includes('string') ? FORMAT_PATTERNS[s.format] : undefined].filter((x): x is string => x !== undefined);
    if (patterns.length === 1) out.pattern = patterns[0];
    else if (patterns.length > 1) out.allOf = patterns.map((pattern) => ({ pattern }));
    if (s.minItems !== undefined) out.minItems = s.minItems;
    if (s.maxItems !== undefined) out.maxItems = s.maxItems;
  }
  for (const key of ['minimum', 'maximum', 'minLength', 'maxLength'] as const) if (s[key] !== undefined) out[key] = s[key];
  if (s.items) out.items = { ...(out.items as JsonSchema | undefined), ...valueSchema(s.items, mode) };
  if (s.properties) Object.assign(out, objectSchema(s.properties, mode, mode === 'record'));
  return out;
}

/** `properties` / `required` / `additionalProperties` of an object. */
export function objectSchema(props: PropertyIR[], mode: 'param' | 'record', open: boolean): JsonSchema {
  const required = props.filter((p) => p.required).map((p) => p.name);
  return {
    properties: Object.fromEntries(props.map((p) => [p.name, valueSchema(p, mode)])),
    ...(required.length ? { required } : {}),
    additionalProperties: open,
  };
}

/** The params object of an action (search actions use the uniform search params). */
export function paramsSchema(action: ActionIR): JsonSchema {
  return { type: 'object', ...objectSchema(action.params, 'param', action.paramsUnspecified !== undefined) };
}

/**
 * The params schema with the action's param groups (IR `paramGroups`) as JSON Schema: an alternative holds when each
 * of its params is given and not null; `oneOf` asks exactly one alternative to hold, `atLeastOne` (anyOf) one or more —
 * what the mock enforces (mock/rules.ts). The compact client-side checks leave groups to the service.
 */
export function paramsSchemaWithGroups(action: ActionIR): JsonSchema {
  const schema = paramsSchema(action);
  const groups = paramGroupSchemas(action);
  if (groups.length === 0) return schema;
  return { ...schema, allOf: groups };
}

/** The action's param groups (IR `paramGroups`) as JSON Schema, one per group (the OpenAPI export states them too). */
export function paramGroupSchemas(action: ActionIR): JsonSchema[] {
  return (action.paramGroups ?? []).map((group) => {
    const alternatives = group.alternatives.map((alt) => ({ required: alt, properties: Object.fromEntries(alt.map((name) => [name, { not: { type: 'null' } }])) }));
    return group.kind === 'oneOf' ? { oneOf: alternatives } : { anyOf: alternatives };
  });
}

/** A record shape: its listed fields are required; other fields are allowed. */
export function recordSchema(shape: ShapeIR): JsonSchema {
  return { type: 'object', ...objectSchema(shape.properties, 'record', true) };
}
