/**
 * Parent rules in the mock (spec/README.md, `parent`): the records of an entity belong to records of another one (a
 * channel's messages, a repository's issues). An action that takes every param of the rule acts within the parent
 * those params name: it is found among its entity's records (this source's writes included; within its own parent
 * too, when the action also names that one), and params that name none answer 404. Base records belong to the parent
 * record parentIndexOf gives, as in the fixtures; a created record to the parent its create named.
 */
import { parentChain, type ActionIR, type EntityIR, type ParentIR } from '../generator/ir.js';
import { HttpError } from './errors.js';
import type { EntityStore, Row, SourceData } from './store.js';

/** The parent record an action acts within. */
export interface ParentScope {
  /** The rule. */
  rule: ParentIR;
  /** Key of the parent record, as text. */
  key: string;
  /** The request's values of the rule's params, as the error messages quote them. */
  named: string;
  /** The parent's value of the rule's first param field (what a record's own parent field holds). */
  value: unknown;
  /** Whether a row of the action's store belongs to the parent. */
  holds(row: Row): boolean;
}

/** The rule's params as a request gives them: `channel "C1"`, `repo "x", owner "y"`. */
const namedBy = (rule: ParentIR, params: Record<string, unknown>) => rule.params.map((p) => `${p.param} ${JSON.stringify(params[p.param])}`).join(', ');

/**
 * The parent record an action of `entity` acts within (parentChain: its parent rule, and the grandparent's where the
 * action names that too), or undefined; 404 when the params name no such record. Found from the farthest ancestor
 * down, each within the one above.
 */
export function resolveParent(source: SourceData, entity: EntityIR, action: ActionIR, params: Record<string, unknown>): ParentScope | undefined {
  const chain = parentChain(source.connector, entity, action);
  if (chain.length === 0) return undefined;
  let found: { rule: ParentIR; store: EntityStore; row: Row; key: string } | undefined;
  for (const rule of [...chain].reverse()) {
    const { store } = source.entity(rule.entity)!;
    const within = found;
    const row = store.findWhere(
      rule.params.map((p) => [p.field, params[p.param]] as const),
      within && ((r) => store.parentKeyOf(r) === within.key),
    );
    if (row === undefined) {
      const of = within ? ` of the ${within.rule.entity} record ${namedBy(within.rule, params)} names` : '';
      const message = `${namedBy(rule, params)} names no ${rule.entity} record${of}; ${rule.params.map((p) => `${p.param} takes the ${p.field} of an existing ${rule.entity} record`).join(', ')}`;
      throw new HttpError(404, message, rule.params.map((p) => ({ field: `params.${p.param}`, message: `names no ${rule.entity} record${of}`, error_code: 'parent_not_found' })));
    }
    found = { rule, store, row, key: String(store.keyOf(row)) };
  }
  // The last one found is the nearest parent, chain[0].
  const { rule, store, row, key } = found!;
  const child = source.entity(entity.name)!.store;
  return { rule, key, named: namedBy(rule, params), value: store.valueOf(row, rule.params[0]!.field), holds: (r) => child.parentKeyOf(r) === key };
}
