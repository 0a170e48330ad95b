/** Phase timings for `--timings`: each phase's wall time in milliseconds, in the order phases ran. */
export type Timings = { phase: string; ms: number }[];

/** Runs `fn`, recording its duration under `phase` when `timings` is given. */
export async function timed<T>(timings: Timings | undefined, phase: string, fn: () => T | Promise<T>): Promise<T> {
  if (!timings) return fn();
  const start = performance.now();
  try {
    return await fn();
  } finally {
    timings.push({ phase, ms: performance.now() - start });
  }
}

/**
 * Formats timings as aligned lines, then the run's wall time `totalMs` (not their sum: the emitters' phases overlap,
 * each running from its start to its last file).
 */
export function formatTimings(timings: Timings, totalMs: number): string {
  const width = Math.max(5, ...timings.map((t) => t.phase.length));
  return [...timings, { phase: 'total', ms: totalMs }].map((t) => `${t.phase.padEnd(width)}  ${t.ms.toFixed(1).padStart(8)} ms`).join('\n');
}
