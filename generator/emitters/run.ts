/** Running an emitter for an incremental run: its shared files and the files of the connectors whose cache missed. */
import type { SpecIR } from '../ir.js';
import { onlyConnector, type Emitter, type EmittedFiles } from './types.js';

/** Where a connector's fragment (EmitterSplit.fragment) of emitter `name` sits among its files: never written out. */
export function fragmentPath(name: string): string {
  return `${FRAGMENT_PREFIX}${name}`;
}

/** The emitter whose fragment `rel` is, when it is a fragment path. */
export function fragmentOwner(rel: string): string | undefined {
  return rel.startsWith(FRAGMENT_PREFIX) ? rel.slice(FRAGMENT_PREFIX.length) : undefined;
}

/** No output path starts with `#`: the writer's paths are package, docs and fixture names. */
const FRAGMENT_PREFIX = '#fragment/';

/**
 * Runs `emitter` for the connectors `ids`: each one's files go to `onConnector` as soon as they are made (one connector
 * after another, so a caller holds the texts of one at a time), with its fragment among them (at fragmentPath), and
 * its shared files are returned. The shared files read the fragments of the other connectors from `cached` (id → text,
 * from the incremental cache); one missing there is made here. Whole (everything shared) when `ids` is undefined or
 * the emitter has no split.
 */
export async function runEmitter(
  emitter: Emitter,
  ir: SpecIR,
  ids: readonly string[] | undefined,
  onConnector: (id: string, files: EmittedFiles) => void,
  cached?: ReadonlyMap<string, string>,
): Promise<EmittedFiles> {
  const { split } = emitter;
  if (!ids || !split) return emitter.emit(ir);
  const fragments = new Map<string, string>();
  for (const c of ir.connectors) {
    if (ids.includes(c.id)) {
      const view = onlyConnector(ir, c);
      const files = await split.connector(view, c);
      if (split.fragment) {
        const text = split.fragment(view, c);
        fragments.set(c.id, text);
        onConnector(c.id, new Map(files).set(fragmentPath(emitter.name), text));
      } else onConnector(c.id, files);
    } else if (split.fragment) fragments.set(c.id, cached?.get(c.id) ?? split.fragment(onlyConnector(ir, c), c));
  }
  return split.shared ? split.shared(ir, fragments) : new Map<string, string>();
}
