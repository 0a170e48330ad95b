/** Every emitter, in the order they run. */
import { catalogueEmitter } from './catalogue.js';
import { clientsEmitter } from './clients.js';
import { contractTestsEmitter } from './contract-tests.js';
import { docsEmitter } from './docs/index.js';
import { fixturesEmitter } from './fixtures.js';
import { validatorsEmitter } from './validators/index.js';
import { openapiEmitter } from '../openapi/emitter.js';
import type { Emitter } from './types.js';

/** The emitters of `generate`. */
// validators first: it starts a worker thread that compiles while the others run.
export const emitters: Emitter[] = [validatorsEmitter, catalogueEmitter, clientsEmitter, fixturesEmitter, contractTestsEmitter, docsEmitter, openapiEmitter];
