/** `src/index.ts` of a connector package: its types and client, and the runtime names users reach for. */
import type { ConnectorIR, SpecIR } from '../../ir.js';
import { generatedHeader } from '../header.js';
import { AUTH_CONFIG_TYPE, metaTypeName, paramsTypeName, recordTypeName, searchFieldsTypeName } from './type-names.js';

/** Names the runtime exports that a package re-exports for convenience (unless a local type takes the name). */
const RUNTIME_VALUES = ['AbortError', 'ApiError', 'AuthenticationError', 'ConnectionError', 'InvalidRequestError', 'LimitError', 'NotFoundError', 'PaginationError', 'ParamValidationError', 'RateLimitError', 'ResponseValidationError', 'ServerError', 'TimeoutError'];
const RUNTIME_TYPES = ['APIPromise', 'ClientOptions', 'CreateSourceBody', 'DownloadResponse', 'Fetch', 'FetchOptions', 'Logger', 'LogLevel', 'Page', 'PageOptions', 'PagePromise', 'RequestOptions', 'SearchFilter', 'SearchHit', 'SearchRequest', 'SearchResult', 'SearchSort', 'Source', 'WithResponse'];

function localTypeNames(connector: ConnectorIR): Set<string> {
  const names = new Set([AUTH_CONFIG_TYPE, ...connector.records.map((r) => recordTypeName(r.name)), ...connector.meta.map((m) => metaTypeName(m.name))]);
  for (const e of connector.entities) {
    if (e.searchable) names.add(searchFieldsTypeName(e.name));
    for (const a of e.actions) names.add(paramsTypeName(e.name, a.name));
  }
  return names;
}

/** Emits src/index.ts for one connector. */
export function indexFile(ir: SpecIR, connector: ConnectorIR): string {
  const runtime = ir.packaging.runtime.name;
  const local = localTypeNames(connector);
  const values = RUNTIME_VALUES.filter((n) => !local.has(n));
  const types = RUNTIME_TYPES.filter((n) => !local.has(n));
  const shadowed = [...RUNTIME_VALUES, ...RUNTIME_TYPES].filter((n) => local.has(n));
  return [
    generatedHeader(connector.file),
    `export * from './types.js';`,
    `export * from './client.js';`,
    `export { ${values.join(', ')} } from '${runtime}';`,
    `export type { ${types.join(', ')} } from '${runtime}';`,
    ...(shadowed.length ? [`// Not re-exported (a type of this connector has the name; import it from ${runtime}): ${shadowed.join(', ')}.`] : []),
    '',
  ].join('\n');
}
