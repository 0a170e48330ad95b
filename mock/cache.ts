/**
 * A memory budget for what the mock keeps to answer faster — materialized records of an entity, search indexes —
 * shared by all sources. Entries are dropped least recently used first once the budget is spent; a dropped entry
 * is rebuilt on its next use (everything cached is derived from the spec and the seed).
 */

/** What a cached entry costs, in record fields (a rough memory unit). */
interface Entry<T> {
  value: T;
  cost: number;
}

/** A least-recently-used cache bounded by total cost. */
export class BudgetCache {
  readonly #entries = new Map<string, Entry<unknown>>();
  #spent = 0;

  /** `budget`: total cost kept (record fields); entries dearer than the whole budget are built but not kept. */
  constructor(readonly budget: number) {}

  /** The cached value for `key`, or `build()`'s (kept when it fits). */
  get<T>(key: string, cost: number, build: () => T): T {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit); // most recently used last
      return hit.value as T;
    }
    const value = build();
    if (cost <= this.budget) {
      this.#entries.set(key, { value, cost });
      this.#spent += cost;
      for (const [k, e] of this.#entries) {
        if (this.#spent <= this.budget) break;
        this.#entries.delete(k);
        this.#spent -= e.cost;
      }
    }
    return value;
  }

  /** The cached value for `key`, if there is one (does not count as a use). */
  peek<T>(key: string): T | undefined {
    return this.#entries.get(key)?.value as T | undefined;
  }

  /** Drops an entry (its source changed). */
  drop(key: string): void {
    const hit = this.#entries.get(key);
    if (!hit) return;
    this.#entries.delete(key);
    this.#spent -= hit.cost;
  }

  /** Total cost kept now. */
  get spent(): number {
    return this.#spent;
  }
}
