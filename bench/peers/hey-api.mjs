/**
 * Peer of `connector-codegen generate` in the generation bench: @hey-api/openapi-ts with its default plugins
 * (types, SDK functions, fetch client) writing one folder per OpenAPI document, all documents in this one process.
 * Usage: node bench/peers/hey-api.mjs <out-dir> <document.json>...
 */
import path from 'node:path';
import { createClient } from '@hey-api/openapi-ts';

const [out, ...documents] = process.argv.slice(2);
await createClient(documents.map((document) => ({ input: document, output: path.join(out, path.basename(document, '.json')), logs: { level: 'silent' } })));
