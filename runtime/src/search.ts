/**
 * Types of the uniform search action (`search`), generic over an entity's searchable fields `F`
 * (`{ created: number; email: string; cards: unknown[] }`). Wrong filters do not compile: an unsearchable
 * field, an operand of the wrong type, two operators in one filter, a sort on an unsearchable field.
 */

/** Exactly one key of `T`: `{ a: A } | { b: B }`, each variant forbidding the other keys. */
export type ExactlyOne<T> = {
  [K in keyof T]: { [P in K]: T[P] } & { [P in Exclude<keyof T, K>]?: never };
}[keyof T];

/** Element type of an array field; the field's own type otherwise. */
type ElementOf<V> = V extends readonly (infer E)[] ? E : V;

/** Searchable fields whose values order (numbers and strings; ISO timestamps order as strings). */
type ComparableKeys<F> = { [K in keyof F]-?: NonNullable<F[K]> extends number | string ? K : never }[keyof F];

/** Searchable fields holding text. */
type TextKeys<F> = { [K in keyof F]-?: NonNullable<F[K]> extends string ? K : never }[keyof F];

/** Operand maps: one or more searchable fields, each with a value of that field's type; all must hold. */
export interface SearchOperators<F> {
  /** Equal (strings case-sensitive); on an array field: the array contains the value. */
  eq: { [K in keyof F]?: ElementOf<F[K]> };
  /** Not equal. */
  neq: { [K in keyof F]?: ElementOf<F[K]> };
  /** Greater than (numbers numerically, strings by code unit). */
  gt: { [K in ComparableKeys<F>]?: F[K] };
  /** Greater than or equal. */
  gte: { [K in ComparableKeys<F>]?: F[K] };
  /** Less than. */
  lt: { [K in ComparableKeys<F>]?: F[K] };
  /** Less than or equal. */
  lte: { [K in ComparableKeys<F>]?: F[K] };
  /** Equal to any of the values; on an array field: any element in common. */
  in: { [K in keyof F]?: ElementOf<F[K]>[] };
  /** SQL LIKE, case-insensitive, over the whole value: `%` any run, `_` one character. */
  like: { [K in TextKeys<F>]?: string };
  /** Every word of the operand matches some word of the value within a small edit distance. */
  fuzzy: { [K in TextKeys<F>]?: string };
  /** Any word of the operand is a word of the value (case-insensitive). */
  keyword: { [K in TextKeys<F>]?: string };
  /** All filters hold. */
  and: SearchFilter<F>[];
  /** Any filter holds. */
  or: SearchFilter<F>[];
  /** The filter does not hold. */
  not: SearchFilter<F>;
}

/** A filter: an object with exactly one key, an operator. */
export type SearchFilter<F> = ExactlyOne<SearchOperators<F>>;

/** Paths into the searchable fields that hold objects (`address.city`): a hit's data then holds that part of it. */
export type SearchFieldPath<F> = {
  [K in keyof F & string]-?: NonNullable<F[K]> extends readonly unknown[]
    ? never
    : NonNullable<F[K]> extends object
      ? `${K}.${string}`
      : never;
}[keyof F & string];

/** A sort element: one searchable field and a direction (`{ created: 'desc' }`). */
export type SearchSort<F> = ExactlyOne<{ [K in keyof F]: 'asc' | 'desc' }>;

/** Params of a search call; `K` narrows the fields returned in each hit's data. */
export interface SearchRequest<F, K extends keyof F = keyof F> {
  /** Filter and sort conditions. */
  query: {
    /** The filter; omit to match every record. */
    filter?: SearchFilter<F>;
    /** Sort conditions, applied in order. Without sort: score descending, then id ascending. */
    sort?: SearchSort<F>[];
  };
  /** Maximum hits per page; default 1000. */
  limit?: number;
  /** next_cursor of the previous page. */
  cursor?: string;
  /** Fields to keep in each hit's data: names, or paths into object fields (`address.city`). */
  fields?: readonly (K | SearchFieldPath<F>)[];
}

/** One hit: the record id, its score and the requested searchable fields (absent or null when unset). */
export interface SearchHit<F, K extends keyof F = keyof F> {
  /** Record identifier. */
  id: string;
  /** Relevance score. */
  score: number;
  /** Record data holding the searchable fields. */
  data: { [P in K]?: F[P] | null };
}

/** One page of search results. */
export interface SearchResult<F, K extends keyof F = keyof F> {
  /** Matching records. */
  hits: SearchHit<F, K>[];
  /** Cursor for the next page; null on the last page. */
  next_cursor: string | null;
  /** Query execution time in milliseconds. */
  took_ms: number;
}
