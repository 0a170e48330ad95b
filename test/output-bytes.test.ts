/**
 * Emitted files kept as UTF-8 bytes (generator/emitters/output-bytes.ts): packing for the thread crossing, the long-line
 * check on bytes, and the write plan comparing bytes with what is on disk.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { encodeFiles, packFiles, unpackFiles } from '../generator/emitters/output-bytes.js';
import { hasLongLine } from '../generator/format/format.js';
import { planOutput } from '../generator/write.js';

const TEXTS: [string, string][] = [
  ['a.ts', 'export const a = 1;\n'],
  ['empty.md', ''],
  ['arrows.md', '# Payments → invoices — “quoted” …\n'],
  ['astral.json', '{"emoji":"😀 and 𝒳"}\n'],
  ['latin1.md', 'café naïve\n'],
];

describe('packing', () => {
  test('every file comes back with its exact UTF-8 bytes, in order, from one buffer of its own', () => {
    const packed = packFiles(new Map(TEXTS));
    expect(packed.bytes.byteOffset).toBe(0);
    expect(packed.bytes.buffer.byteLength).toBe(TEXTS.reduce((n, [, t]) => n + Buffer.byteLength(t), 0)); // transferable alone
    const files = unpackFiles(structuredClone(packed, { transfer: [packed.bytes.buffer as ArrayBuffer] }));
    expect([...files.keys()]).toEqual(TEXTS.map(([rel]) => rel));
    for (const [rel, text] of TEXTS) expect(Buffer.from(files.get(rel)!).equals(Buffer.from(text, 'utf8')), rel).toBe(true);
  });

  test('an empty map packs to nothing', () => {
    expect([...unpackFiles(packFiles(new Map()))]).toEqual([]);
  });
});

describe('long lines, counted on bytes as on text', () => {
  /** Lines of random widths around the limit, mixing ASCII, two- and three-byte and astral characters, comments and literals. */
  function randomText(seed: number): string {
    let state = seed;
    const next = (n: number) => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) % n);
    const pieces = ['a', 'é', '→', '😀', ' ', 'x.y(', "'", '// ', ' * '];
    const lines: string[] = [];
    for (let l = 0; l < 6; l++) {
      let line = next(3) === 0 ? pieces[6 + next(3)]! : '';
      const width = 100 + next(40);
      while (line.length < width) line += pieces[next(6)];
      if (next(4) === 0) line = `  '${line.replace(/'/g, '')}',`; // a lone literal: prettier cannot break it
      lines.push(line);
    }
    return lines.join('\n') + (next(2) ? '\n' : '');
  }

  test('hasLongLine gives the same answer for a text and its UTF-8 bytes (500 random texts)', () => {
    let long = 0;
    for (let seed = 1; seed <= 500; seed++) {
      const text = randomText(seed);
      const expected = hasLongLine(text, 120);
      long += Number(expected);
      expect(hasLongLine(encodeFiles(new Map([['f.ts', text]])).get('f.ts')!, 120), `seed ${seed}`).toBe(expected);
    }
    expect(long).toBeGreaterThan(50); // both answers occur
    expect(long).toBeLessThan(450);
  });

  test('a character beyond the BMP counts two, as in String.length', () => {
    const line = `${'x'.repeat(118)}😀`; // length 120: not over
    expect(hasLongLine(Buffer.from(line), 120)).toBe(false);
    expect(hasLongLine(Buffer.from(`${line}y`), 120)).toBe(true);
  });
});

describe('the write plan compares bytes with the files on disk', () => {
  test('same bytes: unchanged; other bytes: changed; missing: added', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-bytes-'));
    try {
      await writeFile(path.join(out, 'same.md'), 'Payments → invoices\n');
      await writeFile(path.join(out, 'other.md'), 'Payments → invoices\n');
      const files = encodeFiles(new Map([
        ['same.md', 'Payments → invoices\n'],
        ['other.md', 'Payments → invoicez\n'],
        ['new.md', 'new\n'],
      ]));
      const plan = await planOutput(out, files);
      expect(plan).toMatchObject({ added: ['new.md'], changed: ['other.md'], stale: [], unchanged: 1 });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  test('a file the last run vouches for by size and time is not read: known the same, or known to hold other content', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-bytes-'));
    try {
      // On disk: what is to be written, but the record of the last run says other content (so the plan must not read them).
      for (const rel of ['a.md', 'b.md', 'c.md']) await writeFile(path.join(out, rel), 'same\n');
      const files = encodeFiles(new Map([['a.md', 'same\n'], ['b.md', 'same\n'], ['c.md', 'same\n']]));
      const verdicts = { 'a.md': 'changed', 'b.md': 'same', 'c.md': undefined } as const;
      const asked: [string, number][] = [];
      const plan = await planOutput(out, files, (rel, size) => (asked.push([rel, size]), verdicts[rel as keyof typeof verdicts]));
      expect(asked.sort()).toEqual([['a.md', 5], ['b.md', 5], ['c.md', 5]]);
      expect(plan).toMatchObject({ added: [], changed: ['a.md'], stale: [], unchanged: 2 });
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
