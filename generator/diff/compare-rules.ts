/**
 * The contract's rules in the diff (spec/README.md, Rules): every rule key of the IR, on the node that carries it,
 * compared by meaning — the default order and filter of a list, its param groups, the param and field that
 * identify a record, partial updates, record invariants, where an entity's records come from, and on params and
 * fields the value format, how a list param matches, interval fields and bounds, and derived values. RULE_KEYS
 * registers each key with the check ids it reports (check-table.ts RULES and the facets of PARAM, SEARCHABLE and
 * RESPONSE); it is typed against the IR, so a key renamed there fails to compile here. Words of a rule
 * (description, note, provenance, assumption) are docs.
 */
import { FORMAT_PATTERNS, type ActionIR, type AuthVariableIR, type BoundIR, type ConnectorIR, type DefaultFilterIR, type EntityIR, type InvariantIR, type OrderingIR, type ParamGroupIR, type ParentIR, type SchemaIR, type ShapeIR, type SourceLocation } from '../ir.js';
import { show, type ChangeExtra, type ChangeSink, type Scope } from './sink.js';

/** Rule keys of one IR node type → the check ids (or facets, for schemas) a change to each can report. */
type Registry<T> = { readonly [K in keyof T]?: readonly string[] };

/**
 * Every rule key the diff compares, per IR node. Schema keys name facets: `format-added` is reported as
 * `param-format-added`, `searchable-field-format-added` or `response-field-format-added` (SCHEMA_RULE_KINDS says
 * which kinds carry each key). `orderingFrom` is where the order is written, never a change of its own.
 */
export const RULE_KEYS = {
  action: {
    ordering: ['ordering-added', 'ordering-refined', 'ordering-changed', 'ordering-removed'],
    orderingFrom: [],
    defaultFilter: ['default-filter-added', 'default-filter-changed', 'default-filter-removed'],
    paramGroups: ['param-group-added', 'param-group-changed', 'param-group-loosened', 'param-group-removed'],
    keyParam: ['key-param-added', 'key-param-changed'],
    alternateKeys: ['alternate-key-added', 'alternate-key-removed'],
    updateSemantics: ['update-semantics-added', 'update-semantics-changed'],
  } satisfies Registry<ActionIR>,
  shape: {
    key: ['record-key-added', 'record-key-changed'],
    invariants: ['invariant-added', 'invariant-removed'],
  } satisfies Registry<ShapeIR>,
  entity: { recordsFrom: ['records-from-changed'], parent: ['parent-added', 'parent-changed', 'parent-removed'] } satisfies Registry<EntityIR>,
  schema: {
    format: ['format-added', 'format-changed', 'format-removed'],
    matches: ['matches-added', 'matches-changed', 'matches-removed'],
    excludes: ['excludes-added', 'excludes-changed', 'excludes-removed'],
    sortBy: ['sort-added', 'sort-changed', 'sort-removed'],
    rangeOf: ['range-added', 'range-changed', 'range-removed'],
    bound: ['bound-added', 'bound-changed', 'bound-removed'],
    derive: ['derive-changed'],
  } satisfies Registry<SchemaIR>,
  variable: { suppliedIn: ['auth-variable-supplied-added', 'auth-variable-supplied-required-added', 'auth-variable-supplied-removed'] } satisfies Registry<AuthVariableIR>,
} as const;

/** Schema kinds that carry each schema rule key (params filter and bound lists; fields are derived). */
export const SCHEMA_RULE_KINDS: Record<keyof typeof RULE_KEYS.schema, readonly ('param' | 'searchable-field' | 'response-field')[]> = {
  format: ['param', 'searchable-field', 'response-field'],
  matches: ['param'],
  excludes: ['param'],
  sortBy: ['param'],
  rangeOf: ['param'],
  bound: ['param'],
  derive: ['searchable-field', 'response-field'],
};

/** Keys of rule data on a node type (the walk leaves them to this module). */
export function ruleKeys(node: keyof typeof RULE_KEYS): string[] {
  return Object.keys(RULE_KEYS[node]);
}

/** Words of a rule (description, note, provenance, assumption) do not change what it means. */
const WORDS = new Set(['description', 'note', 'provenance', 'assumption']);

