/** Emits generated/openapi.json, the OpenAPI 3.1 document of the service, so it is committed and diffable. */
import type { Emitter } from '../types.js';
import { openApiJson } from './document.js';

/** Path of the document inside the output directory. */
export const OPENAPI_FILE = 'openapi.json';

/** Writes generated/openapi.json. */
export const openapiEmitter: Emitter = {
  name: 'openapi',
  emit(ir) {
    return new Map([[OPENAPI_FILE, openApiJson(ir)]]);
  },
};
