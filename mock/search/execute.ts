/**
 * Finds one page of hits (plus one more, to tell whether a next page exists) in the query's total order:
 * the sort keys (nulls last), then score descending, then id ascending. Three plans, same results:
 * - no sort, no keyword/fuzzy: every score is 1, so the order is id order — walk the ranks (or the equality
 *   postings) from the cursor and stop once the page is full;
 * - one sort key, no keyword/fuzzy, no small candidate list: walk the field's sorted index from the cursor,
 *   narrowed by any range on that field, one group of equal values at a time, and stop once the page is full;
 * - several sort keys, otherwise alike: walk the whole order of those keys (built once per snapshot) from the
 *   cursor, narrowed by any range on the first key, and stop once the page is full;
 * - otherwise (scored queries, small candidate lists): test every candidate, sort, cut after the cursor.
 */
import { type Matcher, MATCH_ALL, compile, finalScore } from './compile.js';
import type { CursorKey } from './cursor.js';
import type { FilterNode, SortKey } from './request.js';
import type { Snapshot, SortIndex, SortOrder } from './snapshot.js';
import { type SortValue, compareNonNull, compareSortValues, compareStrings, toSortValue } from './values.js';

/** A matching record with what orders it. */
export interface RankedHit {
  rank: number;
  score: number;
  /** Sort values, one per sort key. */
  key: SortValue[];
}

/** A candidate list at most this share of the records is sorted outright rather than walked in sort order. */
const SMALL_CANDIDATES = 1 / 8;

/** Up to `limit + 1` hits after `cursor`, in order. */
export function findHits(snap: Snapshot, filter: FilterNode | null, sort: readonly SortKey[], cursor: CursorKey | null, limit: number): RankedHit[] {
  const matcher = filter ? compile(filter, snap) : MATCH_ALL;
  const want = limit + 1;
  const sortColumns = sort.map((s) => snap.column(s.field));
  const hitAt = (rank: number): RankedHit => ({ rank, score: finalScore(matcher, rank), key: sortColumns.map((c) => toSortValue(c[rank])) });
  const order = (a: RankedHit, b: RankedHit) => compareKeys(a.key, a.score, sort, b.key, b.score) || a.rank - b.rank;
  const after = (h: RankedHit) => !cursor || (compareKeys(h.key, h.score, sort, cursor.values, cursor.score) || compareStrings(snap.ids[h.rank]!, cursor.id)) > 0;
  const candidates = matcher.candidates();

  if (!matcher.scored && sort.length === 0) {
    const start = cursor ? upperBoundId(snap.ids, cursor.id) : 0;
    return walkIdOrder(snap.size, candidates, start, matcher, hitAt, want);
  }
  if (!matcher.scored && (candidates === null || candidates.length > snap.size * SMALL_CANDIDATES)) {
    const index = snap.sortIndex(sort[0]!.field);
    const range = filter ? rangeOf(filter, sort[0]!.field, index) : null;
    if (sort.length > 1) return walkWholeOrder(snap.sortOrder(sort), index, range, matcher, hitAt, after, want);
    return walkSortOrder(index, sort, range, cursor?.values[0], matcher, hitAt, after, order, want);
  }
  const hits: RankedHit[] = [];
  const consider = (rank: number) => {
    if (!matcher.test(rank)) return;
    const hit = hitAt(rank);
    if (after(hit)) hits.push(hit);
  };
  if (candidates) for (const rank of candidates) consider(rank);
  else for (let rank = 0; rank < snap.size; rank++) consider(rank);
  return hits.sort(order).slice(0, want);
}

/** Order of two positions by sort keys, then score descending (ids left to the caller). */
function compareKeys(aKey: SortValue[], aScore: number, sort: readonly SortKey[], bKey: SortValue[], bScore: number): number {
  for (let i = 0; i < sort.length; i++) {
    const c = compareSortValues(aKey[i]!, bKey[i]!, sort[i]!.descending);
    if (c) return c;
  }
  return bScore - aScore;
}

function walkIdOrder(size: number, candidates: number[] | null, start: number, matcher: Matcher, hitAt: (r: number) => RankedHit, want: number): RankedHit[] {
  const out: RankedHit[] = [];
  if (candidates) {
    for (let i = lowerBoundNumber(candidates, start); i < candidates.length && out.length < want; i++) {
      if (matcher.test(candidates[i]!)) out.push(hitAt(candidates[i]!));
    }
  } else {
    for (let rank = start; rank < size && out.length < want; rank++) if (matcher.test(rank)) out.push(hitAt(rank));
  }
  return out;
}

