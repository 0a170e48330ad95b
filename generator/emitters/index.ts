/**
 * Every emitter, where it runs, and how to load it. Entries are loaded lazily so the main thread never imports what
 * runs elsewhere: a run with many connectors to emit runs the `offThread` emitters (and compiles validators) on the
 * emitter host's worker thread (emitter-host.ts), so that work overlaps the main thread's.
 */
import type { Emitter, Formatted } from './types.js';
import type { CompilePieces } from './validators/pieces.js';

/** What a run tells the emitters it loads. */
export interface EmitterContext {
  /** The run's cache directory (generate.ts cacheDirOf): an emitter with a cache of its own keeps it under it. */
  cacheDir: string;
  /** Compiles validator schemas on the run's emitter host, when it has one (default: a worker of the validators' own). */
  compile?: CompilePieces;
}

/** One emitter of `generate`. */
export interface EmitterEntry {
  /** Name shown by --timings. */
  name: string;
  /** Loads the emitter (in the thread that runs it); without a context, caches live in the default directory. */
  load: (context?: EmitterContext) => Promise<Emitter>;
  /**
   * Runs on the emitter host's worker when it has more than a few connectors to emit (generate.ts): its work is
   * large and needs nothing of the main thread's but the IR.
   */
  offThread?: boolean;
  /** Emitter.formatted of an off-thread emitter (the main thread does not load it). */
  formatted?: Formatted;
  /**
   * Whether the emitter has a split (Emitter.split), and whether that has shared files: a split emitter without shared
   * files is not even loaded by a run where no connector needs it (generate.ts).
   */
  split?: { shared: boolean; service?: boolean };
  /**
   * `false`: the emitter's files and fragment of a connector do not depend on any `description` of the connector's IR
   * (test/description-blind.test.ts checks it), so an edit of descriptions alone keeps them from the cache's structure
   * entries (cache/connector-cache.ts) and the emitter does not run for that connector.
   */
  readsDescriptions?: false;
  /**
   * Of a main-thread emitter: it gives the emitter host work of its own and waits for it (validators: compiling), so
   * it starts before the off-thread emitters are sent, and its jobs run first.
   */
  asksHost?: boolean;
}

/** The emitters of `generate`, in the order they start (files are distinct; the writer sorts them). */
export const emitterEntries: EmitterEntry[] = [
  // Off-thread work first, so it has its input before the main thread gets busy.
  {
    name: 'clients',
    load: async () => (await import('./clients/emitter.js')).clientsEmitter,
    offThread: true,
    formatted: true,
    split: { shared: false },
  },
  {
    name: 'tools',
    load: async () => (await import('./tools/emitter.js')).toolsEmitter,
    offThread: true,
    formatted: true,
    split: { shared: true },
  },
  {
    name: 'contract-tests',
    load: async () => (await import('./contract-tests/emitter.js')).contractTestsEmitter,
    offThread: true,
    formatted: true,
    split: { shared: false },
    readsDescriptions: false,
  },
  {
    name: 'validators',
    asksHost: true,
    split: { shared: false },
    readsDescriptions: false,
    load: async (context) => {
      const { validatorsEmitter, validatorsEmitterFor } = await import('./validators/index.js');
      return context ? validatorsEmitterFor(context.cacheDir, context.compile) : validatorsEmitter;
    },
  },
  {
    name: 'packages',
    load: async () => (await import('./packages/emitter.js')).packagesEmitter,
    split: { shared: true, service: true },
  },
  {
    name: 'catalogue',
    load: async () => (await import('./catalogue/emitter.js')).catalogueEmitter,
    split: { shared: true },
  },
  {
    name: 'fixtures',
    load: async () => (await import('./fixtures/emitter.js')).fixturesEmitter,
    split: { shared: false },
    readsDescriptions: false,
  },
  { name: 'docs', load: async () => (await import('./docs/index.js')).docsEmitter, split: { shared: true } },
  { name: 'openapi', load: async () => (await import('./openapi/emitter.js')).openapiEmitter, split: { shared: true } },
];

/** Every emitter, loaded in this thread (tests and custom runs). */
export async function loadEmitters(): Promise<Emitter[]> {
  return Promise.all(emitterEntries.map((e) => e.load()));
}
