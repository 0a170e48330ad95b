/**
 * `src/validators.ts` of each connector package — its opt-in `/validators` entry: ajv standalone code for every
 * params object and every record schema, compiled at generation time, and `responseValidators` for the client's
 * `validateResponses`. The client itself never imports it (params are checked with the compact schemas of
 * src/params.ts), so a program that does not import `<package>/validators` does not bundle ajv's code.
 *
 * Each distinct schema is compiled once (pieces.ts: from memory, the cache directory, or a worker) into a piece of
 * ajv code (piece.mjs); a file joins the pieces of its schemas under names of its own (assemble.ts), so it is the same
 * whatever else a run compiles, and the same from a cold run as from an incremental one.
 */
import type { ActionIR, ConnectorIR, SpecIR } from '../../ir.js';
import { generatedHeader } from '../header.js';
import { hardline, join, printDoc, type Doc } from '../ts/doc.js';
import { code, constDecl, literal, str } from '../ts/syntax.js';
import { cacheDirOf } from '../../cache/dir.js';
import { assemblePieces } from './assemble.js';
import { compileInThread, compileNearby, PieceSource, type CompilePieces } from './pieces.js';
import { splitEmitter, type Emitter } from '../types.js';
import { objectSchema, paramsSchemaWithGroups, recordSchema, type JsonSchema } from './json-schema.js';

/** Export name of an action's params validator. */
export const paramsValidatorName = (entity: string, action: string) => `params_${entity}_${action}`;
/** Export name of a record validator. */
export const recordValidatorName = (record: string) => `record_${record}`;

/** Whether an action has a params validator: every action but search (which uses the shared `params_search`). */
export function hasParamsValidator(action: ActionIR): boolean {
  return action.name !== 'search';
}

/** Whether a record has a validator: every record of the spec (an open one still checks it is an object). */
export function hasRecordValidator(connector: ConnectorIR, record: string | undefined): boolean {
  return connector.records.some((r) => r.name === record);
}


interface Job {
  key: string;
  /** Export name → the schema's JSON text; each schema once (ajv would emit a function twice for two names). */
  schemas: [string, string][];
  /** Further export names of an already exported validator: name → the exported name. */
  aliases: [string, string][];
}

function jobOf(ir: SpecIR, connector: ConnectorIR): Job {
  const byJson = new Map<string, string>();
  const schemas: [string, string][] = [];
  const aliases: [string, string][] = [];
  // Identical schemas (a lone required id, say) compile once and are exported under every name.
  const add = (name: string, schema: JsonSchema) => {
    const json = JSON.stringify(schema);
    const id = byJson.get(json);
    if (id) return void aliases.push([name, id]);
    byJson.set(json, name);
    schemas.push([name, json]);
  };
  add('params_search', { type: 'object', ...objectSchema(ir.service.search.params, 'param', false) });
  for (const e of connector.entities) {
    for (const a of e.actions) if (hasParamsValidator(a)) add(paramsValidatorName(e.name, a.name), paramsSchemaWithGroups(a));
  }
  for (const r of connector.records) add(recordValidatorName(r.name), recordSchema(r));
  return { key: connector.id, schemas, aliases };
}

/** The piece sources of this process, by cache directory (each keeps its pieces in memory). */
const sources = new Map<string, PieceSource>();

function sourceFor(cacheDir: string): PieceSource {
  let source = sources.get(cacheDir);
  if (!source) sources.set(cacheDir, (source = new PieceSource(cacheDir, compileNearby)));
  return source;
}

/** The validators file of each connector package; pieces cached under `cacheDir` (default: the run's default, see generate.ts). */
function validatorsEmitterWith(compile: CompilePieces, cacheDir?: string): Emitter {
  return splitEmitter({ name: 'validators', formatted: 'trusted', connector: (ir, connector) => emitValidators(ir, connector, sourceFor(cacheDir ?? cacheDirOf({})), compile) });
}

/** The validators files of every connector package (compiled here or on a worker thread when not cached: compileNearby). */
export const validatorsEmitter: Emitter = validatorsEmitterWith(compileNearby);

/** The validators emitter of a run whose caches live in `cacheDir`, compiling with `compile` (default: compileNearby). */
export function validatorsEmitterFor(cacheDir: string, compile: CompilePieces = compileNearby): Emitter {
  return validatorsEmitterWith(compile, cacheDir);
}

/** The same emitter compiling in the calling thread. */
export const validatorsEmitterInThread: Emitter = validatorsEmitterWith(compileInThread);

async function emitValidators(ir: SpecIR, connector: ConnectorIR, source: PieceSource, compile: CompilePieces): Promise<Map<string, string>> {
  const { key, schemas, aliases: aliased } = jobOf(ir, connector);
  const pieces = await Promise.all(schemas.map(([, json]) => source.piece(json, compile)));
  // Each export typed as the runtime's Validator: the declarations tsc writes from ajv's functions do not type-check
  // (a destructured option the inferred type lacks), which fails a consumer's build without skipLibCheck.
  const ajvCode = assemblePieces(schemas.map(([name], i) => [name, pieces[i]!] as const), key, 'Validator');
  const files = new Map<string, string>();
  const aliases = aliased.map(([name, target]) => `export const ${name} = ${target};`);
  // The record each call returns, by "entity action": the client names only the call.
  const calls = Object.fromEntries(
    connector.entities.flatMap((e) =>
      e.actions.filter((a) => (a.result.shape === 'list' || a.result.shape === 'single') && hasRecordValidator(connector, a.result.record)).map((a) => [`${e.name} ${a.name}`, code(recordValidatorName(a.result.record!))]),
    ),
  );
  const tail: Doc[] = [
    ...aliases,
    constDecl({ name: 'RECORD_VALIDATORS', docs: ['The record validator of each call that returns records, by "entity action".'], value: literal(calls) }),
    '/** Every record validator, for the client option `responseValidators` (with `validateResponses: \'warn\' | \'strict\'`). */',
    'export const responseValidators = /* @__PURE__ */ createResponseValidators(RECORD_VALIDATORS);',
  ];
  files.set(
    `${key}/src/validators.ts`,
    [
      `${generatedHeader(connector.file)}// @ts-nocheck -- ajv standalone code compiled from the spec at generation time; kept as ajv writes it (prettier-ignore).`,
      `import { createResponseValidators, type Validator } from ${str(ir.packaging.runtime.name)};`,
      '',
      ajvCode,
      '',
      printDoc([join(hardline, tail), hardline]),
    ].join('\n'),
  );
  return files;
}
