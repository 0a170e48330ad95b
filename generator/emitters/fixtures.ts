/** `generated/fixtures/<id>.json`: the mock's default data (seed 1), committed so users can build on the same records. */
import { buildFixtures } from '../fixtures/dataset.js';
import { stableJson } from '../stable-json.js';
import { generatedHeader } from './ts-file.js';
import type { Emitter } from './types.js';

/** Writes one fixtures file per connector. */
export const fixturesEmitter: Emitter = {
  name: 'fixtures',
  emit(ir) {
    const files = new Map<string, string>();
    for (const fixtures of buildFixtures(ir)) {
      const connector = ir.connectors.find((c) => c.id === fixtures.connector)!;
      files.set(`fixtures/${fixtures.connector}.json`, stableJson({ '//': generatedHeader(connector.file).slice(3).trim(), ...fixtures }));
    }
    return files;
  },
};
