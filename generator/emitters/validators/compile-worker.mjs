// Compiles JSON Schemas into ajv standalone ESM code, in a worker thread so it runs beside the main thread's
// emitters. Plain JavaScript on purpose: a worker gets no TypeScript loader.
// Input (workerData): [{ key, schemas: [[id, schema]...], exports: { exportName: id } }]
// Output (message):   [{ key, code }]
import { parentPort, workerData } from 'node:worker_threads';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

const results = workerData.map((job) => {
  // verbose: errors carry the offending value, so ParamValidationError can name it.
  const ajv = new Ajv({ code: { source: true, esm: true, lines: true }, allErrors: true, verbose: true, strict: false });
  for (const [id, schema] of job.schemas) ajv.addSchema(schema, id);
  return { key: job.key, code: standaloneCode(ajv, job.exports) };
});
parentPort.postMessage(results);
