/** Every emitter, in the order they run. */
import { catalogueEmitter } from './catalogue.js';
import { clientsEmitter } from './clients.js';
import type { Emitter } from './types.js';

/** The emitters of `generate`. */
export const emitters: Emitter[] = [catalogueEmitter, clientsEmitter];
