/**
 * The spec's rules as the generated contract tests check them: a reference selection for list results (default
 * filter, `matches`, interval bounds; a param without a rule selects nothing), the default ordering, record invariants and value
 * formats. Written from the rules' definitions in spec/README.md, not from the mock (it imports nothing of it), so
 * the tests compare two readings of the same rule.
 */

/** A bound of an interval on a record field. */
export interface BoundRule {
  side: 'lower' | 'upper';
  inclusive: boolean;
  inclusiveParam?: string;
}

/** A `matches` rule. */
export interface MatchRule {
  fields: string[];
  mode: 'exact' | 'contains' | 'prefix';
  caseSensitive: boolean;
}

/** What one list param does to the results. */
export interface ParamRule {
  matches?: MatchRule;
  /** A matching param's value is a list joined by this separator: any entry matches. */
  separator?: string;
  rangeOf?: string;
  bound?: BoundRule;
  /** Interval objects: the bound of each member. */
  members?: Record<string, BoundRule>;
  /** Object params: the `matches` of each member that has one (calls_extensive `filter.callIds`). */
  memberMatches?: Record<string, MatchRule>;
  /** Object params: the separator of each matching member whose value is a joined list (advertising `stateFilter.include`). */
  memberSeparators?: Record<string, string>;
  /** A flag: true leaves out the records whose field holds one of the values (null: also a missing field). */
  excludes?: { field: string; values: (string | number | boolean | null)[] };
}

/** The rules of a list action. */
export interface ListRules {
  defaultFilter?: { field: string; exclude: (string | number | boolean)[]; unlessParam?: string };
  params?: Record<string, ParamRule>;
  /** A parent rule: the list holds the records of the parent record these params (param → parent field) name. */
  parent?: { entity: string; params: Record<string, string> };
}

/** A record invariant (spec/README.md, `invariants`). */
export type InvariantRule =
  | { kind: 'iff'; field: string; left: string; op: Op; right: string }
  | { kind: 'compare'; left: string; op: Op; right: string }
  | { kind: 'accountOnly'; account: string; fields: string[] };

type Op = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte';

/** The value at a dotted path, or undefined. */
export function at(record: unknown, path: string): unknown {
  let node = record;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const sameText = (a: unknown, b: unknown) => a === b || ((typeof a === 'string' || typeof a === 'number') && (typeof b === 'string' || typeof b === 'number') && String(a) === String(b));

function matchesOne(value: unknown, wanted: unknown, rule: MatchRule): boolean {
  if (Array.isArray(value)) return value.some((v) => matchesOne(v, wanted, rule));
  if (value === null || value === undefined || typeof value === 'object') return false;
  const [a, b] = rule.caseSensitive ? [String(value), String(wanted)] : [String(value).toLowerCase(), String(wanted).toLowerCase()];
  if (rule.mode === 'exact') return a === b;
  return rule.mode === 'prefix' ? a.startsWith(b) : a.includes(b);
}

function inside(value: unknown, bound: BoundRule, limit: unknown, params: Record<string, unknown>): boolean {
  const inclusive = bound.inclusive || (bound.inclusiveParam !== undefined && params[bound.inclusiveParam] === true);
  const num = (x: unknown) => (typeof x === 'number' ? x : typeof x === 'string' && /^\d+(\.\d+)?$/.test(x) ? Number(x) : undefined);
  // An ISO date-time bounded by Unix seconds (an export's start_time) compares as a time.
  const iso = (x: unknown) => (typeof x === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(x) && !Number.isNaN(Date.parse(x)) ? Date.parse(x) / 1000 : undefined);
  const [a, b] =
    num(value) !== undefined && num(limit) !== undefined
      ? [num(value)!, num(limit)!]
      : iso(value) !== undefined && (num(limit) ?? iso(limit)) !== undefined
        ? [iso(value)!, (num(limit) ?? iso(limit))!]
        : [value, limit];
  if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
  if (a === b) return inclusive;
  return bound.side === 'lower' ? (a as number) > (b as number) : (a as number) < (b as number);
}

/** Whether a list with `params` returns `record`, by the rules. */
export function selects(record: Record<string, unknown>, params: Record<string, unknown>, rules: ListRules = {}): boolean {
  const filter = rules.defaultFilter;
  // Lifted by its param given, unless given as false (includeDeleted: false keeps the default).
  const lifted = filter?.unlessParam !== undefined && params[filter.unlessParam] !== undefined && params[filter.unlessParam] !== false;
  if (filter && !lifted && filter.exclude.some((x) => sameText(at(record, filter.field), x))) return false;
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const rule = rules.params?.[name];
    if (rule?.excludes) {
      const { field, values } = rule.excludes;
      if (value === true && values.some((v) => (v === null ? (at(record, field) ?? null) === null : sameText(at(record, field), v)))) return false;
    } else if (rule?.matches) {
      if (!matchesAny(record, rule.matches, value, rule.separator)) return false;
    } else if (rule?.bound && rule.rangeOf) {
      if (!inside(at(record, rule.rangeOf), rule.bound, value, params)) return false;
    } else if ((rule?.members || rule?.memberMatches) && typeof value === 'object' && value !== null) {
      for (const [member, given] of Object.entries(value)) {
        if (given === undefined) continue;
        const bound = rule.members?.[member];
        if (bound && rule.rangeOf && !inside(at(record, rule.rangeOf), bound, given, params)) return false;
        const match = rule.memberMatches?.[member];
        if (match && !matchesAny(record, match, given, rule.memberSeparators?.[member])) return false;
      }
    }
  }
  return true;
}

