/**
 * Parent rules in the mock (spec/README.md, `parent`): the records of an entity belong to records of another one (a
 * channel's messages, a repository's issues). An action that takes every param of the rule acts within the parent
 * those params name: it is found among its entity's records (this source's writes included; within its own parent
 * too, when the action also names that one), and params that name none answer 404. Base records belong to the parent
 * record parentIndexOf gives, as in the fixtures; a created record to the parent its create named.
 */
import { parentScope, type ActionIR, type EntityIR, type ParentIR } from '../generator/ir.js';
import { HttpError } from './errors.js';
import type { Row, SourceData } from './store.js';

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

/** The row of the parent record the request names (within the grandparent it names too); 404 when there is none. */
function findParent(source: SourceData, rule: ParentIR, action: ActionIR, params: Record<string, unknown>, depth: number): Row {
  const found = source.entity(rule.entity);
  if (!found) throw new Error(`parent entity '${rule.entity}' of ${source.connector.id} has no records`); // validate rules this out
  const { store } = found;
  const up = store.model.entity.parent;
  // The grandparent counts only when the action names it as well (comments list names repo and number).
  const within = up && depth < 8 && up.params.every((p) => action.params.some((x) => x.name === p.param)) ? up : undefined;
  let also: ((row: Row) => boolean) | undefined;
  if (within) {
    const upRow = findParent(source, within, action, params, depth + 1);
    const upKey = String(source.entity(within.entity)!.store.keyOf(upRow));
    also = (row) => store.parentKeyOf(row) === upKey;
  }
  const row = store.findWhere(rule.params.map((p) => [p.field, params[p.param]] as const), also);
  if (row !== undefined) return row;
  const of = within ? ` of the ${within.entity} record ${namedBy(within, params)} names` : '';
  const message = `${namedBy(rule, params)} names no ${rule.entity} record${of}`;
  throw new HttpError(404, `${message}; ${rule.params.map((p) => `${p.param} takes the ${p.field} of an existing ${rule.entity} record`).join(', ')}`, rule.params.map((p) => ({ field: `params.${p.param}`, message: `names no ${rule.entity} record${of}`, error_code: 'parent_not_found' })));
}

/** The parent record an action of `entity` acts within (its parent rule applies), or undefined; 404 for an unknown parent. */
export function resolveParent(source: SourceData, entity: EntityIR, action: ActionIR, params: Record<string, unknown>): ParentScope | undefined {
  const rule = parentScope(source.connector, entity, action);
  if (!rule) return undefined;
  const child = source.entity(entity.name)!.store;
  const row = findParent(source, rule, action, params, 0);
  const parents = source.entity(rule.entity)!.store;
  const key = String(parents.keyOf(row));
  return { rule, key, named: namedBy(rule, params), value: parents.valueOf(row, rule.params[0]!.field), holds: (r) => child.parentKeyOf(r) === key };
}