/** A rule without its words, keys sorted (arrays keep their order: it is the rule's). */
function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !WORDS.has(k))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, x]) => [k, strip(x)]),
    );
  }
  return value;
}

/** A rule's meaning as JSON text. */
const meaning = (value: unknown) => show(strip(value));

const orderText = (o: readonly OrderingIR[]) => o.map((x) => `${x.field} ${x.direction}`).join(', then ');
const filterText = (f: DefaultFilterIR) => `${f.field} not ${show(f.exclude)}${f.unlessParam ? ` unless \`${f.unlessParam}\` is given` : ''}`;
const groupText = (g: ParamGroupIR) => `${g.kind} of ${g.alternatives.map((a) => a.join('+')).join(' | ')}`;
function invariantText(i: InvariantIR): string {
  if (i.kind === 'iff') return `${i.field} iff ${i.left} ${i.op} ${i.right}`;
  if (i.kind === 'compare') return `${i.left} ${i.op} ${i.right}`;
  return `${i.fields.join(', ')} null unless a ${i.account} account`;
}

/** Compares the rules of one action pair: ordering, default filter, param groups, key param and alternate keys, update semantics. */
export function compareActionRules(sink: ChangeSink, scope: Scope, target: string, b: ActionIR, h: ActionIR): void {
  const at = h.source;
  compareOrdering(sink, scope, target, b, h);
  compareDefaultFilter(sink, scope, target, b.defaultFilter, h.defaultFilter, at);
  compareParamGroups(sink, scope, target, b.paramGroups ?? [], h.paramGroups ?? [], at);
  compareKeyParam(sink, scope, target, b, h);
  compareAlternateKeys(sink, scope, target, b, h);
  if (b.updateSemantics !== h.updateSemantics) {
    const extra = { before: b.updateSemantics ?? null, after: h.updateSemantics ?? null };
    if (b.updateSemantics === undefined && h.updateSemantics === 'partial') sink.add('update-semantics-added', scope, target, `${target} now states it is partial: fields not given keep their values`, at, extra);
    else sink.add('update-semantics-changed', scope, target, `${target} is no longer stated to be ${b.updateSemantics}${h.updateSemantics ? ` (now ${h.updateSemantics})` : ''}`, at, extra);
  }
}

/**
 * The default order. A list taking the connector's defaults.ordering on both sides (or on the side it exists on)
 * reports a change of it once, at defaults.ordering, with every such list.
 */
function compareOrdering(sink: ChangeSink, scope: Scope, target: string, b: ActionIR, h: ActionIR): void {
  const [before, after] = [b.ordering, h.ordering];
  if (show(before) === show(after)) return;
  const from = before && after ? (b.orderingFrom && h.orderingFrom ? h.orderingFrom : undefined) : (h.orderingFrom ?? b.orderingFrom);
  const extra: ChangeExtra = { before: before ?? null, after: after ?? null, ...(from ? { shared: { key: 'defaults.ordering', location: from } } : {}) };
  if (!before) return sink.add('ordering-added', scope, target, `${target} now states its default order: ${orderText(after!)}`, h.source, extra);
  if (!after) return sink.add('ordering-removed', scope, target, `${target} no longer states its default order (was ${orderText(before)})`, h.source, extra);
  const refined = after.length > before.length && show(after.slice(0, before.length)) === show(before);
  sink.add(refined ? 'ordering-refined' : 'ordering-changed', scope, target, `default order of ${target} ${refined ? 'refined' : 'changed'} from ${orderText(before)} to ${orderText(after)}`, h.source, extra);
}

function compareDefaultFilter(sink: ChangeSink, scope: Scope, target: string, b: DefaultFilterIR | undefined, h: DefaultFilterIR | undefined, at: SourceLocation): void {
  if (show(b) === show(h)) return;
  const extra = { before: b ? strip(b) : null, after: h ? strip(h) : null };
  if (!b) sink.add('default-filter-added', scope, target, `${target} now leaves out records by default: ${filterText(h!)}`, at, extra);
  else if (!h) sink.add('default-filter-removed', scope, target, `${target} no longer leaves out records by default (was ${filterText(b)})`, at, extra);
  else if (meaning(b) !== meaning(h)) sink.add('default-filter-changed', scope, target, `default filter of ${target} changed from ${filterText(b)} to ${filterText(h)}`, at, extra);
  else sink.add('docs-changed', scope, target, `words of the default filter of ${target} changed`, at, { direction: 'response' });
}

/** Whether every call group `b` accepts satisfies group `h` (each complete alternative of b completes one of h). */
function looser(b: ParamGroupIR, h: ParamGroupIR): boolean {
  return h.kind === 'atLeastOne' && b.alternatives.every((ba) => h.alternatives.some((ha) => ha.every((p) => ba.includes(p))));
}

/**
 * Param groups as a set (their order never counts). A group removed and one added that share a param are one
 * group changed: loosened when every call the old one accepted satisfies the new one.
 */
function compareParamGroups(sink: ChangeSink, scope: Scope, target: string, bs: readonly ParamGroupIR[], hs: readonly ParamGroupIR[], at: SourceLocation): void {
  const bm = bs.map(meaning);
  const hm = hs.map(meaning);
  const removed = bs.filter((_, i) => !hm.includes(bm[i]!));
  const added = hs.filter((_, i) => !bm.includes(hm[i]!));
  const params = (g: ParamGroupIR) => new Set(g.alternatives.flat());
  for (const hg of added) {
    const i = removed.findIndex((bg) => [...params(bg)].some((p) => params(hg).has(p)));
    const extra = { before: i >= 0 ? strip(removed[i]) : null, after: strip(hg) };
    if (i < 0) {
      sink.add('param-group-added', scope, target, `${target} gained a param group: ${groupText(hg)}`, at, extra);
      continue;
    }
    const [bg] = removed.splice(i, 1);
    const id = looser(bg!, hg) ? 'param-group-loosened' : 'param-group-changed';
    sink.add(id, scope, target, `param group of ${target} changed from ${groupText(bg!)} to ${groupText(hg)}`, at, extra);
  }
  for (const bg of removed) sink.add('param-group-removed', scope, target, `${target} lost a param group: ${groupText(bg)}`, at, { before: strip(bg) });
  if (removed.length === 0 && added.length === 0 && show([...bs.map((g) => show(g))].sort()) !== show([...hs.map((g) => show(g))].sort())) {
    sink.add('docs-changed', scope, target, `words of the param groups of ${target} changed`, at, { direction: 'request' });
  }
}

/**
 * The param carrying the record's key. A key param renamed (the old one gone, the new one new) is reported by the
 * params themselves; here only a key that moves between params that are there, or is named for one that was.
 */
function compareKeyParam(sink: ChangeSink, scope: Scope, target: string, b: ActionIR, h: ActionIR): void {
  if (b.keyParam === h.keyParam) return;
  const inBase = (name: string | undefined) => name !== undefined && b.params.some((p) => p.name === name);
  const inHead = (name: string | undefined) => name !== undefined && h.params.some((p) => p.name === name);
  const extra = { before: b.keyParam ?? null, after: h.keyParam ?? null };
  if (b.keyParam === undefined) {
    if (inBase(h.keyParam)) sink.add('key-param-added', scope, target, `${target} now names \`${h.keyParam}\` as the param carrying the record's key`, h.source, extra);
  } else if (h.keyParam === undefined) {
    if (inHead(b.keyParam)) sink.add('key-param-changed', scope, target, `\`${b.keyParam}\` no longer carries the key of the record ${target} addresses, and no param does`, h.source, extra);
  } else if (inHead(b.keyParam) || inBase(h.keyParam)) {
    sink.add('key-param-changed', scope, target, `the key of the record ${target} addresses moved from \`${b.keyParam}\` to \`${h.keyParam}\``, h.source, extra);
  }
}

