/** The worker side of emitter-thread.ts: receives the IR and the connectors to emit once, answers with the files. */
import { parentPort } from 'node:worker_threads';
import type { SpecIR } from '../ir.js';
import { runEmitter } from './run.js';
import type { Emitter } from './types.js';

/** Serves one request for `emitter` on this worker's port. */
export function serveEmitter(emitter: Emitter): void {
  parentPort!.once('message', async ({ ir, ids }: { ir: SpecIR; ids?: string[] }) => {
    try {
      const { shared, connectors } = await runEmitter(emitter, ir, ids);
      parentPort!.postMessage({ shared: [...shared], connectors: connectors.map(([id, files]) => [id, [...files]]) });
    } catch (error) {
      parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) });
    }
  });
}
