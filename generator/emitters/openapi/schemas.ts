/**
 * JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of IR values: params, record fields, meta keys and
 * the shapes built from them. The rules mirror the generated TypeScript types (emitters/ts-types.ts): params
 * are closed objects unless the contract leaves them open; records list their fields, all present, and are
 * open where the contract does not show them all.
 */
import { FORMAT_PATTERNS, type ActionIR, type PropertyIR, type SchemaIR, type ShapeIR } from '../../ir.js';
import { paramGroupSchemas } from '../validators/json-schema.js';

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: unknown };

/** How a value is used: read from responses, or sent as a param. */
export type SchemaMode = 'read' | 'param';

/** The contract's words where it is silent, as schema descriptions say them. */
export const NOT_SPECIFIED = 'Not specified by the contract';

/** A `$ref` to a component schema. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Description of a value: its description, then constraints JSON Schema cannot say, notes and deprecation. */
function describe(s: SchemaIR): string | undefined {
  const parts: string[] = [];
  if (s.description) parts.push(s.description);
  if (s.separator !== undefined) {
    parts.push(`A list joined with '${s.separator}'.`);
    if (s.enum) parts.push(`Allowed entries: ${s.enum.join(', ')}.`);
    if (s.maxItems !== undefined) parts.push(`At most ${s.maxItems} entries.`);
  }
  if (s.note) parts.push(`Note: ${s.note}`);
  if (s.assumption) parts.push(`Assumption: ${s.assumption}`);
  if (s.provenance) parts.push(`Provenance: ${s.provenance}`);
  if (s.deprecated) parts.push(`Deprecated: ${s.deprecated}`);
  return parts.length ? parts.join(' ') : undefined;
}

/** The `type` keyword: base types plus `null`; none at all when `any` is among them. */
function typeKeyword(s: SchemaIR): string | string[] | undefined {
  if (s.types.includes('any') || s.types.length === 0) return undefined;
  const types: string[] = [...s.types];
  if (s.nullable) types.push('null');
  return types.length === 1 ? types[0] : types;
}

/** The schema of one value. `withDocs` false leaves descriptions out (operand schemas repeat fields). */
export function valueSchema(s: SchemaIR, mode: SchemaMode, withDocs = true): JsonSchema {
  const out: JsonSchema = {};
  const type = typeKeyword(s);
  if (type !== undefined) out['type'] = type;
  if (s.const !== undefined) {
    if (s.nullable) out['enum'] = [s.const, null];
    else out['const'] = s.const;
  } else if (s.enum && s.separator === undefined && !s.types.includes('array')) {
    out['enum'] = s.nullable ? [...s.enum, null] : [...s.enum];
  }
  if (s.types.includes('array')) {
    // An array param listing allowed values but no item shape holds those values (as the TS types say).
    out['items'] = s.items ? valueSchema(s.items, mode, withDocs) : s.enum ? { enum: [...s.enum] } : {};
    if (s.separator === undefined) {
      if (s.minItems !== undefined) out['minItems'] = s.minItems;
      if (s.maxItems !== undefined) out['maxItems'] = s.maxItems;
    }
  }
  if (s.types.includes('object')) {
    // Fields of unknown shape are open objects, said explicitly (tools read a bare `type: object` as empty).
    // Its fields, under the type keyword above (objectSchema's own `type: object` would drop a `null` or another type).
    if (s.properties) {
      const { type: _, ...fields } = objectSchema(s.properties, mode, false, withDocs);
      Object.assign(out, fields);
    }
    else out['additionalProperties'] = true;
  }
  for (const key of ['default', 'minimum', 'maximum', 'minLength', 'maxLength'] as const) {
    if (s[key] !== undefined) out[key] = s[key];
  }
  // A value format is a pattern, as in the validators (a url is an absolute http(s) URL).
  const patterns = [s.pattern, s.format && s.types.includes('string') ? FORMAT_PATTERNS[s.format] : undefined].filter((x): x is string => x !== undefined);
  if (patterns.length === 1) out['pattern'] = patterns[0];
  else if (patterns.length > 1) out['allOf'] = patterns.map((pattern) => ({ pattern }));
  if (withDocs) {
    const description = describe(s);
    if (description) out['description'] = description;
    if (s.deprecated) out['deprecated'] = true;
  }
  return out;
}

/**
 * An object of named values. Params: only the required ones are required, and the object is closed unless
 * `open`. Read values (records, meta): every listed field is present; extra fields are not forbidden unless
 * the contract lists them all — then JSON Schema's default (allowed) stays, as a response may grow.
 */
export function objectSchema(props: PropertyIR[], mode: SchemaMode, open: boolean, withDocs = true): JsonSchema {
  const out: JsonSchema = { type: 'object', properties: Object.fromEntries(props.map((p) => [p.name, valueSchema(p, mode, withDocs)])) };
  const required = props.filter((p) => mode === 'read' || p.required).map((p) => p.name);
  if (required.length) out['required'] = required;
  if (mode === 'param') out['additionalProperties'] = open;
  else if (open) out['additionalProperties'] = true;
  return out;
}

/** A record or meta shape; open (any fields) where the contract does not show them. */
export function shapeSchema(shape: ShapeIR): JsonSchema {
  const parts = [shape.description];
  if (shape.unspecified) parts.push(`${NOT_SPECIFIED}: "${shape.unspecified}"`);
  if (shape.note) parts.push(`Note: ${shape.note}`);
  if (shape.assumption) parts.push(`Assumption: ${shape.assumption}`);
  const description = parts.filter(Boolean).join(' ');
  const body = shape.properties.length ? objectSchema(shape.properties, 'read', shape.unspecified !== undefined) : { type: 'object', additionalProperties: true };
  return { ...body, ...(description ? { description } : {}) };
}

/** The params object of an action (not the uniform search: see search.ts). */
export function paramsSchema(action: ActionIR, label: string): JsonSchema {
  const description = [`Params of ${label}.`, action.paramsUnspecified ? `${NOT_SPECIFIED}: "${action.paramsUnspecified}"` : ''].filter(Boolean).join(' ');
  if (action.params.length === 0) {
    return action.paramsUnspecified ? { type: 'object', additionalProperties: true, description } : { type: 'object', additionalProperties: false, description };
  }
  return { ...objectSchema(action.params, 'param', action.paramsUnspecified !== undefined), description };
}

/**
 * paramsSchema with the contract's param groups ("a project, or a section, or a workspace with an assignee") as the
 * validators state them: for the export. Agent tools keep to paramsSchema (several model APIs refuse oneOf/allOf in a
 * tool's input schema; the MCP server checks groups itself).
 */
export function paramsSchemaWithGroups(action: ActionIR, label: string): JsonSchema {
  const groups = paramGroupSchemas(action);
  const schema = paramsSchema(action, label);
  return groups.length ? { ...schema, allOf: groups } : schema;
}

/** Whether the execute body must carry `params` (some param is required, or a param group asks for some). */
export function paramsRequired(action: ActionIR): boolean {
  return action.params.some((p) => p.required) || (action.paramGroups ?? []).length > 0;
}
