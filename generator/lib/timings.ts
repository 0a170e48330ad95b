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

/** Formats timings as aligned lines, with a total. */
export function formatTimings(timings: Timings): string {
  const width = Math.max(5, ...timings.map((t) => t.phase.length));
  const total = timings.reduce((sum, t) => sum + t.ms, 0);
  return [...timings, { phase: 'total', ms: total }].map((t) => `${t.phase.padEnd(width)}  ${t.ms.toFixed(1).padStart(8)} ms`).join('\n');
}
