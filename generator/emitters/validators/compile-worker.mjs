// The validator compiler's worker thread: receives jobs (first message), answers with the compiled code. It starts
// before the spec is read, so loading ajv overlaps the main thread's work.
import { parentPort } from 'node:worker_threads';
import { compile } from './compile.mjs';

parentPort.once('message', (jobs) => parentPort.postMessage(jobs.map(compile)));
