/** Emits the TypeScript sources of one package per connector: types, client, param schemas, index. */
import { clientFile } from './client-file.js';
import { indexFile } from './index-file.js';
import { paramsFile } from './params-file.js';
import { typesFile } from './types-file.js';
import type { Emitter } from '../types.js';

/** The sources under generated/<id>/src/ (package files: the packages emitter; validators: their own emitter). */
export const clientsEmitter: Emitter = {
  name: 'clients',
  formatted: true,
  emit(ir) {
    const files = new Map<string, string>();
    for (const connector of ir.connectors) {
      files.set(`${connector.id}/src/types.ts`, typesFile(connector));
      files.set(`${connector.id}/src/client.ts`, clientFile(ir, connector));
      files.set(`${connector.id}/src/params.ts`, paramsFile(ir, connector));
      files.set(`${connector.id}/src/index.ts`, indexFile(ir, connector));
    }
    return files;
  },
};
