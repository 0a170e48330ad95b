/**
 * `src/params.ts` of a connector package: the params of every action as the small JSON Schema the runtime's
 * `checkParams` interprets before a request is sent. Identical schemas are written once and shared. Actions
 * whose params the contract does not show (any object passes) get none, and are not checked.
 */
import type { ActionIR, ConnectorIR, EntityIR, SpecIR } from '../../ir.js';
import { camelCase, pascalCase } from '../naming.js';
import { objectSchema, paramsSchema, type JsonSchema } from '../validators/json-schema.js';
import { generatedHeader } from '../header.js';
import { printDoc, type Doc } from '../ts/doc.js';
import { constDecl, fileDoc, importDecl, literal, type LiteralValue } from '../ts/syntax.js';

/** Export name of the uniform search's params schema. */
const SEARCH_PARAMS = 'search';

/** Export name of an action's params schema in src/params.ts, or undefined when the action's params are not checked. */
export function paramsSchemaName(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  if (action.name === 'search') return SEARCH_PARAMS;
  return acceptsAnything(action) ? undefined : `${camelCase(entity.name)}${pascalCase(action.name)}`;
}

/** Whether any params object passes: the contract shows no param and says the list is not complete (see paramsSchema). */
function acceptsAnything(action: ActionIR): boolean {
  return action.params.length === 0 && action.paramsUnspecified !== undefined;
}

/** One export of src/params.ts. */
interface ParamsExport {
  /** Export name. */
  name: string;
  /** The schema. */
  schema: JsonSchema;
  /** JSDoc. */
  docs: string;
  /** The first export with the same schema, when there is one (this one is an alias of it). */
  sameAs?: string;
}

/** paramsExports of each connector's IR (clientFile and paramsFile both read them). */
const exportsOf = new WeakMap<SpecIR, Map<ConnectorIR, ParamsExport[]>>();

/** The params schemas of a connector as src/params.ts exports them, in order; identical schemas are written once. */
function paramsExports(ir: SpecIR, connector: ConnectorIR): ParamsExport[] {
  let byConnector = exportsOf.get(ir);
  if (!byConnector) exportsOf.set(ir, (byConnector = new Map()));
  let exports = byConnector.get(connector);
  if (!exports) byConnector.set(connector, (exports = makeParamsExports(ir, connector)));
  return exports;
}

function makeParamsExports(ir: SpecIR, connector: ConnectorIR): ParamsExport[] {
  const out: ParamsExport[] = [];
  const byJson = new Map<string, string>();
  const add = (name: string, schema: JsonSchema, docs: string) => {
    if (out.some((e) => e.name === name)) throw new Error(`internal: two param schemas of ${connector.id} are named ${name}`);
    const json = JSON.stringify(schema);
    const first = byJson.get(json);
    if (first === undefined) byJson.set(json, name);
    out.push({ name, schema, docs, ...(first !== undefined ? { sameAs: first } : {}) });
  };
  if (connector.entities.some((e) => e.actions.some((a) => a.name === 'search'))) {
    add(SEARCH_PARAMS, { type: 'object', ...objectSchema(ir.service.search.params, 'param', false) }, 'Params of the uniform search (spec/service.yaml).');
  }
  for (const entity of connector.entities) {
    for (const action of entity.actions) {
      const name = paramsSchemaName(connector, entity, action);
      if (name && name !== SEARCH_PARAMS) add(name, paramsSchema(action), `Params of ${entity.name} ${action.name}.`);
    }
  }
  return out;
}

/**
 * Export name → the export that holds its schema (itself, or the first identical one). The client refers to
 * that one, so a bundle holds each shared schema once and no alias of it.
 */
export function paramsSchemaHolders(ir: SpecIR, connector: ConnectorIR): Map<string, string> {
  return new Map(paramsExports(ir, connector).map((e) => [e.name, e.sameAs ?? e.name]));
}

/** Emits src/params.ts for one connector. */
export function paramsFile(ir: SpecIR, connector: ConnectorIR): string {
  const statements: Doc[] = paramsExports(ir, connector).map((e) =>
    constDecl({
      exported: true,
      docs: [e.sameAs === undefined ? e.docs : `${e.docs.replace(/\.$/, '')}: the same schema as \`${e.sameAs}\`.`],
      name: e.name,
      ...(e.sameAs === undefined ? { type: 'ParamSchema' } : {}),
      value: e.sameAs ?? literal(e.schema as LiteralValue),
    }),
  );
  const imports = [importDecl({ typeOnly: true, names: ['ParamSchema'], from: ir.packaging.runtime.name })];
  return printDoc(fileDoc(generatedHeader(connector.file), [imports, ...statements.map((s) => [s])]));
}
