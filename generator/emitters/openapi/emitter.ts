/**
 * Emits the OpenAPI 3.1 export, committed and diffable: generated/openapi/<connector id>.json (one document per
 * connector) and generated/openapi/index.json (the list of them).
 */
import { splitEmitter } from '../types.js';
import { buildOpenApi, openApiJson } from './document.js';
import { documentFile, INDEX_FILE, OPENAPI_DIR, openApiIndexJson } from './export-index.js';

/** Writes generated/openapi/. */
export const openapiEmitter = splitEmitter({
  name: 'openapi',
  connector: (ir, c) => new Map([[`${OPENAPI_DIR}/${documentFile(c.id)}`, openApiJson(buildOpenApi(ir, c))]]),
  shared: (ir) => new Map([[`${OPENAPI_DIR}/${INDEX_FILE}`, openApiIndexJson(ir)]]),
});
