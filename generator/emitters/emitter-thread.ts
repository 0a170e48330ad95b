/**
 * Runs an emitter in a worker thread. As soon as `generate` begins, esbuild (in its own process) bundles the
 * emitter's TypeScript into one plain ES module; the worker loads that and waits for the IR. A bundle, not tsx in
 * the worker: tsx's loader costs the worker more CPU than the emitter itself does (measured). Each module's
 * `import.meta.url` is kept as its own file URL, so paths relative to a source file still resolve.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SpecIR } from '../ir.js';
import { ownImportMetaUrl } from '../lib/own-import-meta-url.mjs';

const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/connector-codegen/', import.meta.url));

/** Worker glue appended to the bundle: take the IR, emit, send the files back. */
const GLUE = (exportName: string) => `
import { parentPort as __parentPort } from 'node:worker_threads';
__parentPort.once('message', async (ir) => {
  try {
    const files = await ${exportName}.emit(ir);
    __parentPort.postMessage({ files: [...files] });
  } catch (error) {
    __parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** Bundles the emitter's module into a temp file (under node_modules, so its packages resolve). */
async function bundle(worker: { module: string; exportName: string }): Promise<string> {
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
  await mkdir(cacheDir, { recursive: true });
  const file = path.join(cacheDir, `emitter-${worker.exportName}-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, `${result.outputFiles[0]!.text}\n${GLUE(worker.exportName)}`);
  return file;
}

/** An emitter running in a worker: give it the IR once, get its files back. */
export interface EmitterThread {
  /** Sends the IR; resolves with the files. */
  emit(ir: SpecIR): Promise<Map<string, string>>;
  /** Stops the worker without waiting (when the run failed before emitting). */
  stop(): void;
}

/** Bundles `module` and starts a worker on it that waits for the IR. */
export function startEmitterThread(worker: { module: string; exportName: string }): EmitterThread {
  let thread: Worker | undefined;
  let stopped = false;
  const started = bundle(worker).then((file) => {
    thread = new Worker(pathToFileURL(file));
    thread.unref();
    // The bundle is not kept: it goes when the worker ends, however it ends.
    thread.once('exit', () => void rm(file, { force: true }));
    if (stopped) void thread.terminate();
    return thread;
  });
  started.catch(() => undefined); // observed in emit()
  return {
    async emit(ir) {
      const t = await started;
      try {
        return await new Promise<Map<string, string>>((resolve, reject) => {
          t.once('message', (message: { files?: [string, string][]; error?: string }) => {
            if (message.error !== undefined) reject(new Error(message.error));
            else resolve(new Map(message.files));
          });
          t.once('error', reject);
          t.once('exit', (code) => reject(new Error(`emitter worker ${worker.exportName} exited with code ${code}`)));
          t.postMessage(ir);
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
