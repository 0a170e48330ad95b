/**
 * Params of the generated contract tests, as code: values that satisfy each param's constraints and format, the
 * record a get/update/delete/download addresses (its key param reads a fixture key), list filters that take values
 * fixture records hold (so answers are not empty), and param groups satisfied with the alternative that filters
 * least.
 */
import { entityFields } from '../fixtures/model.js';
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';
import { stringLiteral } from '../naming.js';

/** Example strings of each value format. */
const FORMAT_EXAMPLES: Record<NonNullable<PropertyIR['format']>, string> = {
  currency_lower_iso: 'usd',
  md5_of_lower_email: 'f5b1b4f3b43d8e2b5a3e86a9e1c4f2a7',
  unix_time_string: '1712345678.000100',
  url: 'https://contract.example/path',
};

/** A value that satisfies a param's constraints, as code. */
export function exampleValue(p: PropertyIR): string {
  if (p.const !== undefined) return JSON.stringify(p.const);
  if (p.enum?.length) return JSON.stringify(p.enum[0]);
  if (p.format) return stringLiteral(FORMAT_EXAMPLES[p.format]);
  switch (p.types[0]) {
    case 'integer':
    case 'number':
      return String(Math.min(Math.max(p.minimum ?? 1, 1), p.maximum ?? Number.MAX_SAFE_INTEGER));
    case 'boolean':
      return 'true';
    case 'array':
      return p.items?.enum?.length ? `[${JSON.stringify(p.items.enum[0])}]` : '[]';
    case 'object':
      return `{ ${(p.properties ?? []).filter((x) => x.required).map((x) => `${stringLiteral(x.name)}: ${exampleValue(x)}`).join(', ')} }`;
    default: {
      const text = p.pattern ? 'contract-test' : `contract ${p.name}`;
      return stringLiteral(p.maxLength !== undefined ? text.slice(0, p.maxLength) : text);
    }
  }
}

/** The type a key param wants (integer keys stay numbers, others are strings). */
export const scalarType = (p: PropertyIR | undefined) => (p?.types[0] === 'integer' || p?.types[0] === 'number' ? p.types[0] : 'string');

const ADDRESSING = ['get', 'update', 'delete', 'download'];

/** The param that names the target record of a get/update/delete/download (none: the mock finds a singleton). */
export function targetParam(action: ActionIR): PropertyIR | undefined {
  return ADDRESSING.includes(action.name) && action.keyParam ? action.params.find((p) => p.name === action.keyParam) : undefined;
}

/** The entity whose records an entity's actions address (itself, or its recordsFrom). */
export function recordEntity(connector: ConnectorIR, entity: EntityIR): EntityIR {
  return (entity.recordsFrom && connector.entities.find((e) => e.name === entity.recordsFrom)) || entity;
}

/** The alternative of each param group a call gives: the one with the fewest params that filter records. */
function groupParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Set<string> {
  const fields = new Set(entityFields(connector, entity).map((f) => f.name));
  const out = new Set<string>();
  for (const group of action.paramGroups ?? []) {
    const filtering = (alt: string[]) => alt.filter((n) => fields.has(n)).length;
    const best = [...group.alternatives].sort((a, b) => filtering(a) - filtering(b) || a.length - b.length)[0]!;
    best.forEach((n) => out.add(n));
  }
  return out;
}

/**
 * Params as code: required ones (and those a param group needs); the target param reads fixture record `index`;
 * list filters read record 0 (by the field they match); `extra` adds or replaces entries.
 */
export function paramsCode(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: Record<string, string> = {}): string {
  const owner = recordEntity(connector, entity);
  const fields = new Set(entityFields(connector, owner).map((f) => f.name));
  const target = targetParam(action);
  const filters = (action.name === 'list' || action.name === 'api_search') && owner.actions.some((a) => a.name === 'list');
  const grouped = groupParams(connector, owner, action);
  const e = stringLiteral(entity.name);
  const entries: string[] = [];
  for (const p of action.params) {
    if (extra[p.name] !== undefined) continue;
    if (p === target) entries.push(`${stringLiteral(p.name)}: h.key(${e}, ${index}, ${stringLiteral(scalarType(p))})`);
    else if (!p.required && !grouped.has(p.name)) continue;
    // A list filter on a record field takes a value a fixture record has, so the answer is not empty.
    else if (filters && p.matches && p.types[0] !== 'object') entries.push(`${stringLiteral(p.name)}: h.field(${e}, 0, ${stringLiteral(p.matches.fields[0]!)})`);
    else if (filters && fields.has(p.name) && p.types[0] !== 'object' && p.types[0] !== 'array' && p.const === undefined && !p.enum) entries.push(`${stringLiteral(p.name)}: h.field(${e}, 0, ${stringLiteral(p.name)})`);
    else entries.push(`${stringLiteral(p.name)}: ${exampleValue(p)}`);
  }
  for (const [name, code] of Object.entries(extra)) entries.push(`${stringLiteral(name)}: ${code}`);
  return `{ ${entries.join(', ')} }`;
}

/** A param value that breaks the spec, or undefined when the contract shows nothing to break. */
export function invalidParamsCode(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  if (action.name === 'search') return `{ query: {}, contract_unknown_param: true }`;
  if (!action.paramsUnspecified) return paramsCode(connector, entity, action, 0, { contract_unknown_param: 'true' });
  const typed = action.params.find((p) => p.types[0] === 'integer' || p.types[0] === 'boolean' || p.types[0] === 'string');
  if (!typed) return undefined;
  return paramsCode(connector, entity, action, 0, { [typed.name]: typed.types[0] === 'string' ? '12345' : "'not-a-number'" });
}