/**
 * The fields whose values the key param also takes, as a set: one added lets calls find records that were not found;
 * one removed turns calls that found a record by it into not-found. Only their words changed: docs.
 */
function compareAlternateKeys(sink: ChangeSink, scope: Scope, target: string, b: ActionIR, h: ActionIR): void {
  if (show(b.alternateKeys) === show(h.alternateKeys)) return;
  const before = b.alternateKeys?.fields ?? [];
  const after = h.alternateKeys?.fields ?? [];
  const param = h.keyParam ?? b.keyParam ?? 'the key param';
  for (const field of after.filter((f) => !before.includes(f))) {
    sink.add('alternate-key-added', scope, target, `\`${param}\` of ${target} now also takes a record's \`${field}\``, h.source, { before, after });
  }
  for (const field of before.filter((f) => !after.includes(f))) {
    sink.add('alternate-key-removed', scope, target, `\`${param}\` of ${target} no longer takes a record's \`${field}\``, h.source, { before, after });
  }
  if (before.length === after.length && before.every((f) => after.includes(f))) {
    sink.add('docs-changed', scope, target, `words or order of the alternate keys of ${target} changed`, h.source, { direction: 'request' });
  }
}

/** Actions of `connector` addressing records of `shape` by a key param. */
function keyParamsOf(connector: ConnectorIR, shape: string): string[] {
  return connector.entities.flatMap((e) => e.actions.filter((a) => a.keyParam !== undefined && (a.result.record ?? e.record) === shape).map((a) => a.keyParam!));
}

