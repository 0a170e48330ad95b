/**
 * Sorting params in the mock (spec/README.md, `sortBy`): a list param whose value names the record field to sort by
 * (`sort_field: create_time`), with the direction its value (`-id`, `modifiedTime desc`) or another param
 * (`sort_dir: DESC`) gives. Values the spec does not map to a field leave the order as it is, as does a request
 * that gives no sorting param: the list's default ordering then holds.
 */
import type { ActionIR, SortByIR } from '../generator/ir.js';
import type { SortKey } from './query/index.js';

/** The direction a request gives through the rule's direction param, else the rule's default. */
function directionOf(rule: SortByIR, params: Record<string, unknown>): 'asc' | 'desc' {
  const given = rule.directionParam === undefined ? undefined : params[rule.directionParam];
  if (given === undefined || given === null) return rule.defaultDirection;
  return rule.descending?.some((d) => String(d) === String(given)) ? 'desc' : 'asc';
}

/** The sort keys one sorting param's value asks for (none for values the rule does not map). */
function keysOf(rule: SortByIR, value: string, params: Record<string, unknown>): SortKey[] {
  const fieldOf = (v: string) => rule.fields.find((f) => f.value === v)?.field;
  const fallback = directionOf(rule, params);
  if (rule.syntax === 'clauses') {
    return value.split(',').flatMap((clause) => {
      const [name = '', direction] = clause.trim().split(/\s+/);
      const field = fieldOf(name);
      if (!field) return [];
      return [{ path: field, direction: direction === undefined ? fallback : direction.toLowerCase() === 'desc' ? 'desc' : 'asc' } satisfies SortKey];
    });
  }
  if (rule.syntax === 'signed') {
    const sign = value[0];
    const signed = sign === '-' || sign === '+';
    const field = (signed ? fieldOf(value.slice(1)) : undefined) ?? fieldOf(value);
    return field ? [{ path: field, direction: signed ? (sign === '-' ? 'desc' : 'asc') : fallback }] : [];
  }
  const field = fieldOf(value);
  return field ? [{ path: field, direction: fallback }] : [];
}

/** The sort keys the request's sorting params ask for, in the action's param order (empty: keep the list's order). */
export function requestedSort(action: ActionIR, params: Record<string, unknown>): SortKey[] {
  const keys: SortKey[] = [];
  for (const p of action.params) {
    const value = params[p.name];
    if (!p.sortBy || (typeof value !== 'string' && typeof value !== 'number')) continue;
    keys.push(...keysOf(p.sortBy, String(value), params));
  }
  return keys;
}
