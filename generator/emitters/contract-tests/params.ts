/**
 * Params of the generated contract tests, as code: the valid requests of requests.ts (the data the OpenAPI proxy
 * test sends too) written as object literals that read fixture keys and fields through the harness (`h.key`,
 * `h.field`), plus params that break the spec for the rejection tests.
 */
import type { ActionIR, ConnectorIR, EntityIR } from '../../ir.js';
import { stringLiteral } from '../naming.js';
import { requestParams, type ParamSource, type RequestParams } from './requests.js';

/** A literal value as code. */
function literalCode(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(literalCode).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${stringLiteral(k)}: ${literalCode(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

/** Where a param value comes from, as code reading the harness's fixtures. */
function sourceCode(source: ParamSource): string {
  switch (source.from) {
    case 'literal':
      return literalCode(source.value);
    case 'key':
      return `h.key(${stringLiteral(source.entity)}, ${source.index}, ${stringLiteral(source.type)})`;
    case 'field':
      return `h.field(${stringLiteral(source.entity)}, ${source.index}, ${stringLiteral(source.field)})`;
  }
}

/** Planned params (requests.ts) as an object literal; `extra` entries, given as code, replace or add params. */
export function requestCode(params: RequestParams, extra: Record<string, string> = {}): string {
  const entries = params.filter(([name]) => extra[name] === undefined).map(([name, source]) => `${stringLiteral(name)}: ${sourceCode(source)}`);
  for (const [name, code] of Object.entries(extra)) entries.push(`${stringLiteral(name)}: ${code}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '{}';
}

/** A valid request's params (requestParams, addressing fixture record `index`) as code, with `extra` as code. */
export function paramsCode(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: Record<string, string> = {}): string {
  return requestCode(requestParams(connector, entity, action, index, new Set(Object.keys(extra))), extra);
}

/** A param value that breaks the spec, or undefined when the contract shows nothing to break. */
export function invalidParamsCode(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  if (action.name === 'search') return `{ query: {}, contract_unknown_param: true }`;
  if (!action.paramsUnspecified) return paramsCode(connector, entity, action, 0, { contract_unknown_param: 'true' });
  const typed = action.params.find((p) => p.types[0] === 'integer' || p.types[0] === 'boolean' || p.types[0] === 'string');
  if (!typed) return undefined;
  return paramsCode(connector, entity, action, 0, { [typed.name]: typed.types[0] === 'string' ? '12345' : "'not-a-number'" });
}
