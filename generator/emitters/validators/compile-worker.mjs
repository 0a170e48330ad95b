// Compiles JSON Schemas into ajv standalone ESM code, in a worker thread so it runs beside the main thread's
// emitters. Plain JavaScript on purpose: a worker gets no TypeScript loader.
// Input (first message): [{ key, schemas: [[id, schema]...], exports: { exportName: id } }]
// Output (message):      [{ key, code }]
// It starts before the spec is read, so loading ajv overlaps the main thread's work.
import { parentPort } from 'node:worker_threads';
import { Ajv } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

parentPort.once('message', (jobs) => parentPort.postMessage(jobs.map(compile)));

function compile(job) {
  // No `verbose`: the runtime reads the offending value from the data by the error's pointer (verbose doubles
  // the code and costs a third of the compile time).
  // No optimizer pass either: it costs a quarter of the compile time for a tenth less code.
  const ajv = new Ajv({ code: { source: true, esm: true, lines: true, optimize: false }, allErrors: true, strict: false });
  for (const [id, schema] of job.schemas) ajv.addSchema(schema, id);
  return { key: job.key, code: standaloneCode(ajv, job.exports) };
}
