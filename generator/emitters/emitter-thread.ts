/**
 * Runs an emitter in a worker thread: the worker starts (and imports the emitter's modules) as soon as `generate`
 * begins, waits for the IR, emits, and sends the files back. The IR is plain data, so it crosses as a structured
 * clone. A worker gets no TypeScript loader of its own, so it registers tsx first.
 */
import { Worker } from 'node:worker_threads';
import type { SpecIR } from '../ir.js';

// Evaluated code resolves bare specifiers from the working directory, so tsx comes by absolute URL.
const WORKER_SOURCE = `
import { parentPort, workerData } from 'node:worker_threads';
const { register } = await import(workerData.tsx);
register();
const emitter = (await import(workerData.module))[workerData.exportName];
parentPort.once('message', async (ir) => {
  try {
    const files = await emitter.emit(ir);
    parentPort.postMessage({ files: [...files] });
  } catch (error) {
    parentPort.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** An emitter running in a worker: give it the IR once, get its files back. */
export interface EmitterThread {
  /** Sends the IR; resolves with the files. */
  emit(ir: SpecIR): Promise<Map<string, string>>;
  /** Stops the worker without waiting (when the run failed before emitting). */
  stop(): void;
}

/** Starts a worker that loads `module` and waits for the IR. */
export function startEmitterThread(worker: { module: string; exportName: string }): EmitterThread {
  const thread = new Worker(WORKER_SOURCE, { eval: true, workerData: { ...worker, tsx: import.meta.resolve('tsx/esm/api') } });
  thread.unref();
  const failed = new Promise<never>((_, reject) => {
    thread.once('error', reject);
    thread.once('exit', (code) => reject(new Error(`emitter worker ${worker.exportName} exited with code ${code}`)));
  });
  failed.catch(() => undefined); // observed in emit(); a stopped worker must not raise an unhandled rejection
  return {
    emit(ir) {
      const answer = new Promise<Map<string, string>>((resolve, reject) => {
        thread.once('message', (message: { files?: [string, string][]; error?: string }) => {
          if (message.error !== undefined) reject(new Error(message.error));
          else resolve(new Map(message.files));
        });
      });
      thread.postMessage(ir);
      return Promise.race([answer, failed]).finally(() => void thread.terminate());
    },
    stop() {
      void thread.terminate();
    },
  };
}
