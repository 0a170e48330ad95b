/**
 * An immutable view of the records at one moment, ordered by id, with per-field indexes built lazily on first
 * use: value columns, equality postings (for eq / in), sorted orders (for sort and ranges) and word postings
 * (for keyword / fuzzy). A write to the index drops the snapshot; the next search builds a new one.
 *
 * Records are addressed by rank: their position in id order. Postings hold ranks in ascending order, so a walk
 * over them visits records in id order — the default order of hits that tie on score. Records are read through
 * a `DocumentSource`, one column at a time, so a snapshot over lazily generated records never builds them whole.
 */
import type { FieldModel } from './fields.js';
import type { SortKey } from './request.js';
import { wordsOf } from './text.js';
import { type SortValue, compareNonNull, compareStrings, kindRank, toSortValue } from './values.js';

/** One record as the search sees it. */
export interface StoredDocument {
  id: string;
  data: Record<string, unknown>;
}

/** Records as the search reads them: by position (0 … size-1), one field at a time. */
export interface DocumentSource {
  /** Number of records. */
  readonly size: number;
  /** The record's id. */
  id(position: number): string;
  /** One field of the record's data (null or undefined when it has none). */
  value(position: number, field: string): unknown;
  /** The record's whole data (the hits of a page, inferred fields). */
  data(position: number): Record<string, unknown>;
}

/** A source over documents held in memory. */
export function documentSource(docs: readonly StoredDocument[]): DocumentSource {
  return {
    size: docs.length,
    id: (i) => docs[i]!.id,
    value: (i, field) => (Object.hasOwn(docs[i]!.data, field) ? docs[i]!.data[field] : null),
    data: (i) => docs[i]!.data,
  };
}

/** Ranks of the records holding a value (or, for arrays, holding it as an element). */
export interface EqualityIndex {
  strings: Map<string, number[]>;
  numbers: Map<number, number[]>;
  booleans: [falses: number[], trues: number[]];
  /** Records whose value is null or missing, or an array holding null. */
  nulls: number[];
}

/** Records ordered by a field's sort value (kind, then value, then id), nulls last. */
export interface SortIndex {
  ranks: Int32Array;
  /** Sort value of each entry of `ranks`. */
  values: SortValue[];
  /** Where each kind begins in `ranks`: booleans, numbers, strings, nulls (and the end). */
  kindStarts: [booleans: number, numbers: number, strings: number, nulls: number, end: number];
}

/**
 * Records in the whole order of a sort of several keys: each key in its direction (nulls last), then rank (id
 * order, the tie order of unscored hits). Built from the fields' sort indexes, so a page is a walk, not a sort.
 */
export interface SortOrder {
  ranks: Int32Array;
  /** Per sort key, each rank's class: records with equal values share one; classes ascend in the key's direction, nulls last. */
  classes: Int32Array[];
}

/** How many multi-key sort orders a snapshot keeps (each is a few bytes per record per key). */
const SORT_ORDERS_KEPT = 8;

/** The words of a text field per record and the records holding each word. */
export interface WordIndex {
  /** Distinct lower-cased words of each record's value; null when the value is not a string. */
  words: (string[] | null)[];
  postings: Map<string, number[]>;
}

/** The records at one moment, with lazily built indexes. */
export class Snapshot {
  /** Ids in rank order (code unit order; for binary search). */
  readonly ids: readonly string[];
  /** The source position of each rank. */
  private readonly positions: Int32Array;
  private readonly columns = new Map<string, unknown[]>();
  private readonly equality = new Map<string, EqualityIndex>();
  private readonly sorted = new Map<string, SortIndex>();
  private readonly sortOrders = new Map<string, SortOrder>();
  private readonly wordIndexes = new Map<string, WordIndex>();

  constructor(
    private readonly source: DocumentSource,
    /** The searchable fields valid against this snapshot. */
    readonly fields: ReadonlyMap<string, FieldModel>,
  ) {
    const ids = Array.from({ length: source.size }, (_, i) => source.id(i));
    this.positions = Int32Array.from(ids.keys()).sort((a, b) => compareStrings(ids[a]!, ids[b]!));
    this.ids = Array.from(this.positions, (p) => ids[p]!);
  }

  /** Number of records. */
  get size(): number {
    return this.ids.length;
  }

  /** The data of the record at a rank. */
  data(rank: number): Record<string, unknown> {
    return this.source.data(this.positions[rank]!);
  }

  /** Each record's value of a field (null when missing), by rank. */
  column(field: string): unknown[] {
    let column = this.columns.get(field);
    if (!column) {
      column = Array.from(this.positions, (p) => this.source.value(p, field) ?? null);
      this.columns.set(field, column);
    }
    return column;
  }

