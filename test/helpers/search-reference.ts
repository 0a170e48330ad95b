/**
 * A deliberately naive evaluation of the uniform search semantics (issue 4, documented in mock/search/index.ts):
 * a linear scan with no indexes, written from the rules and not from the engine (it imports nothing of it),
 * so tests can compare the two. It expects valid params (the engine's 422s are tested on their own), returns
 * the ids (and scores) of the first page in order, and refuses a cursor: to check paging, walk the engine's
 * pages and compare with one reference call whose limit covers them all.
 */

/** A searchable field as the catalogue lists it (only the names are used: evaluation goes by the values). */
export interface ReferenceField {
  name: string;
  type: string;
}

/** A record: its id and searchable data. */
export interface ReferenceDocument {
  id: string;
  data: Record<string, unknown>;
}

type Filter = Record<string, unknown>;
type Sortable = boolean | number | string | null;

/** The ids (and scores) of the first page of hits of `params` over `documents`, in order. */
export function referenceSearch(documents: readonly ReferenceDocument[], fields: readonly ReferenceField[] | null, params: unknown): { ids: string[]; scores: number[] } {
  const p = params as { query: { filter?: Filter; sort?: Record<string, 'asc' | 'desc'>[] }; limit?: number; cursor?: string | null };
  if (p.cursor !== undefined && p.cursor !== null) throw new Error('referenceSearch evaluates first pages only; pass a limit covering every page instead of a cursor');
  if (fields) checkNames(p.query.filter, p.query.sort ?? [], new Set(fields.map((f) => f.name)));
  const sort = (p.query.sort ?? []).map((s) => Object.entries(s)[0]!);
  const filter = p.query.filter;

  const hits: { id: string; score: number; keys: Sortable[] }[] = [];
  for (const doc of documents) {
    const value = (name: string): unknown => (Object.hasOwn(doc.data, name) && doc.data[name] !== undefined ? doc.data[name] : null);
    if (filter && !holds(filter, value)) continue;
    const raw = filter ? scoreOf(filter, value) : null;
    const score = raw === null ? 1 : Math.round(raw * 1e6) / 1e6;
    hits.push({ id: doc.id, score, keys: sort.map(([name]) => sortable(value(name))) });
  }
  hits.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const c = compareSortable(a.keys[i]!, b.keys[i]!, sort[i]![1] === 'desc');
      if (c !== 0) return c;
    }
    if (a.score !== b.score) return a.score > b.score ? -1 : 1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  const page = hits.slice(0, p.limit ?? 1000);
  return { ids: page.map((h) => h.id), scores: page.map((h) => h.score) };
}

function checkNames(filter: Filter | undefined, sort: Record<string, string>[], names: Set<string>): void {
  const check = (name: string) => {
    if (!names.has(name)) throw new Error(`referenceSearch: "${name}" is not a searchable field`);
  };
  sort.forEach((s) => Object.keys(s).forEach(check));
  const visit = (f: Filter) => {
    const [op, arg] = Object.entries(f)[0]!;
    if (op === 'and' || op === 'or') (arg as Filter[]).forEach(visit);
    else if (op === 'not') visit(arg as Filter);
    else Object.keys(arg as object).forEach(check);
  };
  if (filter) visit(filter);
}

function holds(filter: Filter, value: (name: string) => unknown): boolean {
  const [op, arg] = Object.entries(filter)[0]!;
  if (op === 'and') return (arg as Filter[]).every((f) => holds(f, value));
  if (op === 'or') return (arg as Filter[]).some((f) => holds(f, value));
  if (op === 'not') return !holds(arg as Filter, value);
  return Object.entries(arg as Record<string, unknown>).every(([name, operand]) => leafHolds(op, value(name), operand));
}

function leafHolds(op: string, v: unknown, operand: unknown): boolean {
  switch (op) {
    case 'eq':
      return Array.isArray(v) ? v.some((e) => same(e, operand)) : same(v, operand);
    case 'neq':
      return !leafHolds('eq', v, operand);
    case 'in':
      return (operand as unknown[]).some((o) => leafHolds('eq', v, o));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const comparable = (typeof v === 'number' && typeof operand === 'number') || (typeof v === 'string' && typeof operand === 'string');
      if (!comparable) return false;
      const [a, b] = [v as number | string, operand as number | string];
      return op === 'gt' ? a > b : op === 'gte' ? a >= b : op === 'lt' ? a < b : a <= b;
    }
    case 'like':
      return typeof v === 'string' && likeMatches([...v.toLowerCase()], likeTokens([...(operand as string).toLowerCase()]));
    case 'keyword':
      return typeof v === 'string' && words(operand as string).some((w) => words(v).includes(w));
    case 'fuzzy':
      return typeof v === 'string' && words(operand as string).every((w) => words(v).some((x) => levenshtein(w, x) <= allowedEdits(w)));
    default:
      throw new Error(`referenceSearch: unknown operator ${op}`);
  }
}

