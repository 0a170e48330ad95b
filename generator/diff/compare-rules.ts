/**
 * Rule data in the diff: the contract's rules written as spec data by the fidelity work (issue 11) — the default
 * order of a list, the records it leaves out, params that go together, rules every record holds. Each rule key of
 * an IR node is registered here with how it compares: `value` (one value: added, removed or changed) or `set`
 * (a list of rules compared as a set: each one added or removed). Adding a rule key is one entry here and its
 * rows in check-table.ts (RULES); a key without an entry is reported as attribute-changed (a warning) by the
 * walk, so new rule data is never silently ignored.
 */
import type { SourceLocation } from '../ir.js';
import type { Direction } from './checks.js';
import { show, type ChangeSink, type Scope } from './sink.js';

/** IR nodes that carry rule data. */
export type RuleNode = 'action' | 'shape';

/** How one rule key is compared and reported. */
export interface RuleKey {
  /** IR key on the node (`ordering`). */
  key: string;
  /** Words for messages (`default order`). */
  label: string;
  /** `value`: one value compared whole; `set`: a list of rules compared as a set (order never counts). */
  kind: 'value' | 'set';
  /** Check ids: `value` uses added, changed (removed reports as changed when absent); `set` uses added, removed. */
  ids: { added: string; removed?: string; changed?: string };
  /** Direction of docs changes inside the rules. */
  direction: Direction;
}

/** Rule keys per node (the keys of issue 11 as its branch names them). */
export const RULE_KEYS: Record<RuleNode, readonly RuleKey[]> = {
  action: [
    { key: 'ordering', label: 'default order', kind: 'value', ids: { added: 'ordering-added', changed: 'ordering-changed', removed: 'ordering-changed' }, direction: 'response' },
    { key: 'defaultFilter', label: 'default filter', kind: 'value', ids: { added: 'default-filter-changed', changed: 'default-filter-changed', removed: 'default-filter-changed' }, direction: 'response' },
    { key: 'paramGroups', label: 'param group', kind: 'set', ids: { added: 'param-group-added', removed: 'param-group-removed' }, direction: 'request' },
  ],
  shape: [{ key: 'invariants', label: 'invariant', kind: 'set', ids: { added: 'invariant-added', removed: 'invariant-removed' }, direction: 'response' }],
};

/** Keys of rule data on a node kind (the walk leaves them to compareRules). */
export function ruleKeys(node: RuleNode): string[] {
  return RULE_KEYS[node].map((r) => r.key);
}

/** Words of a rule (description, note, provenance, assumption) do not change what it means. */
const WORDS = new Set(['description', 'note', 'provenance', 'assumption']);

/** A rule without its words, as canonical JSON text (arrays inside a rule keep their order: it is the rule's). */
function meaning(value: unknown): string {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([k]) => !WORDS.has(k)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => [k, strip(x)]));
    }
    return v;
  };
  return show(strip(value));
}

/** Compares the rule data of one node pair. */
export function compareRules(sink: ChangeSink, scope: Scope, node: RuleNode, target: string, base: object, head: object, at: SourceLocation): void {
  const b = base as Record<string, unknown>;
  const h = head as Record<string, unknown>;
  for (const rule of RULE_KEYS[node]) {
    const [before, after] = [b[rule.key], h[rule.key]];
    if (show(before) === show(after)) continue;
    if (rule.kind === 'value') {
      if (meaning(before) === meaning(after)) {
        sink.add('docs-changed', scope, target, `words of the ${rule.label} of ${target} changed`, at, { direction: rule.direction });
        continue;
      }
      const id = before === undefined ? rule.ids.added : after === undefined ? rule.ids.removed! : rule.ids.changed!;
      const what = before === undefined ? `now has a ${rule.label}: ${meaning(after)}` : after === undefined ? `no longer has a ${rule.label} (was ${meaning(before)})` : `${rule.label} changed from ${meaning(before)} to ${meaning(after)}`;
      sink.add(id, scope, target, `${target} ${what}`, at, { before: before ?? null, after: after ?? null });
      continue;
    }
    const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
    const [bs, hs] = [list(before).map(meaning), list(after).map(meaning)];
    const removed = bs.filter((x) => !hs.includes(x));
    const added = hs.filter((x) => !bs.includes(x));
    for (const r of [...new Set(removed)].sort()) sink.add(rule.ids.removed!, scope, target, `${target} lost a ${rule.label}: ${r}`, at, { before: JSON.parse(r) as unknown });
    for (const r of [...new Set(added)].sort()) sink.add(rule.ids.added, scope, target, `${target} gained a ${rule.label}: ${r}`, at, { after: JSON.parse(r) as unknown });
    // Same rules in another order are the same data; other words are docs.
    const words = (v: unknown) => list(v).map((x) => show(x)).sort().join('\n');
    if (removed.length === 0 && added.length === 0 && words(before) !== words(after)) {
      sink.add('docs-changed', scope, target, `words of the ${rule.label}s of ${target} changed`, at, { direction: rule.direction });
    }
  }
}