/** The field that identifies a record: the stated key, else the key param's field, `id` or `gid` (the fixtures' convention). */
function impliedKey(shape: ShapeIR, connector: ConnectorIR): string | undefined {
  if (shape.key) return shape.key;
  const has = (name: string) => shape.properties.some((p) => p.name === name);
  return keyParamsOf(connector, shape.name).find(has) ?? ['id', 'gid'].find(has);
}

/** Compares the rules of one record or meta shape pair: key and invariants. */
export function compareShapeRules(sink: ChangeSink, scope: Scope, target: string, b: ShapeIR, h: ShapeIR, sides: { base: ConnectorIR; head: ConnectorIR }): void {
  const at = h.source;
  if (b.key !== h.key) {
    const [before, after] = [impliedKey(b, sides.base), impliedKey(h, sides.head)];
    const extra = { before: before ?? null, after: after ?? null };
    if (before === after) sink.add('docs-changed', scope, target, `the key of ${target} is ${h.key ? 'now written out' : 'no longer written out'} (it is \`${after}\` either way)`, at, { direction: 'response' });
    else if (before === undefined) sink.add('record-key-added', scope, target, `${target} is now identified by \`${after}\``, at, extra);
    else sink.add('record-key-changed', scope, target, after === undefined ? `${target} is no longer stated to be identified by \`${before}\`` : `${target} is identified by \`${after}\` instead of \`${before}\``, at, extra);
  }
  compareInvariants(sink, scope, target, b.invariants ?? [], h.invariants ?? [], at);
}

