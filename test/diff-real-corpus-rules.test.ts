/**
 * The diff corpus on the real spec, the contract's rules (test/fixtures/diff-real-corpus/rules.yaml): default
 * order and filter, param groups, key params and record keys, update semantics, invariants, recordsFrom, formats,
 * list filters, interval bounds, derived values and where auth variables are supplied — every edit through the
 * CLI, its exact check ids and severities, and the exit code.
 */
import { describe } from 'vitest';
import { defineCorpusTests } from './fixtures/diff-real-corpus/run.js';

describe('diff corpus on the real spec: rules', async () => {
  await defineCorpusTests((file) => file === 'rules.yaml');
});
