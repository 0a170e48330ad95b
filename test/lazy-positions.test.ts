/**
 * Positions are computed only when read: reading a valid spec with no diagnostic parses no file with `yaml` (the
 * fast path gives the data, yaml-fast.ts; the IR's locations are lazy, yaml-source.ts keyLocation), while every
 * location still answers the right line when read, and a warning or error still names the right line.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { readSpec } from '../generator/spec/read.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import { loadYaml } from '../generator/spec/yaml-source.js';
import { edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';
import { realSpecDir } from './helpers/spec-copy.js';

// Every parse with `yaml` is counted.
const parses = vi.hoisted(() => ({ count: 0 }));
vi.mock('yaml', async (importOriginal) => {
  const yaml = await importOriginal<typeof import('yaml')>();
  return {
    ...yaml,
    parseDocument: (...args: Parameters<typeof yaml.parseDocument>) => {
      parses.count++;
      return yaml.parseDocument(...args);
    },
  };
});

beforeAll(async () => {
  await loadYaml(); // the mocked module above, not the one a synchronous require would load
});

beforeEach(() => {
  parses.count = 0;
});

/** 1-based line of the only line of `text` that is exactly `line`. */
function lineOf(text: string, line: string): number {
  const lines = text.split('\n');
  const at = lines.indexOf(line);
  expect(at, `'${line}' once in the text`).toBeGreaterThanOrEqual(0);
  expect(lines.lastIndexOf(line)).toBe(at);
  return at + 1;
}

describe('a valid spec is read without positions', () => {
  test('the real spec: no yaml parse; a location read parses its file once and gives the line of its key', async () => {
    const { ir, warnings } = await readSpec(realSpecDir);
    expect(warnings).toEqual([]);
    expect(parses.count).toBe(0);

    // The IR as emitter workers receive it: cloning reads no position, and the clone carries the file only.
    const connector = ir.connectors.find((c) => c.id === 'payments')!;
    const entity = connector.entities[0]!;
    const clone = structuredClone(entity);
    expect(parses.count).toBe(0);
    expect(clone.source).toEqual({ file: entity.source.file });
    expect(JSON.parse(JSON.stringify(entity.source))).toEqual({ file: entity.source.file });

    const text = await readFile(path.join(realSpecDir, 'connectors/payments.yaml'), 'utf8');
    expect(entity.source.file).toBe('spec/connectors/payments.yaml');
    const lines = text.split('\n');
    expect(entity.source.line).toBe(lines.indexOf(`  ${entity.name}:`, lines.indexOf('entities:')) + 1);
    expect(parses.count).toBe(1);
    // Other locations of the same file: no further parse.
    const action = entity.actions[0]!;
    expect(lines[action.source.line - 1]).toBe(`      ${action.name}:`);
    expect(action.source.line).toBeGreaterThan(entity.source.line);
    expect(parses.count).toBe(1);
  });

  test('the mini spec: no yaml parse', async () => {
    const dir = await writeMiniSpec();
    await readSpec(dir);
    expect(parses.count).toBe(0);
  });
});

describe('diagnostics still name the right line', () => {
  test('a warning (an unused record) names the line of its key', async () => {
    const text = edit(SHOP_YAML, 'records:\n  customer:\n', 'records:\n  unused:\n    fields:\n      id: string\n  customer:\n');
    const dir = await writeMiniSpec({ shop: text });
    const { warnings } = await readSpec(dir);
    expect(warnings.map((w) => [w.code, w.line, w.col, w.message])).toEqual([['SPEC029', lineOf(text, '  unused:'), 3, "record 'unused' is not used by any action"]]);
    expect(parses.count).toBe(1); // the shop file alone, for the warning's position
  });

  /** The diagnostic of `code` that reading the mini spec with `shop` as its connector fails with. */
  async function failure(shop: string, code: string) {
    const error = await readSpec(await writeMiniSpec({ shop })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).diagnostics.find((d) => d.code === code)!;
  }

  test('an error found after parsing (a semantic check) names the line of its key', async () => {
    const text = edit(SHOP_YAML, '    record: customer\n', '    record: client\n');
    const spec018 = await failure(text, 'SPEC018');
    expect([spec018.line, spec018.col]).toEqual([lineOf(text, '    record: client'), 5]);
  });

  test('a duplicate key, which the fast path declines, is reported by yaml, located', async () => {
    const text = edit(SHOP_YAML, 'records:\n', 'records:\n  dup: 1\n  dup: 2\n');
    expect((await failure(text, 'SPEC012')).line).toBe(lineOf(text, '  dup: 2'));
  });
});
