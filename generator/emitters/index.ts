/**
 * Every emitter, where it runs, and how to load it. Entries are loaded lazily so the main thread never imports what
 * runs elsewhere: the clients emitter (the largest share of printing) runs in a worker thread, so its work overlaps
 * the main thread's; validators compile in workers of their own.
 */
import type { EmitterWorker } from './emitter-thread.js';
import type { Emitter, Formatted } from './types.js';

/** What a run tells the emitters it loads. */
export interface EmitterContext {
  /** The run's cache directory (generate.ts cacheDirOf): an emitter with a cache of its own keeps it under it. */
  cacheDir: string;
}

/** One emitter of `generate`. */
export interface EmitterEntry {
  /** Name shown by --timings. */
  name: string;
  /** Loads the emitter (in the thread that runs it); without a context, caches live in the default directory. */
  load: (context?: EmitterContext) => Promise<Emitter>;
  /** When set, the emitter runs in a worker thread: its `worker.ts` module, which serves it (see emitter-thread.ts). */
  worker?: EmitterWorker;
  /** Emitter.formatted of an emitter that runs in a worker (the main thread does not load it). */
  formatted?: Formatted;
  /** Of an emitter that runs in a worker: whether it has a split (Emitter.split), and whether that has shared files. */
  split?: { shared: boolean };
}

/** The emitters of `generate`, in the order they start (files are distinct; the writer sorts them). */
export const emitterEntries: EmitterEntry[] = [
  // Off-thread work first, so it has its input before the main thread gets busy.
  {
    name: 'clients',
    load: async () => (await import('./clients/emitter.js')).clientsEmitter,
    worker: { name: 'clients', module: new URL('./clients/worker.ts', import.meta.url).href },
    formatted: true,
    split: { shared: false },
  },
  {
    name: 'validators',
    load: async (context) => {
      const { validatorsEmitter, validatorsEmitterFor } = await import('./validators/index.js');
      return context ? validatorsEmitterFor(context.cacheDir) : validatorsEmitter;
    },
  },
  { name: 'packages', load: async () => (await import('./packages/emitter.js')).packagesEmitter },
  { name: 'catalogue', load: async () => (await import('./catalogue/emitter.js')).catalogueEmitter },
  { name: 'fixtures', load: async () => (await import('./fixtures/emitter.js')).fixturesEmitter },
  { name: 'contract-tests', load: async () => (await import('./contract-tests/emitter.js')).contractTestsEmitter },
  { name: 'docs', load: async () => (await import('./docs/index.js')).docsEmitter },
  { name: 'openapi', load: async () => (await import('./openapi/emitter.js')).openapiEmitter },
  { name: 'tools', load: async () => (await import('./tools/emitter.js')).toolsEmitter },
];

/** Every emitter, loaded in this thread (tests and custom runs). */
export async function loadEmitters(): Promise<Emitter[]> {
  return Promise.all(emitterEntries.map((e) => e.load()));
}
