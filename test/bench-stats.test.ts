/** The bench's statistics helpers: the figures the README quotes rest on them. */
import { describe, expect, test } from 'vitest';
import { linearFit, median, percentile } from '../bench/stats.js';

describe('bench statistics', () => {
  test('median of odd and even counts, whatever the order', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  test('percentile by nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(xs, 50)).toBe(50);
    expect(percentile(xs, 99)).toBe(99);
    expect(percentile(xs, 100)).toBe(100);
  });

  test('linearFit splits a cost into its fixed part and its part per unit', () => {
    // The scale rows of a run: 15, 30, 60, 120 connectors.
    const fit = linearFit([
      [15, 1.6 + 15 * 0.05],
      [30, 1.6 + 30 * 0.05],
      [60, 1.6 + 60 * 0.05],
      [120, 1.6 + 120 * 0.05],
    ]);
    expect(fit.intercept).toBeCloseTo(1.6, 10);
    expect(fit.slope).toBeCloseTo(0.05, 10);
    // Noisy points: the line that minimises the squared error (worked out by hand for these three).
    const noisy = linearFit([
      [0, 1],
      [1, 3],
      [2, 4],
    ]);
    expect(noisy.slope).toBeCloseTo(1.5, 10);
    expect(noisy.intercept).toBeCloseTo(7 / 6, 10);
  });

  test('linearFit refuses points that fix no slope', () => {
    expect(() => linearFit([[15, 2]])).toThrow(/two distinct x/);
    expect(() => linearFit([[15, 2], [15, 3]])).toThrow(/two distinct x/);
  });
});
