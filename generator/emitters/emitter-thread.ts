/**
 * Runs an emitter in a worker thread. The worker loads a plain ES module bundled by esbuild from the emitter's
 * TypeScript (tsx's loader costs the worker more CPU than the emitter itself does, measured) — bundled once per
 * generator version and kept in the cache, so a run only bundles after the generator changed. Each module's
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

/** Under node_modules (whatever cache directory a run uses), so the bundles' packages resolve. */
const bundleDir = fileURLToPath(new URL('../../node_modules/.cache/connector-codegen/emitters/', import.meta.url));
/** Bundles of other generator versions older than this go (a run of another version may still be loading one). */
const STALE_MS = 10 * 60_000;

/** The bundle of the emitter for this generator `version`, building it on first need. */
async function bundle(worker: { module: string; exportName: string }, version: string): Promise<string> {
  const file = path.join(bundleDir, `${worker.exportName}-${version.slice(0, 16)}.mjs`);
  if (existsSync(file)) return file;
  const { build } = await import('esbuild');
  const serve = fileURLToPath(new URL('./emitter-worker.ts', import.meta.url));
  const result = await build({
    stdin: {
      contents: `import { ${worker.exportName} } from ${JSON.stringify(fileURLToPath(worker.module))};\nimport { serveEmitter } from ${JSON.stringify(serve)};\nserveEmitter(${worker.exportName});\n`,
      resolveDir: path.dirname(serve),
      sourcefile: `${worker.exportName}-worker.ts`,
      loader: 'ts',
    },
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
    if (old.startsWith(`${worker.exportName}-`) && full !== file && now - ((await stat(full).catch(() => undefined))?.mtimeMs ?? now) > STALE_MS) await rm(full, { force: true });
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
export function startEmitterThread(worker: { module: string; exportName: string }, version: string): EmitterThread {
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
          t.once('exit', (code) => reject(new Error(`emitter worker ${worker.exportName} exited with code ${code}`)));
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
