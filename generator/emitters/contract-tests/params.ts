/**
 * Params of the generated contract tests, as literal values: the valid requests of requests.ts (the data the OpenAPI
 * proxy test sends too) with fixture keys and fields read through the harness (`h.key`, `h.field`), plus params that
 * break the spec for the rejection tests. The literal printer (../ts/syntax.ts) writes them as prettier would.
 */
import type { ActionIR, ConnectorIR, EntityIR } from '../../ir.js';
import { code, str, type LiteralValue } from '../ts/syntax.js';
import { requestParams, type ParamSource, type RequestParams } from './requests.js';

/** Where a param value comes from, as a value reading the harness's fixtures. */
function sourceValue(source: ParamSource): LiteralValue {
  switch (source.from) {
    case 'literal':
      return source.value as LiteralValue;
    case 'key':
      return code(`h.key(${str(source.entity)}, ${source.index}, ${str(source.type)})`);
    case 'field':
      return code(`h.field(${str(source.entity)}, ${source.index}, ${str(source.field)})`);
  }
}

/** Planned params (requests.ts) as an object literal value; `extra` entries replace or add params (last). */
export function requestValue(params: RequestParams, extra: Record<string, LiteralValue> = {}): Record<string, LiteralValue> {
  const entries: [string, LiteralValue][] = params.filter(([name]) => extra[name] === undefined).map(([name, source]) => [name, sourceValue(source)]);
  for (const [name, value] of Object.entries(extra)) entries.push([name, value]);
  return Object.fromEntries(entries);
}

/** A valid request's params (requestParams, addressing fixture record `index`), with `extra` params. */
export function paramsValue(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: Record<string, LiteralValue> = {}): Record<string, LiteralValue> {
  return requestValue(requestParams(connector, entity, action, index, new Set(Object.keys(extra))), extra);
}

/** Params that break the spec, or undefined when the contract shows nothing to break. */
export function invalidParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): LiteralValue | undefined {
  if (action.name === 'search') return { query: {}, contract_unknown_param: true };
  if (!action.paramsUnspecified) return paramsValue(connector, entity, action, 0, { contract_unknown_param: true });
  const typed = action.params.find((p) => p.types[0] === 'integer' || p.types[0] === 'boolean' || p.types[0] === 'string');
  if (!typed) return undefined;
  return paramsValue(connector, entity, action, 0, { [typed.name]: typed.types[0] === 'string' ? 12345 : 'not-a-number' });
}
