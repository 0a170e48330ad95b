/** Running an emitter for an incremental run: its shared files and the files of the connectors whose cache missed. */
import type { SpecIR } from '../ir.js';
import { onlyConnector, type Emitter, type EmittedFiles } from './types.js';

/** What one emitter gave: files that read every connector, and the files of each connector asked for. */
export interface EmitterOutput {
  /** Files not owned by one connector (all of an emitter without a split). */
  shared: EmittedFiles;
  /** Connector id → that connector's files, for the connectors asked for. */
  connectors: [string, EmittedFiles][];
}

/**
 * Runs `emitter` for the connectors `ids` and its shared files; whole (everything shared) when `ids` is undefined or
 * the emitter has no split. With `onConnector`, each connector's files go to it as soon as they are made (one
 * connector after another) instead of into the output: the emitter host streams them to the main thread.
 */
export async function runEmitter(emitter: Emitter, ir: SpecIR, ids?: readonly string[], onConnector?: (id: string, files: EmittedFiles) => void): Promise<EmitterOutput> {
  const { split } = emitter;
  if (!ids || !split) return { shared: await emitter.emit(ir), connectors: [] };
  const chosen = ir.connectors.filter((c) => ids.includes(c.id));
  if (onConnector) {
    for (const c of chosen) onConnector(c.id, await split.connector(onlyConnector(ir, c), c));
    return { shared: split.shared ? await split.shared(ir) : new Map<string, string>(), connectors: [] };
  }
  const [shared, ...own] = await Promise.all([split.shared ? split.shared(ir) : new Map<string, string>(), ...chosen.map((c) => split.connector(onlyConnector(ir, c), c))]);
  return { shared: shared!, connectors: chosen.map((c, i) => [c.id, own[i]!]) };
}
