// Compiles JSON Schemas into pieces (piece.mjs) of ajv standalone ESM code, one per schema. Plain JavaScript on
// purpose: it also runs in a worker thread, which gets no TypeScript loader. The same options everywhere, and a
// piece does not depend on what else was compiled, so output is the same whichever thread compiles what.
import { Ajv } from 'ajv';
import standaloneModule from 'ajv/dist/standalone/index.js';
import { pieceOf } from './piece.mjs';

const standaloneCode = standaloneModule.default ?? standaloneModule;

/** ajv evaluates the code it writes into a function; the standalone code is written before that, so that is skipped. */
const notEvaluated = () => 'return function validate() {}';

/**
 * @param {object[]} schemas
 * @returns {import('./piece.mjs').Piece[]}
 */
export function compilePieces(schemas) {
  return schemas.map((schema) => {
    // No `verbose`: the runtime reads the offending value from the data by the error's pointer (verbose doubles the
    // code and costs a third of the compile time). No optimizer pass: it costs a quarter of the compile time for a
    // tenth less code. An instance per schema: its names start at 0, whatever was compiled before. No meta-schema:
    // our schemas are not validated against it (validateSchema: false), and adding it was a third of an instance's cost.
    const ajv = new Ajv({ meta: false, code: { source: true, esm: true, lines: true, optimize: false, process: notEvaluated }, allErrors: true, strict: false, validateSchema: false });
    ajv.addSchema(schema, 'schema');
    return pieceOf(standaloneCode(ajv, { schema: 'schema' }));
  });
}
