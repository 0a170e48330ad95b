/**
 * Which operators of the uniform search apply to a searchable field, by the field's type — the same rules the
 * runtime's search types enforce (runtime/src/search.ts) and the OpenAPI filter schemas encode:
 * value and values operands take any field (array fields: their elements); ordering comparisons take numbers
 * and strings; text operands take strings; filter and filters operands combine filters.
 */
import type { SchemaIR, ServiceIR } from '../../ir.js';

/** An operator of the service's vocabulary with its operand kind. */
export type SearchOperator = ServiceIR['search']['operators'][number];

/** Operators that order values: numbers numerically, strings by code unit. */
const ORDERING = new Set(['gt', 'gte', 'lt', 'lte']);

/** Whether the operator compares a field with an operand (not a combinator of filters). */
export function isFieldOperator(op: SearchOperator): boolean {
  return op.operand === 'value' || op.operand === 'values' || op.operand === 'text';
}

/** Whether the operator orders values (applies only to numbers and strings). */
export function isOrdering(op: SearchOperator): boolean {
  return ORDERING.has(op.name);
}

function onlyOf(field: SchemaIR, allowed: readonly string[]): boolean {
  return field.types.length > 0 && field.types.every((t) => allowed.includes(t));
}

/** Whether `op` may be applied to `field`. */
export function appliesTo(op: SearchOperator, field: SchemaIR): boolean {
  switch (op.operand) {
    case 'text':
      return onlyOf(field, ['string']);
    case 'value':
    case 'values':
      return isOrdering(op) ? onlyOf(field, ['string', 'integer', 'number']) : true;
    default:
      return false;
  }
}

/** Rank of an operator in reading order: equality, ordering, lists, text, then combinators. */
function rank(op: SearchOperator): number {
  if (op.operand === 'value') return isOrdering(op) ? 1 : 0;
  return { values: 2, text: 3, filters: 4, filter: 5 }[op.operand];
}

/** Operators in reading order (`eq neq gt gte lt lte in …`), by operand kind and then name. */
export function readingOrder(operators: readonly SearchOperator[]): SearchOperator[] {
  return [...operators].sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The field operators of each vocabulary in reading order: operatorsFor is asked per searchable field. */
const fieldOperators = new WeakMap<readonly SearchOperator[], readonly SearchOperator[]>();

/** The field operators that apply to `field`, in reading order. */
export function operatorsFor(field: SchemaIR, operators: readonly SearchOperator[]): SearchOperator[] {
  let ordered = fieldOperators.get(operators);
  if (!ordered) fieldOperators.set(operators, (ordered = readingOrder(operators).filter(isFieldOperator)));
  return ordered.filter((op) => appliesTo(op, field));
}

/** Which kinds of fields an operator applies to, in words (for the common contract's operator table). */
export function appliesToText(op: SearchOperator): string {
  if (op.operand === 'filter') return 'one filter';
  if (op.operand === 'filters') return 'a non-empty array of filters';
  if (op.operand === 'text') return 'string fields';
  if (isOrdering(op)) return 'integer, number and string fields';
  return op.operand === 'values' ? 'every field (an array of values; array fields: any element in common)' : 'every field (array fields: the array contains the value)';
}
