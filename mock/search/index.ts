/**
 * The uniform search of the local mock service (action `search`, every connector), over one entity's records.
 *
 * Request: `{ query: { filter?, sort? }, limit?, cursor?, fields? }`; anything else is a 422.
 *
 * Filters. A filter is an object with exactly one key, an operator. `eq`, `neq`, `gt`, `gte`, `lt`, `lte`,
 * `in`, `like`, `fuzzy` and `keyword` map one or more searchable fields to operands (`{ gt: { created: 1 } }`;
 * several fields: all must hold); `and` / `or` take a non-empty array of filters, `not` one filter; no filter
 * matches every record. Filters nest at most 64 levels. A missing value counts as null.
 * - `eq`: equality, deep for objects, case-sensitive for strings; on an array value: an element equals the
 *   operand. `neq` is exactly `not eq` (so a missing value is `neq` anything but null). A null operand asks for
 *   null or missing values.
 * - `gt` / `gte` / `lt` / `lte`: numbers numerically, strings by UTF-16 code unit (ISO timestamps order
 *   correctly); null, missing or other-kind values never hold.
 * - `in`: an array of operands; holds when the value equals any (array value: any element in common).
 * - `like`: SQL LIKE over the whole value, case-insensitive (both sides lower-cased): `%` any run, `_` one
 *   character (code point), `\` makes the next character literal.
 * - `keyword`: any word of the operand is a word of the value. `fuzzy`: every word of the operand is within
 *   0 edits (words of ≤ 4 letters), 1 edit (5–8 letters) or 2 edits (> 8 letters) of some word of the value —
 *   Levenshtein distance over code points. Words are runs of letters and decimal digits, lower-cased; order and
 *   repeats are ignored. The operand must contain a word.
 *
 * Types (422 `invalid_operand` otherwise). integer fields take integral numbers, number fields numbers, string
 * fields strings, boolean fields booleans, object fields objects, array fields any JSON element for eq / neq and
 * an array for `in`; eq / neq / in also take null; enum fields take their enum values. `like` / `fuzzy` /
 * `keyword` take strings and apply to string fields only; comparisons apply to number and string fields; `in`
 * does not apply to object fields (422 `unsupported_operator`). A field typed `a|b` takes what `a` or `b` takes.
 *
 * Score. 1 when the filter has no `keyword` / `fuzzy`. Otherwise: a keyword leaf scores the share of the
 * operand's distinct words found in the value; a fuzzy leaf the mean over the operand's distinct words of
 * 1 − 0.1 × edits (so one edit costs 0.1 of that word); `and` (and a map naming several fields) takes the mean
 * over its children that have keyword / fuzzy, `or` the highest score among its children that hold, `not` has
 * no score. Rounded to 6 decimals.
 *
 * Order. By `sort` (`[{ field: 'asc' | 'desc' }]`, applied in order; numbers, strings and booleans sort,
 * different kinds as booleans < numbers < strings; nulls, missing values, objects and arrays last in both
 * directions), then by score descending, then by id ascending (code units) — always a total order.
 *
 * Pages. `limit` (integer ≥ 1, default 1000) hits per page; `next_cursor` is null on the last page, else an
 * opaque keyset cursor that continues the same query (filter and sort; `limit` and `fields` may change) after
 * the last hit — a cursor of another query or a malformed one is a 422 (`invalid_cursor`). `fields` keeps only
 * the named searchable fields in each hit's data. `took_ms` is measured.
 *
 * Keys `__proto__`, `constructor` and `prototype` are never fields. The index keeps a shallow copy of each
 * record's data; call `upsert` after a record changes. Indexes are built lazily per field and dropped on writes.
 */
import { SearchRequestError } from './errors.js';
import { decodeCursor, encodeCursor, queryFingerprint } from './cursor.js';
import { findHits } from './execute.js';
import { type FieldModel, declaredFields, inferredFields } from './fields.js';
import { parseRequest } from './request.js';
import { type DocumentSource, documentSource, Snapshot, type StoredDocument } from './snapshot.js';

export type { DocumentSource } from './snapshot.js';
import { isInertKey, isPlainObject } from './values.js';
import { readPath, setPath } from '../query/values.js';

export { SearchRequestError, type SearchFieldError } from './errors.js';
export { DEFAULT_LIMIT } from './request.js';

/** A searchable field of an entity (the catalogue's searchableFields entry). */
export interface SearchField {
  name: string;
  /** 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array', or base types joined by `|`. */
  type: string;
  enum?: (string | number | boolean)[];
}

