/**
 * `src/validators.ts` of each connector package — its opt-in `/validators` entry: ajv standalone code for every
 * params object and every record schema, compiled at generation time, and `responseValidators` for the client's
 * `validateResponses`. The client itself never imports it (params are checked with the compact schemas of
 * src/params.ts), so a program that does not import `<package>/validators` does not bundle ajv's code. ajv's ESM output still calls
 * require() for some keywords; those helpers are inlined here so the file loads under ESM.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ActionIR, ConnectorIR, SpecIR } from '../../ir.js';
import { generatedHeader } from '../header.js';
import { hardline, join, printDoc, type Doc } from '../ts/doc.js';
import { code, constDecl, literal, str } from '../ts/syntax.js';
import { ignoredByPrettier } from './prettier-ignore.js';
import { esmOnly } from './esm-only.js';
import { splitEmitter, type Emitter } from '../types.js';
import { remember } from '../../cache/memo.js';
import { objectSchema, paramsSchema, paramsSchemaWithGroups, recordSchema, type JsonSchema } from './json-schema.js';

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
    for (const a of e.actions) if (hasParamsValidator(a)) add(paramsValidatorName(e.name, a.name), paramsSchemaWithGroups(a));
  }
  for (const r of connector.records) add(recordValidatorName(r.name), recordSchema(r));
  return { key: connector.id, schemas, exports, aliases };
}

type CompileJob = Omit<Job, 'aliases'>;
type Compiled = { key: string; code: string };

/** At most this many compiler workers (ajv's compilation is the largest single cost of a cold run). */
const MAX_WORKERS = Math.min(2, availableParallelism());
/** Fewer jobs than this go to one worker: a second one costs more (loading ajv) than it saves. */
const JOBS_PER_EXTRA_WORKER = 4;

/**
 * Compiles jobs on up to MAX_WORKERS worker threads, started only when there is work. Jobs asked for in the same turn
 * of the event loop (every connector of a run) go out together, spread over the workers by size.
 */
interface Queued {
  job: CompileJob;
  resolve: (c: Compiled) => void;
  reject: (e: unknown) => void;
}

class CompilerPool {
  #queue: Queued[] = [];

  compile(job: CompileJob): Promise<Compiled> {
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ job, resolve, reject }) === 1) setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    const queue = this.#queue.splice(0);
    const workers = Math.max(1, Math.min(MAX_WORKERS, Math.floor(queue.length / JOBS_PER_EXTRA_WORKER)));
    // Largest first onto the least loaded worker: the batches end at about the same time.
    const sized = queue.map((q) => ({ q, size: JSON.stringify(q.job.schemas).length })).sort((a, b) => b.size - a.size);
    const batches = Array.from({ length: workers }, () => ({ size: 0, items: [] as Queued[] }));
    for (const { q, size } of sized) {
      const lightest = batches.reduce((a, b) => (b.size < a.size ? b : a));
      lightest.size += size;
      lightest.items.push(q);
    }
    for (const batch of batches) if (batch.items.length) this.#run(batch.items);
  }

  #run(items: Queued[]): void {
    const worker = new Worker(new URL('./compile-worker.mjs', import.meta.url));
    worker.unref();
    const fail = (error: unknown) => items.forEach((i) => i.reject(error));
    worker.once('message', (results: Compiled[]) => {
      results.forEach((r, i) => items[i]!.resolve(r));
      void worker.terminate();
    });
    worker.once('error', fail);
    worker.once('exit', (code) => code !== 0 && fail(new Error(`validator compiler exited with code ${code}`)));
    worker.postMessage(items.map((i) => i.job));
  }
}

const pool = new CompilerPool();

/** Compiles a job in this thread (tests that generate many small specs: no worker start-up per run). */
async function compileInThread(job: CompileJob): Promise<Compiled> {
  const { compile } = await import('./compile.mjs');
  return compile(job);
}

/** Validators files whose ajv code could not be marked `// prettier-ignore` statement by statement: prettier formats them. */
const unmarked = new Set<string>();
const formatted = (_ir: SpecIR, path: string) => (unmarked.has(path) ? false : ('trusted' as const));

/** The validators file of each connector package, compiled by `compileJob`. */
function validatorsEmitterWith(compileJob: (job: CompileJob) => Promise<Compiled>): Emitter {
  return splitEmitter({ name: 'validators', formatted, connector: (ir, connector) => emitValidators(ir, connector, compileJob) });
}

/** The validators files of every connector package (compiled in worker threads, or remembered from a run with the same schemas). */
export const validatorsEmitter: Emitter = validatorsEmitterWith(async (job) => ({ key: job.key, code: await remember('ajv', JSON.stringify(job), async () => (await pool.compile(job)).code) }));

/** The same emitter compiling in the calling thread. */
export const validatorsEmitterInThread: Emitter = validatorsEmitterWith(compileInThread);

async function emitValidators(ir: SpecIR, connector: ConnectorIR, compileJob: (job: CompileJob) => Promise<Compiled>): Promise<Map<string, string>> {
  const { key, schemas, exports, aliases: aliased } = jobOf(ir, connector);
  const { code: ajv } = await compileJob({ key, schemas, exports });
  const files = new Map<string, string>();
  const aliases = aliased.map(([name, target]) => `export const ${name} = ${target};`);
  // The record each call returns, by "entity action": the client names only the call.
  const calls = Object.fromEntries(
    connector.entities.flatMap((e) =>
      e.actions.filter((a) => (a.result.shape === 'list' || a.result.shape === 'single') && hasRecordValidator(connector, a.result.record)).map((a) => [`${e.name} ${a.name}`, code(recordValidatorName(a.result.record!))]),
    ),
  );
  const file = `${key}/src/validators.ts`;
  const ajvCode = esmOnly(ajv, key);
  // Scanning ~200 KB of code costs tens of milliseconds: remembered with the compilation.
  const remembered = await remember('prettier-ignore', ajvCode, async () => ignoredByPrettier(ajvCode) ?? '\0');
  const marked = remembered === '\0' ? undefined : remembered;
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
  return files;
}