const MIRROR: Record<string, string> = { eq: 'eq', neq: 'neq', lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' };
/** Ops each op implies (`a lt b` implies `a lte b` and `a neq b`). */
const IMPLIES: Record<string, readonly string[]> = { eq: ['eq', 'lte', 'gte'], neq: ['neq'], lt: ['lt', 'lte', 'neq'], lte: ['lte'], gt: ['gt', 'gte', 'neq'], gte: ['gte'] };

/** A compare invariant with its operands in name order (`b gt a` is `a lt b`). */
function oriented(i: Extract<InvariantIR, { kind: 'compare' }>): { left: string; op: string; right: string } {
  return i.left <= i.right ? { left: i.left, op: i.op, right: i.right } : { left: i.right, op: MIRROR[i.op]!, right: i.left };
}

/** Whether two invariants are about the same thing (one may be the other changed). */
function sameSubject(b: InvariantIR, h: InvariantIR): boolean {
  if (b.kind === 'compare' && h.kind === 'compare') {
    const [x, y] = [oriented(b), oriented(h)];
    return x.left === y.left && x.right === y.right;
  }
  if (b.kind === 'iff' && h.kind === 'iff') return b.field === h.field;
  return b.kind === 'accountOnly' && h.kind === 'accountOnly' && b.account === h.account;
}

/** Whether every record holding `h` holds `b` too (`h` is as strong or stronger). */
function strongerOrEqual(h: InvariantIR, b: InvariantIR): boolean {
  if (b.kind === 'compare' && h.kind === 'compare') return IMPLIES[oriented(h).op]!.includes(oriented(b).op);
  if (b.kind === 'accountOnly' && h.kind === 'accountOnly') return b.fields.every((f) => h.fields.includes(f));
  return meaning(b) === meaning(h);
}

/**
 * Invariants as a set. A rule removed and one added about the same subject are one rule changed: a stronger one
 * is an invariant added (records hold the old rule still), any other an invariant removed.
 */
function compareInvariants(sink: ChangeSink, scope: Scope, target: string, bs: readonly InvariantIR[], hs: readonly InvariantIR[], at: SourceLocation): void {
  const bm = bs.map(meaning);
  const hm = hs.map(meaning);
  const removed = bs.filter((_, i) => !hm.includes(bm[i]!));
  const added = hs.filter((_, i) => !bm.includes(hm[i]!));
  for (const hi of added) {
    const i = removed.findIndex((bi) => sameSubject(bi, hi));
    if (i < 0) {
      sink.add('invariant-added', scope, target, `${target} gained an invariant: ${invariantText(hi)}`, at, { after: strip(hi) });
      continue;
    }
    const [bi] = removed.splice(i, 1);
    const stronger = strongerOrEqual(hi, bi!);
    // The same rule written another way (`b gt a` for `a lt b`): nothing changed.
    if (stronger && strongerOrEqual(bi!, hi)) continue;
    const what = `${stronger ? 'strengthened' : 'changed'} from ${invariantText(bi!)} to ${invariantText(hi)}`;
    sink.add(stronger ? 'invariant-added' : 'invariant-removed', scope, target, `an invariant of ${target} ${what}`, at, { before: strip(bi), after: strip(hi) });
  }
  for (const bi of removed) sink.add('invariant-removed', scope, target, `${target} lost an invariant: ${invariantText(bi)}`, at, { before: strip(bi) });
  if (removed.length === 0 && added.length === 0 && show([...bs.map((x) => show(x))].sort()) !== show([...hs.map((x) => show(x))].sort())) {
    sink.add('docs-changed', scope, target, `words of the invariants of ${target} changed`, at, { direction: 'response' });
  }
}

/** Compares the rules of one entity pair: recordsFrom and parent. */
export function compareEntityRules(sink: ChangeSink, scope: Scope, target: string, b: EntityIR, h: EntityIR): void {
  compareParent(sink, scope, target, b, h);
  if (b.recordsFrom === h.recordsFrom) return;
  const text = (e: EntityIR) => (e.recordsFrom ? `the records of \`${e.recordsFrom}\`` : 'records of its own');
  sink.add('records-from-changed', scope, target, `${target} now works on ${text(h)} instead of ${text(b)}`, h.source, { before: b.recordsFrom ?? null, after: h.recordsFrom ?? null });
}

/** A parent rule's meaning (entity, and each param with the field it names), without its words. */
const parentMeaning = (p: ParentIR | undefined) => p && { entity: p.entity, params: Object.fromEntries(p.params.map((x) => [x.param, x.field])), ...(p.field ? { field: p.field } : {}) };

/** Compares the parent rules of one entity pair: added, changed or removed; changed words are docs. */
function compareParent(sink: ChangeSink, scope: Scope, target: string, b: EntityIR, h: EntityIR): void {
  const [before, after] = [parentMeaning(b.parent), parentMeaning(h.parent)];
  const text = (m: NonNullable<typeof before>) => `the \`${m.entity}\` record ${Object.entries(m.params).map(([param, field]) => `\`${param}\` (its \`${field}\`)`).join(' and ')} names`;
  const extra = { before: before ?? null, after: after ?? null };
  if (!before && after) sink.add('parent-added', scope, target, `records of ${target} now belong to ${text(after)}`, h.source, extra);
  else if (before && !after) sink.add('parent-removed', scope, target, `records of ${target} no longer belong to ${text(before)}`, h.source, extra);
  else if (before && after && show(before) !== show(after)) sink.add('parent-changed', scope, target, `records of ${target} now belong to ${text(after)} instead of ${text(before)}`, h.source, extra);
  else if (b.parent && h.parent && show(b.parent) !== show(h.parent)) sink.add('docs-changed', scope, target, `words of the parent rule of ${target} changed`, h.source, { direction: 'response' });
}

/** Compares where an auth variable present on both sides is supplied (suppliedIn). */
export function compareVariableRules(sink: ChangeSink, scope: Scope, b: AuthVariableIR, h: AuthVariableIR): void {
  if (b.suppliedIn === h.suppliedIn) return;
  const target = `auth_config variable \`${h.name}\``;
  const extra = { before: b.suppliedIn ?? null, after: h.suppliedIn ?? null };
  if (h.suppliedIn === undefined) {
    sink.add('auth-variable-supplied-removed', scope, target, `${target} is no longer supplied in ${b.suppliedIn}`, h.source, extra);
    return;
  }
  // authConfigFields: a variable with a default (shown or not) is optional in auth_config.
  const required = h.required && h.default === undefined && h.defaultUnspecified === undefined;
  sink.add(required ? 'auth-variable-supplied-required-added' : 'auth-variable-supplied-added', scope, target, `${target} is now supplied in ${h.suppliedIn}${required ? ', required' : ' (optional: it has a default)'}`, h.source, extra);
}

