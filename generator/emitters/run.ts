/** Running an emitter for an incremental run: its shared files and the files of the connectors whose cache missed. */
import type { SpecIR } from '../ir.js';
import { onlyConnector, type Emitter, type EmittedFiles } from './types.js';

/**
 * Runs `emitter` for the connectors `ids`: each one's files go to `onConnector` as soon as they are made (one connector
 * after another, so a caller holds the texts of one at a time), and its shared files are returned. Whole (everything
 * shared) when `ids` is undefined or the emitter has no split.
 */
export async function runEmitter(emitter: Emitter, ir: SpecIR, ids: readonly string[] | undefined, onConnector: (id: string, files: EmittedFiles) => void): Promise<EmittedFiles> {
  const { split } = emitter;
  if (!ids || !split) return emitter.emit(ir);
  for (const c of ir.connectors) if (ids.includes(c.id)) onConnector(c.id, await split.connector(onlyConnector(ir, c), c));
  return split.shared ? split.shared(ir) : new Map<string, string>();
}