/** Score of a holding filter; null when it has no keyword or fuzzy. */
function scoreOf(filter: Filter, value: (name: string) => unknown): number | null {
  const [op, arg] = Object.entries(filter)[0]!;
  if (op === 'and') return mean((arg as Filter[]).map((f) => scoreOf(f, value)));
  if (op === 'or') {
    const scores = (arg as Filter[]).filter((f) => holds(f, value)).map((f) => scoreOf(f, value)).filter((s) => s !== null);
    return scores.length ? Math.max(...scores) : null;
  }
  if (op === 'keyword' || op === 'fuzzy') {
    return mean(
      Object.entries(arg as Record<string, string>).map(([name, text]) => {
        const valueWords = words(value(name) as string);
        const operandWords = [...new Set(words(text))];
        const perWord = operandWords.map((w) => {
          if (op === 'keyword') return valueWords.includes(w) ? 1 : 0;
          return 1 - 0.1 * Math.min(...valueWords.map((x) => levenshtein(w, x)));
        });
        return perWord.reduce((s, x) => s + x, 0) / perWord.length;
      }),
    );
  }
  return null;
}

function mean(scores: (number | null)[]): number | null {
  const known = scores.filter((s): s is number => s !== null);
  return known.length ? known.reduce((s, x) => s + x, 0) / known.length : null;
}

/** Deep equality of JSON values, by comparing their key-sorted JSON texts. */
function same(a: unknown, b: unknown): boolean {
  return sortedJson(a) === sortedJson(b);
}

function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${sortedJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Words: maximal runs of letters and decimal digits (code point by code point), lower-cased. */
function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const ch of text) {
    if (/^[\p{L}\p{Nd}]$/u.test(ch)) current += ch;
    else if (current) (out.push(current.toLowerCase()), (current = ''));
  }
  if (current) out.push(current.toLowerCase());
  return out;
}

function allowedEdits(word: string): number {
  const letters = [...word].length;
  return letters <= 4 ? 0 : letters <= 8 ? 1 : 2;
}

/** Plain dynamic-programming Levenshtein distance over code points. */
function levenshtein(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const d: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
  }
  return d[x.length]![y.length]!;
}

type LikeToken = { any: true } | { one: true } | { char: string };

function likeTokens(pattern: string[]): LikeToken[] {
  const tokens: LikeToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) tokens.push({ char: pattern[++i]! });
    else if (c === '%') tokens.push({ any: true });
    else if (c === '_') tokens.push({ one: true });
    else tokens.push({ char: c });
  }
  return tokens;
}

/** Whether the tokens match all of `text` (memoized recursion over positions). */
function likeMatches(text: string[], tokens: LikeToken[]): boolean {
  const memo = new Map<number, boolean>();
  const match = (t: number, k: number): boolean => {
    const key = t * (tokens.length + 1) + k;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    const token = tokens[k];
    if (!token) result = t === text.length;
    else if ('any' in token) result = match(t, k + 1) || (t < text.length && match(t + 1, k));
    else if (t >= text.length) result = false;
    else if ('one' in token) result = match(t + 1, k + 1);
    else result = token.char === text[t] && match(t + 1, k + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
}

/** The sortable form of a value: booleans, numbers and strings; everything else is null. */
function sortable(v: unknown): Sortable {
  return typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string' ? v : null;
}

/** Nulls last in both directions; booleans < numbers < strings; then natural order (code units for strings). */
function compareSortable(a: Sortable, b: Sortable, descending: boolean): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  const kind = (x: boolean | number | string) => ['boolean', 'number', 'string'].indexOf(typeof x);
  const c = kind(a) !== kind(b) ? kind(a) - kind(b) : a < b ? -1 : a > b ? 1 : 0;
  return descending ? -c : c;
}
