/**
 * The shortcuts the fixture model takes to make values fast give exactly what the plain definitions give: committed
 * fixtures (and every user's copy of them) depend on each value's stream and text, so a shortcut that drifts from its
 * definition would change data users build on.
 */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ConnectorModel } from '../generator/emitters/fixtures/model.js';
import { KeyPrefix, Random } from '../generator/emitters/fixtures/random.js';
import { EPOCH, isoTime, TWO_YEARS } from '../generator/emitters/fixtures/values.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';

/** The first draws of a stream, to compare two streams. */
const draws = (random: Random, n = 8) => Array.from({ length: n }, () => random.next());

let ir: SpecIR;
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
});

describe('fixture streams', () => {
  test("a record's key prefix and a value's stream are the streams of the whole key", () => {
    const prefix = new KeyPrefix(1, 'payments', 'customers');
    for (const index of [0, 7, 31, 99_999]) {
      const record = prefix.then(index);
      for (const name of ['email', 'created', 'metadata', '']) {
        expect(draws(record.randomFor(name))).toEqual(draws(Random.for(1, 'payments', 'customers', index, name)));
        expect(draws(record.random(name, 'ref'))).toEqual(draws(Random.for(1, 'payments', 'customers', index, name, 'ref')));
      }
    }
  });

  test('a stream split for an inner value is the stream keyed by the next draw and the part', () => {
    for (const seed of [0, 1, 0x7fffffff, 0xffffffff, 123_456_789]) {
      for (const part of [0, 2, 'name', 'tax_ids']) {
        const parent = new Random(seed);
        const twin = new Random(seed);
        expect(draws(parent.split(part))).toEqual(draws(Random.for(twin.next(), part)));
        expect(parent.next()).toBe(twin.next()); // both parents drew once
      }
    }
  });

  test('isoTime writes what Date writes, across days, months, years and the leap day', () => {
    const dateTime = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    const random = new Random(42);
    const samples = [EPOCH, EPOCH + TWO_YEARS, Date.UTC(2024, 1, 29, 23, 59, 59) / 1000, Date.UTC(2024, 11, 31, 23, 59, 59) / 1000, Date.UTC(2025, 0, 1) / 1000];
    for (let i = 0; i < 2000; i++) samples.push(EPOCH + random.int(0, TWO_YEARS));
    for (const seconds of samples) {
      expect(isoTime(seconds)).toBe(dateTime(seconds));
      expect(isoTime(seconds - 1)).toBe(dateTime(seconds - 1));
    }
  });

  test('keys stay the same whichever records were asked for before (the model keeps a bounded cache of them)', () => {
    for (const connector of ir.connectors) {
      const forward = new ConnectorModel(connector);
      const scattered = new ConnectorModel(connector);
      for (const entity of connector.entities) {
        const a = forward.entity(entity.name);
        const b = scattered.entity(entity.name);
        if (!a || !b || a.count === 0) continue;
        // Indexes that share cache slots (64 apart), asked in another order.
        const indexes = Array.from({ length: 200 }, (_, i) => i);
        const expected = indexes.map((i) => a.keyAt(i));
        const order = [...indexes].reverse().flatMap((i) => [i, (i * 64) % 200]);
        for (const i of order) expect(b.keyAt(i), `${connector.id}/${entity.name} #${i}`).toBe(expected[i]);
        for (let i = 0; i < b.count; i++) expect(b.indexOfKey(expected[i]), `${connector.id}/${entity.name} ${String(expected[i])}`).toBe(i);
      }
    }
  });
});
