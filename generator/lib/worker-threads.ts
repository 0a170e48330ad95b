/**
 * node:worker_threads loaded on first use: most runs that load a module able to start a worker (the formatter, the
 * validators' compiler) start none — a one-connector edit formats nothing new and compiles its few schemas, if any, in
 * its own thread — and loading the module costs ~2 ms of CPU.
 */
import { createRequire } from 'node:module';

let loaded: typeof import('node:worker_threads') | undefined;

/** node:worker_threads, loaded now if it was not. */
export function workerThreads(): typeof import('node:worker_threads') {
  return (loaded ??= createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads'));
}
