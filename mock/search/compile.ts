/**
 * Turns a checked filter into a matcher over a snapshot: a test per record (by rank), the record's score, and
 * a superset of the matching ranks taken from the indexes when the filter allows (candidates).
 *
 * Matching, per leaf (a missing value counts as null):
 * - eq: an array value holds when one of its elements equals the operand, any other value when it equals the
 *   operand (deep equality; strings case-sensitive); neq is exactly `not eq`;
 * - in: like eq for any element of the operand array (an array value: any element in common);
 * - gt / gte / lt / lte: a number value against a number operand, a string value against a string operand
 *   (code unit order); anything else, null included, does not hold;
 * - like, keyword, fuzzy: hold only on string values (see text.ts and the SearchIndex JSDoc).
 *
 * Score (only asked of records that hold):
 * - keyword: distinct operand words found among the value's words ÷ distinct operand words;
 * - fuzzy: the mean over distinct operand words of (1 − 0.1 × the fewest edits to a word of the value);
 * - and (an operator map naming several fields too): the mean of the children's scores, leaving out children
 *   without keyword or fuzzy; or: the highest score among the children that hold; not and every other leaf:
 *   no score. A filter with no score at all scores 1. Scores are rounded to 6 decimals.
 */
import type { FilterNode } from './request.js';
import { type Snapshot, postingsOf } from './snapshot.js';
import { allowedEdits, boundedEditDistance, distinctWordsOf, likeMatcher } from './text.js';
import { jsonEqual } from './values.js';

/** A compiled filter. */
export interface Matcher {
  /** Whether the record at a rank satisfies the filter. */
  test(rank: number): boolean;
  /** The record's relevance (null: no keyword or fuzzy below); only meaningful when test holds. */
  score(rank: number): number | null;
  /** Ascending ranks that include every match, or null when the whole collection must be scanned. */
  candidates(): number[] | null;
  /** Whether keyword or fuzzy occurs in the filter (scores may then differ between hits). */
  readonly scored: boolean;
}

/** Penalty per edit of a fuzzy word match. */
export const FUZZY_EDIT_PENALTY = 0.1;

/** The score a filter gives a record that holds (1 when the filter has no keyword or fuzzy). */
export function finalScore(matcher: Matcher, rank: number): number {
  const score = matcher.score(rank);
  return score === null ? 1 : Math.round(score * 1e6) / 1e6;
}

/** A matcher accepting every record (no filter). */
export const MATCH_ALL: Matcher = { test: () => true, score: () => null, candidates: () => null, scored: false };

/** Compiles a filter against a snapshot. */
export function compile(node: FilterNode, snap: Snapshot): Matcher {
  switch (node.kind) {
    case 'and': {
      const children = node.children.map((c) => compile(c, snap));
      return {
        scored: children.some((c) => c.scored),
        test: (r) => children.every((c) => c.test(r)),
        score: (r) => mean(children.map((c) => c.score(r))),
        candidates: () => smallest(children.map((c) => c.candidates())),
      };
    }
    case 'or': {
      const children = node.children.map((c) => compile(c, snap));
      return {
        scored: children.some((c) => c.scored),
        test: (r) => children.some((c) => c.test(r)),
        score: (r) => {
          let best: number | null = null;
          for (const c of children) {
            const s = c.test(r) ? c.score(r) : null;
            if (s !== null && (best === null || s > best)) best = s;
          }
          return best;
        },
        candidates: () => {
          const lists = children.map((c) => c.candidates());
          return lists.every((l) => l !== null) ? union(lists as number[][]) : null;
        },
      };
    }
    case 'not': {
      const child = compile(node.child, snap);
      return { scored: false, test: (r) => !child.test(r), score: () => null, candidates: () => null };
    }
    case 'leaf':
      return compileLeaf(node, snap);
  }
}