function walkSortOrder(
  index: SortIndex,
  sort: readonly SortKey[],
  range: [number, number] | null,
  cursorValue: SortValue | undefined,
  matcher: Matcher,
  hitAt: (r: number) => RankedHit,
  after: (h: RankedHit) => boolean,
  order: (a: RankedHit, b: RankedHit) => number,
  want: number,
): RankedHit[] {
  const { ranks, values, kindStarts } = index;
  const nullStart = kindStarts[3];
  const descending = sort[0]!.descending;
  // A range on the sort field excludes nulls and everything outside it; a cursor excludes what precedes it.
  let [lo, hi] = range ?? [0, nullStart];
  if (cursorValue === null) hi = lo;
  else if (cursorValue !== undefined) {
    if (descending) hi = Math.min(hi, boundOf(values, cursorValue, nullStart, true));
    else lo = Math.max(lo, boundOf(values, cursorValue, nullStart, false));
  }
  const out: RankedHit[] = [];
  const single = sort.length === 1;
  // One group of entries with equal first sort values, which the index holds in id order.
  const emit = (from: number, to: number) => {
    const group: RankedHit[] = [];
    for (let i = from; i < to; i++) {
      const rank = ranks[i]!;
      if (!matcher.test(rank)) continue;
      const hit = hitAt(rank);
      if (!after(hit)) continue;
      if (!single) group.push(hit);
      else if (out.push(hit) >= want) return;
    }
    if (!single) out.push(...group.sort(order));
  };
  if (!descending) {
    for (let i = lo; i < hi && out.length < want; ) {
      let j = i + 1;
      while (j < hi && values[j] === values[i]) j++;
      emit(i, j);
      i = j;
    }
  } else {
    for (let j = hi; j > lo && out.length < want; ) {
      let i = j - 1;
      while (i > lo && values[i - 1] === values[j - 1]) i--;
      emit(i, j);
      j = i;
    }
  }
  if (!range && out.length < want) emit(nullStart, ranks.length);
  return out.slice(0, want);
}

function walkWholeOrder(
  order: SortOrder,
  index: SortIndex,
  range: [number, number] | null,
  matcher: Matcher,
  hitAt: (r: number) => RankedHit,
  after: (h: RankedHit) => boolean,
  want: number,
): RankedHit[] {
  const { ranks, classes } = order;
  const first = classes[0]!;
  let from = 0;
  let to = ranks.length;
  if (range) {
    // The range is a run of first-key classes (excluding nulls), hence a run of the whole order.
    const [lo, hi] = range;
    if (lo >= hi) return [];
    const [a, b] = [first[index.ranks[lo]!]!, first[index.ranks[hi - 1]!]!];
    const [least, most] = a <= b ? [a, b] : [b, a];
    from = searchPositions(from, to, (p) => first[ranks[p]!]! >= least);
    to = searchPositions(from, to, (p) => first[ranks[p]!]! > most);
  }
  // The order is the query's order (unscored hits tie on score), so what follows the cursor is a suffix.
  from = searchPositions(from, to, (p) => after(hitAt(ranks[p]!)));
  const out: RankedHit[] = [];
  for (let p = from; p < to && out.length < want; p++) if (matcher.test(ranks[p]!)) out.push(hitAt(ranks[p]!));
  return out;
}

/** First position in [from, to) where the monotone predicate holds (`to` when nowhere). */
function searchPositions(from: number, to: number, holds: (p: number) => boolean): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The slice of the sorted index a top-level range on `field` allows (null: no such range). */
function rangeOf(filter: FilterNode, field: string, index: SortIndex): [number, number] | null {
  const { values, kindStarts } = index;
  let bounds: [number, number] | null = null;
  for (const leaf of conjuncts(filter)) {
    if (leaf.kind !== 'leaf' || leaf.field !== field || !['gt', 'gte', 'lt', 'lte'].includes(leaf.op)) continue;
    const x = leaf.operand as number | string;
    // Comparisons hold only between values of the operand's kind: numbers or strings.
    const [from, to] = typeof x === 'number' ? [kindStarts[1], kindStarts[2]] : [kindStarts[2], kindStarts[3]];
    let lo: number = Math.max(bounds ? bounds[0] : 0, from);
    let hi: number = Math.min(bounds ? bounds[1] : kindStarts[3], to);
    const firstAtLeast = () => search(values, from, to, (v) => v! >= x);
    const firstAbove = () => search(values, from, to, (v) => v! > x);
    if (leaf.op === 'gt') lo = Math.max(lo, firstAbove());
    else if (leaf.op === 'gte') lo = Math.max(lo, firstAtLeast());
    else if (leaf.op === 'lt') hi = Math.min(hi, firstAtLeast());
    else hi = Math.min(hi, firstAbove());
    bounds = [lo, Math.max(lo, hi)];
  }
  return bounds;
}

/** The leaves and subtrees that must all hold (top-level `and`s flattened). */
function conjuncts(filter: FilterNode): FilterNode[] {
  return filter.kind === 'and' ? filter.children.flatMap(conjuncts) : [filter];
}

/** Where entries with the cursor's first sort value begin (ascending walk) or end (descending walk). */
function boundOf(values: SortValue[], value: boolean | number | string, nullStart: number, end: boolean): number {
  return search(values, 0, nullStart, (v) => (end ? compareNonNull(v!, value) > 0 : compareNonNull(v!, value) >= 0));
}

/** First index in [from, to) where the monotone predicate holds (`to` when nowhere). */
function search(values: SortValue[], from: number, to: number, holds: (v: SortValue) => boolean): number {
  return searchPositions(from, to, (i) => holds(values[i]!));
}

function upperBoundId(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid]! <= id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBoundNumber(list: number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
