/** `generated/fixtures/<id>.json`: the mock's default data (seed 1), committed so users can build on the same records. */
import { buildFixtures } from '../fixtures/dataset.js';
import { generatedHeader } from './header.js';
import type { Emitter } from './types.js';

/** Writes one fixtures file per connector. */
export const fixturesEmitter: Emitter = {
  name: 'fixtures',
  emit(ir) {
    const files = new Map<string, string>();
    for (const fixtures of buildFixtures(ir)) {
      const connector = ir.connectors.find((c) => c.id === fixtures.connector)!;
      // Deterministic by construction (fields in the IR's sorted order), so no key sorting is needed.
      files.set(`fixtures/${fixtures.connector}.json`, `${JSON.stringify({ '//': generatedHeader(connector.file).slice(3).trim(), ...fixtures }, null, 2)}\n`);
    }
    return files;
  },
};
