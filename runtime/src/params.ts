/**
 * Param checks before anything is sent. Generated packages describe each action's params as a small JSON Schema
 * (the subset the spec can express: types, enum, const, bounds, lengths, patterns, items, properties, required,
 * closed objects) and this interprets it. Compact on purpose: it is in every bundle that calls a method, where
 * a compiled validator per action would not be (record validators are opt-in: the package's `/validators` entry).
 */
import type { ValidationProblem } from './validation.js';

/** JSON type names a param schema can require. */
export type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The JSON Schema subset generated for params. */
export interface ParamSchema {
  type?: ParamType | ParamType[];
  enum?: readonly unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  /** Patterns that must all match (a separated list: allowed entries, at most N entries). */
  allOf?: readonly ParamSchema[];
  items?: ParamSchema;
  properties?: Readonly<Record<string, ParamSchema>>;
  required?: readonly string[];
  /** false: a key outside `properties` is an error (params the contract lists completely). */
  additionalProperties?: boolean;
}

/** The value, shown briefly. */
function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Keyword → [the type it constrains (values of other types pass; empty: every value), whether `value` meets the
 * keyword's `limit`, the ajv-style message of a failure with `#` for the limit]. Lengths count code points.
 */
const RULES: Record<string, [string, (value: any, limit: any) => boolean, string]> = {
  const: ['', (value, limit) => value === limit, 'must be equal to constant'],
  enum: ['', (value, limit) => limit.includes(value), 'must be equal to one of the allowed values'],
  minimum: ['number', (value, limit) => value >= limit, 'must be >= #'],
  maximum: ['number', (value, limit) => value <= limit, 'must be <= #'],
  minLength: ['string', (value, limit) => [...value].length >= limit, 'must NOT have fewer than # characters'],
  maxLength: ['string', (value, limit) => [...value].length <= limit, 'must NOT have more than # characters'],
  minItems: ['array', (value, limit) => value.length >= limit, 'must NOT have fewer than # items'],
  maxItems: ['array', (value, limit) => value.length <= limit, 'must NOT have more than # items'],
  pattern: ['string', (value, limit) => new RegExp(limit, 'u').test(value), 'must match pattern "#"'],
};

/**
 * Every way `value` breaks `schema`; `path` names it (`limit`, `created.gt`, `ids[2]`). The problems are added to
 * `problems` (a new list unless given), which is returned.
 */
export function checkParams(
  schema: ParamSchema,
  value: any,
  path = '',
  problems: ValidationProblem[] = [],
): ValidationProblem[] {
  // Wording and constraint names follow ajv's, which users of JSON Schema tools already read.
  const fail = (constraint: string, message: string) =>
    problems.push({
      path,
      constraint,
      value,
      message: `param '${path || '(params)'}' ${message} (${constraint}), got ${show(value)}`,
    });
  const type =
    value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const types = schema.type;
  // A name or a list of names: includes() serves both (no type name contains another), allocating nothing.
  if (types && !((types as string).includes(type) || (type === 'integer' && types.includes('number')))) {
    fail(`type ${types}`, `must be ${types}`);
    return problems;
  }
  for (const keyword in schema) {
    const limit = schema[keyword as keyof ParamSchema] as any;
    const rule = RULES[keyword];
    // Read by index, not destructured: this runs for every keyword of every checked value.
    if (rule && (!rule[0] || rule[0] === type || rule[0] === typeof value) && !rule[1](value, limit)) {
      fail(
        `${keyword} ${[limit].flat().join(', ')}`,
        rule[2].replace('#', () => limit),
      );
    }
  }
  for (const part of schema.allOf ?? []) checkParams(part, value, path, problems);
  if (type === 'array' && schema.items)
    value.forEach((item: unknown, i: number) => checkParams(schema.items!, item, `${path}[${i}]`, problems));
  if (type === 'object') {
    const properties = schema.properties ?? {};
    const at = (key: string) => (path ? `${path}.${key}` : key);
    const problem = (key: string, constraint: string, message: string) =>
      problems.push({ path: at(key), constraint, message: `${message} param '${at(key)}'` });
    for (const key of schema.required ?? []) if (value[key] === undefined) problem(key, 'required', 'missing required');
    if (schema.additionalProperties === false)
      for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) problem(key, 'unknown', 'unknown');
    for (const key in properties)
      if (Object.hasOwn(value, key) && value[key] !== undefined)
        checkParams(properties[key]!, value[key], at(key), problems);
  }
  return problems;
}
