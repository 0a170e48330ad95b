/**
 * The emitter host: one worker thread beside the main thread that runs the emitters marked `offThread`
 * (emitters/index.ts) and compiles validator schemas, one job at a time, in the order asked. One worker, not one per
 * emitter: the machines have 2 cores, and each worker costs its start (Node's bootstrap, loading code) in CPU.
 *
 * The worker loads a plain ES module bundled by esbuild from `host/worker.ts` (tsx's loader costs a worker more CPU than
 * an emitter's work, measured). The CLI build (bin/cli-build.cjs) bundles every `emitters/<name>/worker.ts` beside the
 * CLI, so a run from the CLI bundles nothing; a run from source (tests, tsx) bundles the worker once per generator
 * version into a cache of its own. Each module's `import.meta.url` is kept as its own file URL, so paths relative to a
 * source file still resolve.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker } from 'node:worker_threads';
import type { SpecIR } from '../ir.js';
import { ownImportMetaUrl } from '../lib/own-import-meta-url.mjs';
import { sha256 } from '../lib/sha256.js';
import { unpackFiles, type EncodedOutput, type PackedFiles } from './output-bytes.js';
import type { Piece } from './validators/piece.mjs';
import type { HostAnswer, HostRequest } from './host/protocol.js';

/** The host's worker entry (its folder's `worker.ts`; `workers/host.mjs` in the CLI build). */
const HOST = { name: 'host', module: new URL('./host/worker.ts', import.meta.url).href };

/** Set by the CLI build (esbuild `define`) to the build's directory name; undeclared when running from source. */
declare const CONNECTOR_CODEGEN_CLI_BUILD: string | undefined;

const cacheRoot = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
/** The worker bundles of the CLI build this module belongs to, if it belongs to one. */
const builtDir = typeof CONNECTOR_CODEGEN_CLI_BUILD === 'string' ? path.join(cacheRoot, 'connector-codegen-cli', CONNECTOR_CODEGEN_CLI_BUILD, 'workers') : undefined;
/** The entry of a worker thread that runs a script of the CLI build. */
const scriptWorker = new URL('../../bin/script-worker.cjs', import.meta.url);
/** Bundles made for runs from source; under node_modules (whatever cache directory a run uses), so their packages resolve. */
const bundleDir = path.join(cacheRoot, 'connector-codegen', 'emitters');
/** Bundles of other generator versions older than this go (a run of another version may still be loading one). */
const STALE_MS = 10 * 60_000;

/** Bundles being made by this process, by file: runs at once (in one process) share one build. */
const building = new Map<string, Promise<string>>();

/** The bundle of the host's worker: the CLI build's script, else one for this generator `version`, built on first need. */
async function bundle(version: string): Promise<string> {
  if (builtDir && existsSync(path.join(builtDir, `${HOST.name}.cjs`))) return path.join(builtDir, `${HOST.name}.cjs`);
  // Named by where the sources are too: the bundle holds their paths, and a checkout copied with its node_modules
  // must not run the original's.
  const file = path.join(bundleDir, `${HOST.name}-${version.slice(0, 16)}-${sha256(HOST.module).slice(0, 8)}.mjs`);
  if (existsSync(file)) return file;
  let made = building.get(file);
  if (!made) {
    made = makeBundle(file).finally(() => building.delete(file));
    building.set(file, made);
  }
  return made;
}

/** Bundles the host's worker into `file` (written aside, then renamed: other processes may be making it too). */
async function makeBundle(file: string): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(HOST.module)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  await mkdir(bundleDir, { recursive: true });
  const temp = `${file}.${process.pid}.${threadId}.tmp`;
  await writeFile(temp, result.outputFiles[0]!.text);
  await rename(temp, file);
  const now = Date.now();
  for (const old of await readdir(bundleDir)) {
    const full = path.join(bundleDir, old);
    if (old.startsWith(`${HOST.name}-`) && full !== file && now - ((await stat(full).catch(() => undefined))?.mtimeMs ?? now) > STALE_MS) await rm(full, { force: true });
  }
  return file;
}

