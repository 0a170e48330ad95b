/**
 * `src/validators.ts` of each connector package — its opt-in `/validators` entry: ajv standalone code for every
 * params object and every record schema, compiled at generation time, and `responseValidators` for the client's
 * `validateResponses`. The client itself never imports it (params are checked with the compact schemas of
 * src/params.ts), so a program that does not import `<package>/validators` does not bundle ajv's code. ajv's ESM output still calls
 * require() for some keywords; those helpers are inlined here so the file loads under ESM.
 */
import { Worker } from 'node:worker_threads';
import type { ActionIR, ConnectorIR, SpecIR } from '../../ir.js';
import { generatedHeader } from '../header.js';
import { hardline, join, printDoc, type Doc } from '../ts/doc.js';
import { code, constDecl, literal, str } from '../ts/syntax.js';
import { ignoredByPrettier } from './prettier-ignore.js';
import { esmOnly } from './esm-only.js';
import type { Emitter } from '../types.js';
import { objectSchema, paramsSchema, recordSchema, type JsonSchema } from './json-schema.js';

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
  schemas: [string, JsonSchema][];
  /** Export name → schema id; each schema id once (ajv would emit a function twice for two names). */
  exports: Record<string, string>;
  /** Further export names of an already exported validator: name → the exported name. */
  aliases: [string, string][];
}

function jobOf(ir: SpecIR, connector: ConnectorIR): Job {
  const byJson = new Map<string, string>();
  const schemas: [string, JsonSchema][] = [];
  const exports: Record<string, string> = {};
  const aliases: [string, string][] = [];
  // Identical schemas (a lone required id, say) compile once and are exported under every name.
  const add = (name: string, schema: JsonSchema) => {
    const json = JSON.stringify(schema);
    const id = byJson.get(json);
    if (id) return void aliases.push([name, id]);
    byJson.set(json, name);
    schemas.push([name, schema]);
    exports[name] = name;
  };
  add('params_search', { type: 'object', ...objectSchema(ir.service.search.params, 'param', false) });
  for (const e of connector.entities) {
    for (const a of e.actions) if (hasParamsValidator(a)) add(paramsValidatorName(e.name, a.name), paramsSchema(a));
  }
  for (const r of connector.records) add(recordValidatorName(r.name), recordSchema(r));
  return { key: connector.id, schemas, exports, aliases };
}

/** A compiler worker, started ahead of need (see `prestartValidatorCompiler`). */
let prestarted: Worker | undefined;

/** Starts the compiler worker now, so its start-up and loading ajv overlap reading the spec. */
export function prestartValidatorCompiler(): void {
  prestarted ??= new Worker(new URL('./compile-worker.mjs', import.meta.url));
  prestarted.unref();
}

function compileInWorker(jobs: Omit<Job, 'aliases'>[]): Promise<{ key: string; code: string }[]> {
  const worker = prestarted ?? new Worker(new URL('./compile-worker.mjs', import.meta.url));
  prestarted = undefined;
  return new Promise<{ key: string; code: string }[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`validator compiler exited with code ${code}`)));
    worker.postMessage(jobs);
  }).finally(() => void worker.terminate());
}


/** Compiles jobs in this thread (tests that generate many small specs: no worker start-up per run). */
async function compileInThread(jobs: Omit<Job, 'aliases'>[]): Promise<{ key: string; code: string }[]> {
  const { compile } = await import('./compile.mjs');
  return jobs.map(compile);
}

/** Validators files whose ajv code could not be marked `// prettier-ignore` statement by statement: prettier formats them. */
const unmarked = new Set<string>();
const formatted = (_ir: SpecIR, path: string) => (unmarked.has(path) ? false : ('trusted' as const));

/** The validators files of every connector package (compiled in a worker thread). */
export const validatorsEmitter: Emitter = { name: 'validators', formatted, emit: (ir) => emitValidators(ir, compileInWorker) };

/** The same emitter compiling in the calling thread. */
export const validatorsEmitterInThread: Emitter = { name: 'validators', formatted, emit: (ir) => emitValidators(ir, compileInThread) };

async function emitValidators(ir: SpecIR, compileJobs: (jobs: Omit<Job, 'aliases'>[]) => Promise<{ key: string; code: string }[]>): Promise<Map<string, string>> {
  const jobs = ir.connectors.map((c) => jobOf(ir, c));
  const results = await compileJobs(jobs.map(({ key, schemas, exports }) => ({ key, schemas, exports })));
  const files = new Map<string, string>();
  for (const { key, code: ajv } of results) {
    const connector = ir.connectors.find((c) => c.id === key)!;
    const aliases = jobs.find((j) => j.key === key)!.aliases.map(([name, target]) => `export const ${name} = ${target};`);
    // The record each call returns, by "entity action": the client names only the call.
    const calls = Object.fromEntries(
      connector.entities.flatMap((e) =>
        e.actions.filter((a) => (a.result.shape === 'list' || a.result.shape === 'single') && hasRecordValidator(connector, a.result.record)).map((a) => [`${e.name} ${a.name}`, code(recordValidatorName(a.result.record!))]),
      ),
    );
    const file = `${key}/src/validators.ts`;
    const ajvCode = esmOnly(ajv, key);
    const marked = ignoredByPrettier(ajvCode);
    if (marked) unmarked.delete(file);
    else unmarked.add(file);
    const tail: Doc[] = [
      ...aliases,
      constDecl({ name: 'RECORD_VALIDATORS', docs: ['The record validator of each call that returns records, by "entity action".'], value: literal(calls) }),
      '/** Every record validator, for the client option `responseValidators` (with `validateResponses: \'warn\' | \'strict\'`). */',
      'export const responseValidators = /* @__PURE__ */ createResponseValidators(RECORD_VALIDATORS);',
    ];
    files.set(
      file,
      [
        `${generatedHeader(connector.file)}// @ts-nocheck -- ajv standalone code compiled from the spec at generation time; kept as ajv writes it (prettier-ignore).`,
        `import { createResponseValidators } from ${str(ir.packaging.runtime.name)};`,
        '',
        marked ?? ajvCode,
        '',
        printDoc([join(hardline, tail), hardline]),
      ].join('\n'),
    );
  }
  return files;
}
