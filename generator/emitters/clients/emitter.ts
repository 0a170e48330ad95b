/** Emits the TypeScript sources of one package per connector: types, client, param schemas, index. */
import { clientFile } from './client-file.js';
import { indexFile } from './index-file.js';
import { paramsFile } from './params-file.js';
import { typesFile } from './types-file.js';
import { splitEmitter } from '../types.js';

/** The sources under generated/<id>/src/ (package files: the packages emitter; validators: their own emitter). */
export const clientsEmitter = splitEmitter({
  name: 'clients',
  formatted: true,
  connector: (ir, connector) =>
    new Map([
      [`${connector.id}/src/types.ts`, typesFile(connector)],
      [`${connector.id}/src/client.ts`, clientFile(ir, connector)],
      [`${connector.id}/src/params.ts`, paramsFile(ir, connector)],
      [`${connector.id}/src/index.ts`, indexFile(ir, connector)],
    ]),
});