/** How compareSchemaRules reports: a facet change of the item, or changed words of one of its rules. */
export interface SchemaRuleReport {
  /** A facet (`format-added`) with its message and values. */
  facet(facet: string, message: string, before?: unknown, after?: unknown): void;
  /** Words of a rule changed (a docs change). */
  words(message: string): void;
}

const boundTextOf = (x: BoundIR) => `${x.side} ${x.inclusive ? 'inclusive' : 'exclusive'}${x.inclusiveParam ? ` (inclusive when \`${x.inclusiveParam}\`)` : ''}`;

/** Compares the rules on one param or field pair: format, matches, excludes, sortBy, rangeOf, bound, derive. */
/** The patterns a value must match, its own and its format's, sorted: a pattern and a format of that pattern are one limit. */
export function patternsOf(s: SchemaIR): string[] {
  return [...new Set([s.pattern, s.format ? FORMAT_PATTERNS[s.format] : undefined].filter((p): p is string => p !== undefined))].sort();
}

export function compareSchemaRules(report: SchemaRuleReport, target: string, b: SchemaIR, h: SchemaIR): void {
  /** One rule value: added, changed (by meaning) or removed, under `name` (`format` → format-added, …). */
  const value = <T>(name: string, label: string, before: T | undefined, after: T | undefined, text: (v: T) => string) => {
    if (show(before) === show(after)) return;
    if (before === undefined) return report.facet(`${name}-added`, `${target} now states its ${label}: ${text(after!)}`, undefined, strip(after));
    if (after === undefined) return report.facet(`${name}-removed`, `${target} no longer states its ${label} (was ${text(before)})`, strip(before));
    if (meaning(before) === meaning(after)) return report.words(`words of the ${label} of ${target} changed`);
    report.facet(`${name}-changed`, `${label} of ${target} changed from ${text(before)} to ${text(after)}`, strip(before), strip(after));
  };
  // A pattern stated again as the format of that pattern (or back) changes no value: words, not a format added.
  const restated = b.format !== h.format && (b.format === undefined || h.format === undefined) && show(patternsOf(b)) === show(patternsOf(h));
  if (restated) report.words(h.format ? `${target} states its pattern as the format ${h.format}` : `${target} states the pattern of its format ${b.format} instead`);
  else value('format', 'format', b.format, h.format, (f) => f);
  value('matches', 'filter', b.matches, h.matches, (m) => `${m.mode} on ${m.fields.join(' or ')}, ${m.caseSensitive ? 'case-sensitive' : 'ignoring case'}`);
  value('excludes', 'flag filter', b.excludes, h.excludes, (x) => `true leaves out ${x.field} ${x.values.map(show).join(' or ')}`);
  value('sort', 'sort', b.sortBy, h.sortBy, (r) => `${r.syntax} ${r.fields.map((f) => `${f.value} → ${f.field}`).join(', ')}${r.directionParam ? `, descending when ${r.directionParam} is ${r.descending?.join(' or ')}` : ''}, default ${r.defaultDirection}`);
  value('range', 'interval field', b.rangeOf, h.rangeOf, (r) => r);
  value('bound', 'interval bound', b.bound, h.bound, boundTextOf);
  if (show(b.derive) !== show(h.derive)) {
    const text = (d: SchemaIR['derive']) => (d === undefined ? 'none (the record\u2019s own value)' : d.from !== undefined ? `from ${d.from}` : `always ${show(d.value)}`);
    report.facet('derive-changed', `derived value of ${target} changed from ${text(b.derive)} to ${text(h.derive)}`, b.derive ?? null, h.derive ?? null);
  }
}
