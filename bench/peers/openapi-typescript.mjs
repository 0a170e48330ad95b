/**
 * Peer of `connector-codegen generate` in the generation bench: openapi-typescript (its Node API, as its CLI
 * calls it) writing one types file per OpenAPI document, all documents in this one process.
 * Usage: node bench/peers/openapi-typescript.mjs <out-dir> <document.json>...
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const [out, ...documents] = process.argv.slice(2);
mkdirSync(out, { recursive: true });
for (const document of documents) {
  const ast = await openapiTS(pathToFileURL(path.resolve(document)));
  writeFileSync(path.join(out, `${path.basename(document, '.json')}.d.ts`), astToString(ast));
}
