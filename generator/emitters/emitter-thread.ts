/**
 * Runs an emitter in a worker thread. The worker loads a plain ES module bundled by esbuild from the emitter's
 * `worker.ts` (tsx's loader costs the worker more CPU than the emitter itself does, measured). The CLI build
 * (bin/cli-build.mjs) bundles every `emitters/<name>/worker.ts` beside the CLI, so a run from the CLI bundles nothing;
 * a run from source (tests, tsx) bundles the worker once per generator version into a cache of its own. Each module's
 * `import.meta.url` is kept as its own file URL, so paths relative to a source file still resolve.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpecIR } from '../ir.js';
import { ownImportMetaUrl } from '../lib/own-import-meta-url.mjs';
import type { EmitterOutput } from './run.js';

/** An emitter that runs in a worker thread. */
export interface EmitterWorker {
  /** The emitter's folder name: its bundle in the CLI build is `workers/<name>.mjs`. */
  name: string;
  /** File URL of the `worker.ts` module that serves the emitter (emitter-worker.ts). */
  module: string;
}

/** Set by the CLI build (esbuild `define`) to the build's directory name; undeclared when running from source. */
declare const CONNECTOR_CODEGEN_CLI_BUILD: string | undefined;

const cacheRoot = fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url));
/** The worker bundles of the CLI build this module belongs to, if it belongs to one. */
const builtDir = typeof CONNECTOR_CODEGEN_CLI_BUILD === 'string' ? path.join(cacheRoot, 'connector-codegen-cli', CONNECTOR_CODEGEN_CLI_BUILD, 'workers') : undefined;
/** Bundles made for runs from source; under node_modules (whatever cache directory a run uses), so their packages resolve. */
const bundleDir = path.join(cacheRoot, 'connector-codegen', 'emitters');
/** Bundles of other generator versions older than this go (a run of another version may still be loading one). */
const STALE_MS = 10 * 60_000;

/** The bundle of the emitter's worker: the CLI build's, else one for this generator `version`, built on first need. */
async function bundle(worker: EmitterWorker, version: string): Promise<string> {
  if (builtDir && existsSync(path.join(builtDir, `${worker.name}.mjs`))) return path.join(builtDir, `${worker.name}.mjs`);
  const file = path.join(bundleDir, `${worker.name}-${version.slice(0, 16)}.mjs`);
  if (existsSync(file)) return file;
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(worker.module)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  await mkdir(bundleDir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, result.outputFiles[0]!.text);
  await rename(temp, file);
  const now = Date.now();
  for (const old of await readdir(bundleDir)) {
    const full = path.join(bundleDir, old);
    if (old.startsWith(`${worker.name}-`) && full !== file && now - ((await stat(full).catch(() => undefined))?.mtimeMs ?? now) > STALE_MS) await rm(full, { force: true });
  }
  return file;
}

/** An emitter running in a worker: give it the IR once, get its files back. */
export interface EmitterThread {
  /** Sends the IR and the connectors to emit (all of it, whole, when `ids` is undefined); resolves with the files. */
  emit(ir: SpecIR, ids?: string[]): Promise<EmitterOutput>;
  /** Stops the worker without waiting (when the run failed before emitting). */
  stop(): void;
}

/** Starts a worker on the emitter's bundle (for generator `version`) that waits for the IR. */
export function startEmitterThread(worker: EmitterWorker, version: string): EmitterThread {
  let thread: Worker | undefined;
  let stopped = false;
  const started = bundle(worker, version).then((file) => {
    thread = new Worker(pathToFileURL(file));
    thread.unref();
    if (stopped) void thread.terminate();
    return thread;
  });
  started.catch(() => undefined); // observed in emit()
  return {
    async emit(ir, ids) {
      const t = await started;
      try {
        return await new Promise<EmitterOutput>((resolve, reject) => {
          t.once('message', (message: { shared?: [string, string][]; connectors?: [string, [string, string][]][]; error?: string }) => {
            if (message.error !== undefined) reject(new Error(message.error));
            else resolve({ shared: new Map(message.shared), connectors: message.connectors!.map(([id, files]) => [id, new Map(files)]) });
          });
          t.once('error', reject);
          t.once('exit', (code) => reject(new Error(`emitter worker ${worker.name} exited with code ${code}`)));
          t.postMessage(ids ? { ir, ids } : { ir });
        });
      } finally {
        void t.terminate();
      }
    },
    stop() {
      stopped = true;
      if (thread) void thread.terminate();
    },
  };
}
