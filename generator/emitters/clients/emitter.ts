/** Emits one publishable package per connector: types, client, index, package.json, tsconfig, README. */
import { clientFile } from './client-file.js';
import { packageFiles, pathsFile } from './package-files.js';
import { typesFile } from './types-file.js';
import type { Emitter } from '../types.js';

/** The client packages under generated/<id>/. */
export const clientsEmitter: Emitter = {
  name: 'clients',
  emit(ir) {
    const files = new Map<string, string>();
    for (const connector of ir.connectors) {
      files.set(`${connector.id}/src/types.ts`, typesFile(connector));
      files.set(`${connector.id}/src/client.ts`, clientFile(ir, connector));
      for (const [rel, content] of packageFiles(ir, connector)) files.set(rel, content);
    }
    files.set('tsconfig.paths.json', pathsFile(ir));
    return files;
  },
};