/** One record as the search sees it: its id and its searchable data. */
export interface SearchDocument {
  id: string;
  data: Record<string, unknown>;
}

/** One page of search results (the search hit object of the contract). */
export interface SearchResponse {
  hits: { id: string; score: number; data: Record<string, unknown> }[];
  next_cursor: string | null;
  took_ms: number;
}

/** The searchable records of one entity. */
export class SearchIndex {
  private readonly records = new Map<string, StoredDocument>();
  /** Records read from outside (read-only); otherwise the index holds its documents in `records`. */
  private readonly source: DocumentSource | undefined;
  private readonly declared: Map<string, FieldModel> | null;
  /** What cursors are tied to besides the query: the declared fields (or "inferred"). */
  private readonly fieldsTag: string;
  private snapshot: Snapshot | null = null;

  /**
   * documents: the records (the index keeps copies; upsert and remove change them), or a source it reads on
   * demand (read-only: the owner builds a new index when the records change). fields === null: the contract does
   * not show the entity's searchable fields — accept any field name present in the data, typed by its values.
   */
  constructor(documents: SearchDocument[] | DocumentSource, fields: SearchField[] | null) {
    this.declared = fields ? declaredFields(fields) : null;
    this.fieldsTag = fields ? JSON.stringify([...this.declared!.values()].map((f) => [f.name, f.type])) : 'inferred';
    if (Array.isArray(documents)) for (const document of documents) this.upsert(document);
    else this.source = documents;
  }

  /** params: the execute body's params of a search action: { query: { filter?, sort? }, limit?, cursor?, fields? } (unknown input: validate it all). */
  search(params: unknown): SearchResponse {
    const started = performance.now();
    const snap = this.current();
    const request = parseRequest(params, snap.fields);
    const fingerprint = queryFingerprint(this.fieldsTag, request.filter, request.sort);
    const cursor = request.cursor === null ? null : decodeCursor(request.cursor, fingerprint, request.sort.length);
    const found = findHits(snap, request.filter, request.sort, cursor, request.limit);
    const page = found.slice(0, request.limit);
    const last = page[page.length - 1];
    const hits = page.map((h) => {
      const data = snap.data(h.rank);
      return { id: snap.ids[h.rank]!, score: h.score, data: pick(data, request.fields ?? this.outputFields(data)) };
    });
    const next_cursor = found.length > request.limit && last ? encodeCursor(fingerprint, { values: last.key, score: last.score, id: snap.ids[last.rank]! }) : null;
    return { hits, next_cursor, took_ms: Math.round((performance.now() - started) * 1000) / 1000 };
  }

  /** The mock writes records too: keep the index current. */
  upsert(document: SearchDocument): void {
    if (this.source) throw new TypeError('SearchIndex.upsert: this index reads its records from a source');
    if (!isPlainObject(document) || typeof document.id !== 'string' || !isPlainObject(document.data)) {
      throw new TypeError('SearchIndex.upsert: a document is { id: string, data: object }');
    }
    this.records.set(document.id, { id: document.id, data: { ...document.data } });
    this.snapshot = null;
  }

  /** Removes a record (nothing happens when the id is unknown). */
  remove(id: string): void {
    if (this.records.delete(id)) this.snapshot = null;
  }

  private current(): Snapshot {
    if (!this.snapshot) {
      const source = this.source ?? documentSource([...this.records.values()]);
      const datas = function* () {
        for (let i = 0; i < source.size; i++) yield source.data(i);
      };
      this.snapshot = new Snapshot(source, this.declared ?? inferredFields(datas()));
    }
    return this.snapshot;
  }

  /** The fields a hit shows without `fields`: the declared ones, or every field of the record when inferred. */
  private outputFields(data: Record<string, unknown>): Iterable<string> {
    return this.declared ? this.declared.keys() : Object.keys(data).filter((k) => !isInertKey(k));
  }
}

/** The named fields a record has (inert names never reach here). */
function pick(data: Record<string, unknown>, names: Iterable<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    if (Object.hasOwn(data, name)) out[name] = data[name];
    else if (name.includes('.')) {
      // A path into an object field (address.city): that part of it, under the same path; nothing inside a field
      // already picked whole (it is the record's own object: never written into).
      const value = readPath(data, name);
      const head = name.slice(0, name.indexOf('.'));
      if (value !== undefined && !(Object.hasOwn(out, head) && out[head] === data[head])) setPath(out, name.split('.'), value);
    }
  }
  return out;
}