/** The emitter host as the main thread sees it. */
export interface EmitterHost {
  /**
   * Runs the emitter `name` on `ir` for the connectors `ids` (all of it, whole, when undefined); resolves with its files.
   * The IR is sent once for all the jobs given the same object. `fragments`: the cached fragments of the other
   * connectors (emitters/run.ts runEmitter). `claim`: a counter shared with this thread, from which the host claims
   * the connectors of `ids` one at a time (emitters/run.ts runClaimed), leaving the others to whoever else claims them.
   * `withService`: the emitter's service files too (emitters/run.ts runEmitter).
   */
  emit(name: string, ir: SpecIR, ids: string[] | undefined, cacheDir: string, fragments?: ReadonlyMap<string, string>, claim?: SharedArrayBuffer, withService?: boolean): Promise<EncodedOutput>;
  /** Compiles validator schemas (JSON texts) into their pieces, in order (validators/pieces.ts CompilePieces). */
  compile(schemas: string[]): Promise<Piece[]>;
  /** Stops the worker without waiting; jobs not answered yet are rejected. */
  stop(): void;
}

/** Starts the host's worker (for generator `version`); it waits for jobs. */
export function startEmitterHost(version: string): EmitterHost {
  const pending = new Map<number, { resolve: (answer: HostAnswer) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  /** Connectors' files an emit job sent ahead of its answer (job id → them). */
  const parts = new Map<number, [string, PackedFiles][]>();
  let sentIr: SpecIR | undefined;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  let thread: Worker | undefined;
  let stopped = false;
  const started = bundle(version).then((file) => {
    // The CLI build's script runs with its code cache (bin/script-worker.cjs); a bundle made from source as it is.
    const t = file.endsWith('.cjs') ? new Worker(scriptWorker, { workerData: { script: file }, argv: process.argv.slice(2) }) : new Worker(pathToFileURL(file));
    thread = t;
    t.unref();
    t.on('message', (answer: HostAnswer) => {
      if ('part' in answer) {
        (parts.get(answer.id) ?? parts.set(answer.id, []).get(answer.id)!).push(answer.part);
        return;
      }
      const job = pending.get(answer.id);
      pending.delete(answer.id);
      job?.resolve(answer);
    });
    t.once('error', fail);
    t.once('exit', (code) => fail(new Error(stopped ? 'the emitter host was stopped' : `the emitter host's worker exited with code ${code}`)));
    if (stopped) void t.terminate();
    return t;
  });
  started.catch(() => undefined); // observed by ask()
  const ask = async (request: HostRequest): Promise<HostAnswer> => {
    const t = await started;
    if (failure) throw failure;
    const answer = await new Promise<HostAnswer>((resolve, reject) => {
      pending.set(request.id, { resolve, reject });
      t.postMessage(request);
    });
    if ('error' in answer) throw new Error(answer.error);
    return answer;
  };
  return {
    async emit(name, ir, ids, cacheDir, fragments, claim, withService) {
      const first = sentIr !== ir;
      sentIr = ir;
      const answer = await ask({ id: nextId++, kind: 'emit', name, ids, cacheDir, ...(first ? { ir } : {}), ...(fragments?.size ? { fragments: [...fragments] } : {}), ...(claim ? { claim } : {}), ...(withService ? { service: true } : {}) });
      if (!('shared' in answer)) throw new Error(`internal: the emitter host answered ${name} without files`);
      const streamed = parts.get(answer.id) ?? [];
      parts.delete(answer.id);
      return { shared: unpackFiles(answer.shared), connectors: streamed.map(([id, files]) => [id, unpackFiles(files)]) };
    },
    async compile(schemas) {
      const answer = await ask({ id: nextId++, kind: 'compile', schemas });
      if (!('pieces' in answer)) throw new Error('internal: the emitter host answered a compile without pieces');
      return answer.pieces;
    },
    stop() {
      stopped = true;
      if (thread) void thread.terminate();
    },
  };
}