function compileLeaf(leaf: Extract<FilterNode, { kind: 'leaf' }>, snap: Snapshot): Matcher {
  const column = snap.column(leaf.field);
  const unscored = (test: (r: number) => boolean, candidates: () => number[] | null = () => null): Matcher => ({ scored: false, test, score: () => null, candidates });
  switch (leaf.op) {
    case 'eq':
    case 'neq': {
      const equals = valueEquals(leaf.operand);
      const eq = (r: number) => {
        const v = column[r];
        return Array.isArray(v) ? v.some(equals) : equals(v);
      };
      if (leaf.op === 'neq') return unscored((r) => !eq(r));
      return unscored(eq, () => postingsOf(snap.equalityIndex(leaf.field), leaf.operand) ?? null);
    }
    case 'in': {
      const operands = leaf.operand as unknown[];
      const tests = operands.map(valueEquals);
      const anyEquals = (v: unknown) => tests.some((t) => t(v));
      return unscored(
        (r) => {
          const v = column[r];
          return Array.isArray(v) ? v.some(anyEquals) : anyEquals(v);
        },
        () => {
          const index = snap.equalityIndex(leaf.field);
          const lists = operands.map((o) => postingsOf(index, o));
          return lists.every((l) => l !== undefined) ? union(lists as number[][]) : null;
        },
      );
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const operand = leaf.operand as number | string;
      const type = typeof operand;
      const holds = { gt: (v: number | string) => v > operand, gte: (v: number | string) => v >= operand, lt: (v: number | string) => v < operand, lte: (v: number | string) => v <= operand }[leaf.op];
      return unscored((r) => {
        const v = column[r];
        return typeof v === type && holds(v as number | string);
      });
    }
    case 'like': {
      const matches = likeMatcher(leaf.operand as string);
      return unscored((r) => {
        const v = column[r];
        return typeof v === 'string' && matches(v);
      });
    }
    case 'keyword':
      return keywordMatcher(snap, leaf.field, distinctWordsOf(leaf.operand as string));
    case 'fuzzy':
      return fuzzyMatcher(snap, leaf.field, distinctWordsOf(leaf.operand as string));
  }
}

function keywordMatcher(snap: Snapshot, field: string, operandWords: string[]): Matcher {
  const { words, postings } = snap.wordIndex(field);
  const wanted = new Set(operandWords);
  const found = (r: number) => {
    let n = 0;
    for (const w of words[r] ?? []) if (wanted.has(w)) n++;
    return n;
  };
  return {
    scored: true,
    test: (r) => found(r) > 0,
    score: (r) => found(r) / wanted.size,
    candidates: () => union(operandWords.map((w) => postings.get(w) ?? [])),
  };
}

function fuzzyMatcher(snap: Snapshot, field: string, operandWords: string[]): Matcher {
  const { words, postings } = snap.wordIndex(field);
  // For each operand word: the vocabulary words within its allowed edits, with their distance.
  const near = operandWords.map((word) => {
    const max = allowedEdits(word);
    const found = new Map<string, number>();
    for (const candidate of postings.keys()) {
      const d = boundedEditDistance(word, candidate, max);
      if (d <= max) found.set(candidate, d);
    }
    return found;
  });
  const fewestEdits = (r: number, i: number): number | undefined => {
    let best: number | undefined;
    for (const w of words[r] ?? []) {
      const d = near[i]!.get(w);
      if (d !== undefined && (best === undefined || d < best)) best = d;
    }
    return best;
  };
  return {
    scored: true,
    test: (r) => near.every((_, i) => fewestEdits(r, i) !== undefined),
    score: (r) => mean(near.map((_, i) => 1 - FUZZY_EDIT_PENALTY * fewestEdits(r, i)!)),
    candidates: () => smallest(near.map((found) => union([...found.keys()].map((w) => postings.get(w)!)))),
  };
}

/** Equality with one operand; scalar operands compare with ===, objects and arrays deeply. */
function valueEquals(operand: unknown): (value: unknown) => boolean {
  if (operand === null || typeof operand !== 'object') return (v) => v === operand;
  return (v) => jsonEqual(v, operand);
}

/** Mean of the non-null numbers; null when there are none. */
function mean(values: (number | null)[]): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) if (v !== null) (sum += v), n++;
  return n ? sum / n : null;
}

/** The shortest of the known candidate lists; null when none is known. */
function smallest(lists: (number[] | null)[]): number[] | null {
  let best: number[] | null = null;
  for (const l of lists) if (l !== null && (best === null || l.length < best.length)) best = l;
  return best;
}

/** Ascending, distinct union of ascending rank lists. */
function union(lists: number[][]): number[] {
  if (lists.length === 1) return lists[0]!;
  const all = Int32Array.from(lists.flat()).sort();
  const out: number[] = [];
  for (const r of all) if (out[out.length - 1] !== r) out.push(r);
  return out;
}
