/**
 * The clients emitter's worker thread (see emitters/index.ts): its work overlaps the main thread's. The CLI build
 * (bin/cli-build.mjs) bundles every `emitters/<name>/worker.ts` as an entry of its own, so a run starts the worker
 * without bundling anything.
 */
import { serveEmitter } from '../emitter-worker.js';
import { clientsEmitter } from './emitter.js';

serveEmitter(clientsEmitter);
