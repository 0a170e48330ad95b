/**
 * Where each schema's piece (piece.mjs) comes from: this process's memory, the cache directory (piece-cache.ts), or
 * the compiler — each distinct schema compiled once however many connectors (or clones of them) use it. The schemas
 * asked for in one turn of the event loop (every connector of a run asks at once) that are in no cache are compiled
 * together: on the emitter host, or here when they are few, or on a worker started only then (compileNearby); a run
 * whose schemas are all cached loads no ajv at all.
 */
import { addToRunKind } from '../../lib/run-kind.js';
import { workerThreads } from '../../lib/worker-threads.js';
import type { Piece } from './piece.mjs';
import { PieceCache, pieceKey } from './piece-cache.js';

/** Compiles schemas (as JSON text) into their pieces, in order. */
export type CompilePieces = (schemas: string[]) => Promise<Piece[]>;

/** Pieces kept in memory, per cache directory (the oldest go beyond it; ~7 KB each). */
const MEMORY_ENTRIES = 2000;

interface Pending {
  key: string;
  json: string;
  compile: CompilePieces;
  resolve: (piece: Piece) => void;
  reject: (error: unknown) => void;
}

/** The pieces of one cache directory, compiled by `compile` when missing. */
export class PieceSource {
  readonly #cache: PieceCache | undefined;
  readonly #compile: CompilePieces;
  readonly #memory = new Map<string, Promise<Piece>>();
  #queue: Pending[] = [];
  /** Cache writes under way: the pieces are handed out before they are stored. */
  readonly #writes = new Set<Promise<void>>();

  /** `cacheDir` undefined: memory only. */
  constructor(cacheDir: string | undefined, compile: CompilePieces) {
    this.#cache = cacheDir === undefined ? undefined : new PieceCache(cacheDir);
    this.#compile = compile;
  }

  /** The piece of a schema, given as its JSON text; compiled by `compile` (default: the source's) when missing. */
  piece(json: string, compile: CompilePieces = this.#compile): Promise<Piece> {
    const key = pieceKey(json);
    const known = this.#memory.get(key);
    if (known) return known;
    const cache = this.#cache;
    const hit = cache?.has(key) ? cache.read(key) : undefined;
    const piece = hit ? Promise.resolve(hit) : this.#compiled(key, json, compile);
    this.#memory.set(key, piece);
    piece.catch(() => this.#memory.delete(key));
    if (this.#memory.size > MEMORY_ENTRIES) this.#memory.delete(this.#memory.keys().next().value!);
    return piece;
  }

  #compiled(key: string, json: string, compile: CompilePieces): Promise<Piece> {
    return new Promise((resolve, reject) => {
      if (this.#queue.push({ key, json, compile, resolve, reject }) === 1) setImmediate(() => this.#flushAll());
    });
  }

  /** Compiles what the queue holds, one batch per compiler asked. */
  #flushAll(): void {
    const queued = this.#queue.splice(0);
    for (const compile of new Set(queued.map((p) => p.compile))) void this.#flush(compile, queued.filter((p) => p.compile === compile));
  }

  async #flush(compile: CompilePieces, batch: Pending[]): Promise<void> {
    try {
      const pieces = await compile(batch.map((p) => p.json));
      batch.forEach((p, i) => p.resolve(pieces[i]!));
      if (!this.#cache) return;
      const write = this.#cache.write(batch.map((p, i) => [p.key, pieces[i]!] as const));
      this.#writes.add(write);
      void write.finally(() => this.#writes.delete(write));
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }

  /** Resolves when the pieces compiled so far are stored. */
  async stored(): Promise<void> {
    await Promise.all(this.#writes);
  }
}

/**
 * Compiles on a worker thread of its own: for a run without an emitter host (emitter-host.ts, which compiles on its
 * worker when a run has one) that has many schemas to compile (compileNearby). The worker loads ajv from source
 * (~150 ms of CPU before it compiles anything), which pays only beside a lot of compiling.
 */
export const compileInWorker: CompilePieces = (schemas) =>
  new Promise((resolve, reject) => {
    const { Worker } = workerThreads();
    const worker = new Worker(new URL('./compile-worker.mjs', import.meta.url));
    worker.unref();
    worker.once('message', (pieces: Piece[]) => {
      resolve(pieces);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`validator compiler exited with code ${code}`)));
    worker.postMessage(schemas);
  });

/**
 * The most schemas compileNearby compiles in the calling thread: about one connector's (a connector has 10–40). Each
 * takes ~1 ms to compile; a worker of its own costs ~150 ms of CPU to start and load ajv.
 */
export const IN_THREAD_MAX_SCHEMAS = 64;

/**
 * Compiles for a run without an emitter host at the least CPU: a few schemas (a structural edit of a connector changes
 * one to a few) in this thread, a batch larger than IN_THREAD_MAX_SCHEMAS on a worker. The run's kind notes the
 * compiling, so the CLI's code cache comes to hold ajv's code (bin/code-cache.cjs).
 */
export const compileNearby: CompilePieces = (schemas) => {
  if (schemas.length > IN_THREAD_MAX_SCHEMAS) return compileInWorker(schemas);
  addToRunKind('compile');
  return compileInThread(schemas);
};

/** Compiles in this thread (tests that generate many small specs: no worker start-up per run). */
export const compileInThread: CompilePieces = async (schemas) => {
  const { compilePieces } = await import('./compile.mjs');
  return compilePieces(schemas.map((json) => JSON.parse(json) as object));
};
