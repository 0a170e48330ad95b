/**
 * How an emitter's connectors are run (generator/emitters/run.ts): shared out between threads by a claim counter (the
 * emitter host and the main thread, generate.ts), and started ahead of time for an emitter that waits on another
 * thread (validators), both giving exactly the files of a plain run.
 */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { claimFrom, runClaimed, runEmitter } from '../generator/emitters/run.js';
import { splitEmitter, type EmittedFiles, type Emitter } from '../generator/emitters/types.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';

let ir: SpecIR;
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
}, 60_000);

/** A split emitter whose connector part takes a turn of the event loop, and which counts the connectors under way. */
function countingEmitter(options: { shared?: boolean } = {}): { emitter: Emitter; maxUnderWay: () => number } {
  let underWay = 0;
  let max = 0;
  const emitter = splitEmitter({
    name: 'counting',
    async connector(_ir, connector) {
      underWay++;
      max = Math.max(max, underWay);
      await new Promise((resolve) => setImmediate(resolve));
      underWay--;
      return new Map([[`${connector.id}.txt`, `${connector.id}\n`]]);
    },
    ...(options.shared ? { shared: () => new Map([['index.txt', 'all\n']]) } : {}),
  });
  return { emitter, maxUnderWay: () => max };
}

describe('connectors shared out by a claim counter', () => {
  test('two claimers emit every connector once between them, each taking some', async () => {
    const ids = ir.connectors.map((c) => c.id);
    const claim = claimFrom(new Int32Array(new SharedArrayBuffer(4)));
    const byClaimer: string[][] = [[], []];
    const { emitter } = countingEmitter();
    await Promise.all(byClaimer.map((got) => runClaimed(emitter, ir, ids, claim, (id) => void got.push(id))));
    expect([...byClaimer[0]!, ...byClaimer[1]!].sort()).toEqual([...ids].sort());
    expect(byClaimer[0]!.length).toBeGreaterThan(0);
    expect(byClaimer[1]!.length).toBeGreaterThan(0);
  });

  test('what the claimers make is what a plain run makes', async () => {
    const ids = ir.connectors.map((c) => c.id).slice(3, 11);
    const { emitter } = countingEmitter();
    const plain = new Map<string, EmittedFiles>();
    await runEmitter(emitter, ir, ids, (id, files) => void plain.set(id, files));
    const claim = claimFrom(new Int32Array(new SharedArrayBuffer(4)));
    const shared = new Map<string, EmittedFiles>();
    await Promise.all([0, 1, 2].map(() => runEmitter(emitter, ir, ids, (id, files) => void shared.set(id, files), undefined, claim)));
    expect(new Map([...shared].sort())).toEqual(new Map([...plain].sort()));
  });

  test('an emitter with shared files is never shared out', async () => {
    const { emitter } = countingEmitter({ shared: true });
    const claim = claimFrom(new Int32Array(new SharedArrayBuffer(4)));
    await expect(runClaimed(emitter, ir, ['crm'], claim, () => undefined)).rejects.toThrow(/has shared files/);
  });
});

describe('a concurrent run', () => {
  test('starts the connectors ahead (all 15 of the spec at once), and hands their files over in order', async () => {
    const ids = ir.connectors.map((c) => c.id);
    const { emitter, maxUnderWay } = countingEmitter();
    const order: string[] = [];
    await runEmitter(emitter, ir, ids, (id) => void order.push(id), undefined, undefined, true);
    expect(order).toEqual(ids);
    expect(maxUnderWay()).toBe(ids.length);
    const sequential = countingEmitter();
    await runEmitter(sequential.emitter, ir, ids, () => undefined);
    expect(sequential.maxUnderWay()).toBe(1);
  });

  test('holds at most 16 connectors under way', async () => {
    // The spec's connectors under more ids: a larger spec's worth.
    const many: SpecIR = { ...ir, connectors: Array.from({ length: 3 }, (_, k) => ir.connectors.map((c) => ({ ...c, id: `${c.id}_${k}` }))).flat() };
    const { emitter, maxUnderWay } = countingEmitter();
    const order: string[] = [];
    await runEmitter(emitter, many, many.connectors.map((c) => c.id), (id) => void order.push(id), undefined, undefined, true);
    expect(order).toEqual(many.connectors.map((c) => c.id));
    expect(maxUnderWay()).toBe(16);
  });
});