  /** Equality postings of a field (scalar values and scalar array elements). */
  equalityIndex(field: string): EqualityIndex {
    let index = this.equality.get(field);
    if (!index) {
      index = { strings: new Map(), numbers: new Map(), booleans: [[], []], nulls: [] };
      const column = this.column(field);
      for (let rank = 0; rank < column.length; rank++) {
        const value = column[rank];
        if (Array.isArray(value)) for (const element of value) addPosting(index, element, rank);
        else addPosting(index, value, rank);
      }
      this.equality.set(field, index);
    }
    return index;
  }

  /** The sorted order of a field. */
  sortIndex(field: string): SortIndex {
    let index = this.sorted.get(field);
    if (!index) {
      const values = this.column(field).map(toSortValue);
      const ranks = Int32Array.from(values.keys()).sort((a, b) => {
        const va = values[a]!;
        const vb = values[b]!;
        if (va === null || vb === null) return va === vb ? a - b : va === null ? 1 : -1;
        return compareNonNull(va, vb) || a - b;
      });
      const ordered = Array.from(ranks, (r) => values[r]!);
      const kindStarts: SortIndex['kindStarts'] = [0, 0, 0, 0, ordered.length];
      for (let k = 1; k <= 3; k++) {
        let i = kindStarts[k - 1]!;
        while (i < ordered.length && ordered[i] !== null && kindRank(ordered[i] as boolean | number | string) < k) i++;
        kindStarts[k] = i;
      }
      index = { ranks, values: ordered, kindStarts };
      this.sorted.set(field, index);
    }
    return index;
  }

  /** The whole order of a multi-key sort (the latest few are kept, oldest dropped first). */
  sortOrder(sort: readonly SortKey[]): SortOrder {
    const key = JSON.stringify(sort.map((s) => [s.field, s.descending]));
    let order = this.sortOrders.get(key);
    if (!order) {
      const classes = sort.map((s) => this.sortClasses(s.field, s.descending));
      const ranks = Int32Array.from(this.ids.keys()).sort((a, b) => {
        for (const c of classes) if (c[a] !== c[b]) return c[a]! - c[b]!;
        return a - b;
      });
      order = { ranks, classes };
      if (this.sortOrders.size >= SORT_ORDERS_KEPT) this.sortOrders.delete(this.sortOrders.keys().next().value!);
      this.sortOrders.set(key, order);
    }
    return order;
  }

  /** Each rank's class of a field's sort values in a direction (equal values share a class; nulls last). */
  private sortClasses(field: string, descending: boolean): Int32Array {
    const { ranks, values, kindStarts } = this.sortIndex(field);
    const nullStart = kindStarts[3];
    const classes = new Int32Array(ranks.length);
    let distinct = 0;
    for (let i = 0; i < nullStart; i++) {
      if (i > 0 && values[i] !== values[i - 1]) distinct++;
      classes[ranks[i]!] = distinct;
    }
    if (nullStart > 0) distinct++;
    if (descending) for (let i = 0; i < nullStart; i++) classes[ranks[i]!] = distinct - 1 - classes[ranks[i]!]!;
    for (let i = nullStart; i < ranks.length; i++) classes[ranks[i]!] = distinct;
    return classes;
  }

  /** Word postings of a text field. */
  wordIndex(field: string): WordIndex {
    let index = this.wordIndexes.get(field);
    if (!index) {
      const postings = new Map<string, number[]>();
      const words = this.column(field).map((value, rank) => {
        if (typeof value !== 'string') return null;
        const distinct = [...new Set(wordsOf(value))];
        for (const word of distinct) {
          const list = postings.get(word);
          if (list) list.push(rank);
          else postings.set(word, [rank]);
        }
        return distinct;
      });
      index = { words, postings };
      this.wordIndexes.set(field, index);
    }
    return index;
  }
}

/** The postings of a scalar operand (string, number, boolean, null); undefined for objects and arrays. */
export function postingsOf(index: EqualityIndex, operand: unknown): number[] | undefined {
  if (operand === null) return index.nulls;
  if (typeof operand === 'string') return index.strings.get(operand) ?? [];
  if (typeof operand === 'number') return index.numbers.get(operand) ?? [];
  if (typeof operand === 'boolean') return index.booleans[operand ? 1 : 0];
  return undefined;
}

function addPosting(index: EqualityIndex, value: unknown, rank: number): void {
  let list: number[] | undefined;
  if (value === null || value === undefined) list = index.nulls;
  else if (typeof value === 'string') list = index.strings.get(value) ?? (index.strings.set(value, []), index.strings.get(value));
  else if (typeof value === 'number') list = index.numbers.get(value) ?? (index.numbers.set(value, []), index.numbers.get(value));
  else if (typeof value === 'boolean') list = index.booleans[value ? 1 : 0];
  // An array holding a value twice lists the record once.
  if (list && list[list.length - 1] !== rank) list.push(rank);
}
