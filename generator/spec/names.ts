/**
 * Names that become code: entity, record, meta and paging-scheme names turn into TypeScript identifiers, type names
 * and export names of the generated packages. A name that gives no identifier, or two names that give the same one,
 * would make `generate` fail or emit code that does not compile; both are reported here (SPEC041), so whatever
 * `validate` accepts, `generate` generates.
 */
import type { ConnectorIR } from '../ir.js';
import { camelCase } from '../emitters/naming.js';
import { clientClassName, resourceTypeName } from '../emitters/clients/client-names.js';
import { AUTH_CONFIG_TYPE, metaTypeName, paramsTypeName, recordTypeName, searchFieldsTypeName } from '../emitters/clients/type-names.js';
import type { Diagnostic } from './diagnostics.js';
import type { Origins } from './normalize.js';

/** What a name of the spec may look like: it becomes an identifier as written (snake_case, camelCase). */
const CODE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Members of the runtime's ConnectorClient (runtime/src/client.ts): an entity property must not take their names. */
export const CLIENT_MEMBERS = new Set(['constructor', 'execute', 'createSource', 'request', 'resource', 'callSingle']);

/** Reports the names of one connector that cannot become code, and its names that become the same code. */
export function checkCodeNames(connector: ConnectorIR, origins: Origins): Diagnostic[] {
  const out: Diagnostic[] = [];
  const items: [object, string, string][] = [
    ...connector.entities.map((e): [object, string, string] => [e, 'entity', e.name]),
    ...connector.records.map((r): [object, string, string] => [r, 'record', r.name]),
    ...connector.meta.map((m): [object, string, string] => [m, 'meta', m.name]),
    ...connector.pagination.map((s): [object, string, string] => [s, 'pagination scheme', s.name]),
  ];
  const unusable = new Set<string>();
  for (const [node, kind, name] of items) {
    if (CODE_NAME.test(name)) continue;
    unusable.add(name);
    out.push(origins.diagnostic(node, 'SPEC041', `${kind} name '${name}' cannot become a TypeScript name: use letters, digits and _, starting with a letter`));
  }
  out.push(...collisions(connector, origins, unusable));
  return out;
}

/** Generated names of one connector that two spec items would both take. */
function collisions(connector: ConnectorIR, origins: Origins, unusable: Set<string>): Diagnostic[] {
  const out: Diagnostic[] = [];
  // One scope per kind of generated name: the client's members, and the types of types.ts and client.ts.
  const members = new Map<string, string>([...CLIENT_MEMBERS].map((m) => [m, `the client's own member '${m}'`]));
  const types = new Map<string, string>([
    [AUTH_CONFIG_TYPE, 'the auth_config type'],
    [clientClassName(connector), 'the client class'],
  ]);
  const claim = (scope: Map<string, string>, generated: string, what: string, node: object) => {
    const owner = scope.get(generated);
    if (owner === undefined) scope.set(generated, what);
    else out.push(origins.diagnostic(node, 'SPEC041', `${what} would generate the name '${generated}', which ${owner} already has; rename one of them`));
  };
  for (const r of connector.records) if (!unusable.has(r.name)) claim(types, recordTypeName(r.name), `record '${r.name}'`, r);
  for (const m of connector.meta) if (!unusable.has(m.name)) claim(types, metaTypeName(m.name), `meta '${m.name}'`, m);
  for (const e of connector.entities) {
    if (unusable.has(e.name)) continue;
    claim(members, camelCase(e.name), `entity '${e.name}'`, e);
    claim(types, resourceTypeName(e), `entity '${e.name}'`, e);
    if (e.searchable) claim(types, searchFieldsTypeName(e.name), `entity '${e.name}' (its searchable fields)`, e);
    for (const a of e.actions) if (a.name !== 'search') claim(types, paramsTypeName(e.name, a.name), `entity '${e.name}' (params of ${a.name})`, e);
  }
  const schemes = new Map<string, string>();
  for (const s of connector.pagination) if (!unusable.has(s.name)) claim(schemes, camelCase(s.name), `pagination scheme '${s.name}'`, s);
  return out;
}
