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

function typeOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
}

const length = (value: unknown, type: string) => (type === 'string' ? [...(value as string)].length : (value as unknown[]).length);

/** Keyword → [whether `value` satisfies the keyword's `limit`, the ajv-style message of a failure]. */
const RULES: Record<string, [(value: unknown, limit: never, type: string) => boolean, (limit: never) => string]> = {
  const: [(value, limit) => value === limit, () => 'must be equal to constant'],
  enum: [(value, limit: unknown[]) => limit.includes(value), () => 'must be equal to one of the allowed values'],
  minimum: [(value, limit) => typeof value !== 'number' || value >= limit, (limit) => `must be >= ${limit}`],
  maximum: [(value, limit) => typeof value !== 'number' || value <= limit, (limit) => `must be <= ${limit}`],
  minLength: [(value, limit, type) => type !== 'string' || length(value, type) >= limit, (limit) => `must NOT have fewer than ${limit} characters`],
  maxLength: [(value, limit, type) => type !== 'string' || length(value, type) <= limit, (limit) => `must NOT have more than ${limit} characters`],
  minItems: [(value, limit, type) => type !== 'array' || length(value, type) >= limit, (limit) => `must NOT have fewer than ${limit} items`],
  maxItems: [(value, limit, type) => type !== 'array' || length(value, type) <= limit, (limit) => `must NOT have more than ${limit} items`],
  pattern: [(value, limit) => typeof value !== 'string' || new RegExp(limit, 'u').test(value), (limit) => `must match pattern "${limit}"`],
};

/** Every way `value` breaks `schema`; `path` names it (`limit`, `created.gt`, `ids[2]`). */
export function checkParams(schema: ParamSchema, value: unknown, path = ''): ValidationProblem[] {
  const problems: ValidationProblem[] = [];
  // Wording and constraint names follow ajv's, which users of JSON Schema tools already read.
  const fail = (constraint: string, message: string) =>
    problems.push({ path, constraint, value, message: `param '${path || '(params)'}' ${message} (${constraint}), got ${show(value)}` });
  const type = typeOf(value);
  const types = schema.type;
  const allows = (t: string) => t === type || (t === 'number' && type === 'integer');
  if (types !== undefined && !(typeof types === 'string' ? allows(types) : types.some(allows))) {
    fail(`type ${types}`, `must be ${types}`);
    return problems;
  }
  for (const keyword in schema) {
    const limit = schema[keyword as keyof ParamSchema] as never;
    const rule = RULES[keyword];
    if (rule && !rule[0](value, limit, type)) fail(`${keyword} ${Array.isArray(limit) ? (limit as unknown[]).join(', ') : limit}`, rule[1](limit));
  }
  for (const part of schema.allOf ?? []) problems.push(...checkParams(part, value, path));
  if (type === 'array' && schema.items) (value as unknown[]).forEach((item, i) => problems.push(...checkParams(schema.items!, item, `${path}[${i}]`)));
  if (type === 'object') {
    const object = value as Record<string, unknown>;
    const properties = schema.properties ?? {};
    const problem = (key: string, constraint: string, message: string) => {
      const at = path ? `${path}.${key}` : key;
      problems.push({ path: at, constraint, message: `${message} param '${at}'` });
    };
    for (const key of schema.required ?? []) if (object[key] === undefined) problem(key, 'required', 'missing required');
    if (schema.additionalProperties === false) for (const key of Object.keys(object)) if (!Object.hasOwn(properties, key)) problem(key, 'unknown', 'unknown');
    for (const key in properties) {
      if (Object.hasOwn(object, key) && object[key] !== undefined) problems.push(...checkParams(properties[key]!, object[key], path ? `${path}.${key}` : key));
    }
  }
  return problems;
}