/** Whether any value a matching param gives (an array's items, a separated list's entries) matches a field of the record. */
function matchesAny(record: Record<string, unknown>, rule: MatchRule, value: unknown, separator?: string): boolean {
  const wanted = Array.isArray(value) ? value : separator !== undefined && typeof value === 'string' ? value.split(separator).map((v) => v.trim()).filter(Boolean) : [value];
  if (wanted.length === 0) return true; // an empty list filters nothing
  return rule.fields.some((f) => wanted.some((one) => matchesOne(at(record, f), one, rule)));
}

/** A value the list's ordering compares: numbers (and decimal strings) as numbers, other strings as text. */
function orderValue(value: unknown): number | string | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  return undefined;
}

/** A list's default order: record fields (dotted paths) compared in turn. */
export type Ordering = readonly { field: string; direction: 'asc' | 'desc' }[];

/** The first place where records break the ordering, or undefined when they follow it. */
export function orderingBreak(records: readonly Record<string, unknown>[], ordering: Ordering): string | undefined {
  for (let i = 1; i < records.length; i++) {
    for (const o of ordering) {
      const a = orderValue(at(records[i - 1], o.field));
      const b = orderValue(at(records[i], o.field));
      if (a === undefined || b === undefined || a === b) {
        if (a === b) continue;
        if (b === undefined) break; // missing values last
        return `record ${i - 1} has no ${o.field} but record ${i} does`;
      }
      if ((o.direction === 'desc' ? a < b : a > b)) return `record ${i - 1} (${o.field} ${JSON.stringify(at(records[i - 1], o.field))}) comes before record ${i} (${JSON.stringify(at(records[i], o.field))}) against ${o.direction}`;
      break;
    }
  }
  return undefined;
}

function holdsOp(left: unknown, op: Op, right: unknown): boolean {
  if (op === 'eq') return left === right;
  if (op === 'neq') return left !== right;
  if (typeof left !== 'number' || typeof right !== 'number') return false;
  return op === 'lt' ? left < right : op === 'lte' ? left <= right : op === 'gt' ? left > right : left >= right;
}

/** Patterns of the value formats (spec/README.md, `format`). */
export const FORMATS: Record<string, RegExp> = {
  currency_lower_iso: /^[a-z]{3}$/,
  date_time: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/,
  lowercase_name: /^[^A-Z\s]*$/,
  md5_of_lower_email: /^[0-9a-f]{32}$/,
  unix_time_string: /^\d+(\.\d+)?$/,
  url: /^https?:\/\/\S+$/,
};

/** Every way a record breaks its invariants and formats (empty: it holds them). */
export function ruleBreaks(record: Record<string, unknown>, invariants: readonly InvariantRule[], formats: Record<string, string> = {}): string[] {
  const out: string[] = [];
  for (const inv of invariants) {
    if (inv.kind === 'iff') {
      const expected = holdsOp(at(record, inv.left), inv.op, at(record, inv.right));
      if (at(record, inv.field) !== expected) out.push(`${inv.field} is ${JSON.stringify(at(record, inv.field))} but ${inv.left} ${inv.op} ${inv.right} is ${expected}`);
    } else if (inv.kind === 'compare') {
      if (!holdsOp(at(record, inv.left), inv.op, at(record, inv.right))) out.push(`${inv.left} (${JSON.stringify(at(record, inv.left))}) is not ${inv.op} ${inv.right} (${JSON.stringify(at(record, inv.right))})`);
    } else {
      for (const f of inv.fields) if (at(record, f) !== null && at(record, f) !== undefined) out.push(`${f} is set, but only ${inv.account} accounts have it`);
    }
  }
  for (const [path, format] of Object.entries(formats)) {
    const value = at(record, path);
    if (typeof value === 'string' && !FORMATS[format]!.test(value)) out.push(`${path} ${JSON.stringify(value)} is not ${format}`);
  }
  return out;
}

/** The fields two records share, with differing values: [] when they agree on every shared field. */
export function sharedDifferences(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return Object.keys(a)
    .filter((k) => Object.hasOwn(b, k) && JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((k) => `${k}: ${JSON.stringify(a[k])} ≠ ${JSON.stringify(b[k])}`);
}
