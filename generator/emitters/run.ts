/** Running an emitter for an incremental run: its shared files and the files of the connectors whose cache missed. */
import type { SpecIR } from '../ir.js';
import { onlyConnector, serviceOnly, type Emitter, type EmittedFiles } from './types.js';

/** Where a connector's fragment (EmitterSplit.fragment) of emitter `name` sits among its files: never written out. */
export function fragmentPath(name: string): string {
  return `${FRAGMENT_PREFIX}${name}`;
}

/** The emitter whose fragment `rel` is, when it is a fragment path. */
export function fragmentOwner(rel: string): string | undefined {
  return rel.startsWith(FRAGMENT_PREFIX) ? rel.slice(FRAGMENT_PREFIX.length) : undefined;
}

/**
 * How many connectors a concurrent runEmitter has under way at once: enough that the validators of the 15-connector
 * spec ask for all their compiling in one batch, few enough that 8× the spec does not hold every connector's texts.
 */
const CONCURRENT_CONNECTORS = 16;

/** No output path starts with `#`: the writer's paths are package, docs and fixture names. */
const FRAGMENT_PREFIX = '#fragment/';

/** The id runEmitter gives the service files (EmitterSplit.service) it reports as a connector's: no connector id starts with `#`. */
export const SERVICE_FILES = '#service';

/**
 * Runs `emitter` for the connectors `ids`: each one's files go to `onConnector` as soon as they are made (one connector
 * after another, so a caller holds the texts of one at a time), with its fragment among them (at fragmentPath), and
 * its shared files are returned. The shared files read the fragments of the other connectors from `cached` (id → text,
 * from the incremental cache); one missing there is made here. With `withService`, its service files
 * (EmitterSplit.service) go to `onConnector` too, as those of SERVICE_FILES. Whole (everything shared, service files
 * included) when `ids` is undefined or the emitter has no split.
 */
export async function runEmitter(
  emitter: Emitter,
  ir: SpecIR,
  ids: readonly string[] | undefined,
  onConnector: (id: string, files: EmittedFiles) => void,
  cached?: ReadonlyMap<string, string>,
  claim?: Claim,
  /**
   * Starts up to CONCURRENT_CONNECTORS connectors' files at once (their results still go to `onConnector` in order):
   * for an emitter that waits on another thread per connector (validators: compiling), so that work is asked for in
   * one batch rather than one connector after another.
   */
  concurrent = false,
  withService = false,
): Promise<EmittedFiles> {
  const { split } = emitter;
  if (ids && withService && split?.service) onConnector(SERVICE_FILES, await split.service(serviceOnly(ir), ir.connectors.length > 0));
  if (claim) {
    if (!ids) throw new Error(`internal: ${emitter.name} runs whole: its connectors are not shared out`);
    await runClaimed(emitter, ir, ids, claim, onConnector);
    return new Map();
  }
  if (!ids || !split) return emitter.emit(ir);
  const fragments = new Map<string, string>();
  // Concurrent: up to CONCURRENT_CONNECTORS connectors under way ahead of the one awaited (their texts held meanwhile).
  const todo = ir.connectors.filter((c) => ids.includes(c.id));
  const started = new Map<string, EmittedFiles | Promise<EmittedFiles>>();
  let next = 0;
  const startAhead = () => {
    for (; concurrent && next < todo.length && started.size < CONCURRENT_CONNECTORS; next++) {
      const c = todo[next]!;
      const files = split.connector(onlyConnector(ir, c), c);
      void Promise.resolve(files).catch(() => undefined); // awaited below, in order
      started.set(c.id, files);
    }
  };
  for (const c of ir.connectors) {
    if (ids.includes(c.id)) {
      const view = onlyConnector(ir, c);
      startAhead();
      const ahead = started.get(c.id);
      started.delete(c.id);
      const files = await (ahead ?? split.connector(view, c));
      if (split.fragment) {
        const text = split.fragment(view, c);
        fragments.set(c.id, text);
        onConnector(c.id, new Map(files).set(fragmentPath(emitter.name), text));
      } else onConnector(c.id, files);
    } else if (split.fragment) fragments.set(c.id, cached?.get(c.id) ?? split.fragment(onlyConnector(ir, c), c));
  }
  return split.shared ? split.shared(ir, fragments) : new Map<string, string>();
}

/**
 * Hands out the indexes of a list of connectors to the threads that share it, each index once (an Atomics counter in
 * shared memory): an index at or past the list's end means "none left".
 */
export type Claim = () => number;

/** A Claim on a counter (an Int32Array over a SharedArrayBuffer, starting at 0) that several threads share. */
export function claimFrom(counter: Int32Array): Claim {
  return () => Atomics.add(counter, 0, 1);
}

/**
 * Runs a split emitter without shared files for the connectors of `ids` it claims, one at a time, until none is left:
 * threads that share `claim` share the connectors between them (generate.ts: the main thread, done with its own
 * emitters, takes connectors from the emitter host's queue). Each connector's files (and fragment) go to `onConnector`.
 */
export async function runClaimed(
  emitter: Emitter,
  ir: SpecIR,
  ids: readonly string[],
  claim: Claim,
  onConnector: (id: string, files: EmittedFiles) => void,
  /** Lets the thread's other work run between connectors (messages from the host, the emitters awaiting them). */
  yieldEach = false,
): Promise<void> {
  const { split } = emitter;
  if (!split || split.shared || split.service) throw new Error(`internal: ${emitter.name} has shared files: its connectors are not shared out`);
  const byId = new Map(ir.connectors.map((c) => [c.id, c]));
  for (let i = claim(); i < ids.length; i = claim()) {
    const c = byId.get(ids[i]!);
    if (!c) throw new Error(`internal: no connector ${ids[i]} to emit`);
    const view = onlyConnector(ir, c);
    const files = await split.connector(view, c);
    onConnector(c.id, split.fragment ? new Map(files).set(fragmentPath(emitter.name), split.fragment(view, c)) : files);
    if (yieldEach) await new Promise((resolve) => setImmediate(resolve));
  }
}
