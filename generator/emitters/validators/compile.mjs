// Compiles one connector's JSON Schemas into ajv standalone ESM code. Plain JavaScript on purpose: it also runs in
// a worker thread, which gets no TypeScript loader. The same options everywhere, so output is the same whichever
// thread compiles it.
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';

const standaloneCode = standaloneModule.default ?? standaloneModule;

/**
 * @param {{ key: string, schemas: [string, object][], exports: Record<string, string> }} job
 * @returns {{ key: string, code: string }}
 */
export function compile(job) {
  // No `verbose`: the runtime reads the offending value from the data by the error's pointer (verbose doubles the
  // code and costs a third of the compile time). No optimizer pass: it costs a quarter of the compile time for a
  // tenth less code.
  const ajv = new Ajv({ code: { source: true, esm: true, lines: true, optimize: false }, allErrors: true, strict: false, validateSchema: false });
  for (const [id, schema] of job.schemas) ajv.addSchema(schema, id);
  return { key: job.key, code: standaloneCode(ajv, job.exports) };
}
