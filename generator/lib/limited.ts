/**
 * Promise.allSettled with a bound on how many run at once. Writing thousands of files with Promise.all converts every
 * string to a buffer up front (at 8× the spec, ~90 MB of buffers alive at once, the run's peak memory); the thread pool
 * runs four file operations at a time anyway, so a few more in flight keep it busy without holding everything.
 */

/** Runs `task` on every item, at most `limit` at once; results in item order, as Promise.allSettled gives them. */
export async function allSettledLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const runner = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      try {
        results[i] = { status: 'fulfilled', value: await task(items[i]!) };
      } catch (reason) {
        results[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return results;
}
