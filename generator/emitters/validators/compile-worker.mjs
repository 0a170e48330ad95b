// The validator compiler's worker thread: receives a batch of schemas as JSON text (first message), answers with
// their pieces.
import { parentPort } from 'node:worker_threads';
import { compilePieces } from './compile.mjs';

parentPort.once('message', (schemas) => parentPort.postMessage(compilePieces(schemas.map((json) => JSON.parse(json)))));
