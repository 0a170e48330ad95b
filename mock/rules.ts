/**
 * The spec's rules the mock enforces on requests and writes: param groups (oneOf / atLeastOne) before an action
 * runs, and record invariants after a write — an `iff` field follows its condition, a `compare` that a write
 * would break and a value written to an `accountOnly` field are 422s naming the field.
 */
import { compareWith, getPath, setPath } from '../generator/emitters/fixtures/model.js';
import type { ActionIR, CompareOp, InvariantIR } from '../generator/ir.js';
import { invalidParams, type FieldProblem } from './errors.js';

const OP_WORDS: Record<CompareOp, string> = { eq: 'equal to', neq: 'different from', lt: 'less than', lte: 'at most', gt: 'greater than', gte: 'at least' };

const given = (params: Record<string, unknown>, name: string) => Object.hasOwn(params, name) && params[name] !== undefined && params[name] !== null;

/** The problems of the action's param groups with these params (empty: every group holds). */
export function paramGroupProblems(action: ActionIR, params: Record<string, unknown>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const group of action.paramGroups ?? []) {
    const complete = group.alternatives.filter((alt) => alt.every((name) => given(params, name)));
    const words = group.alternatives.map((alt) => alt.join(' with ')).join(', or ');
    if (complete.length === 0) {
      problems.push({ field: 'params', message: `${group.kind === 'oneOf' ? 'give one of' : 'give at least one of'}: ${words}`, error_code: 'param_group' });
    } else if (group.kind === 'oneOf' && complete.length > 1) {
      problems.push({ field: 'params', message: `give only one of: ${words} (got ${complete.map((alt) => alt.join(' with ')).join(' and ')})`, error_code: 'param_group' });
    }
  }
  return problems;
}

/** Throws 422 when the params break a param group of the action. */
export function checkParamGroups(action: ActionIR, entity: string, params: Record<string, unknown>): void {
  const problems = paramGroupProblems(action, params);
  if (problems.length) throw invalidParams(`invalid params for ${entity} ${action.name}: ${problems.map((p) => p.message).join('; ')}`, problems);
}

/** Brings a written record in line with its invariants (iff fields follow), or throws 422 for what a write broke. */
export function checkInvariants(invariants: readonly InvariantIR[], record: Record<string, unknown>, params: Record<string, unknown>): void {
  const problems: FieldProblem[] = [];
  for (const inv of invariants) {
    if (inv.kind === 'iff') setPath(record, inv.field, compareWith(getPath(record, inv.left), inv.op, getPath(record, inv.right)));
    else if (inv.kind === 'compare') {
      const left = getPath(record, inv.left);
      const right = getPath(record, inv.right);
      if (typeof left === 'number' && typeof right === 'number' && !compareWith(left, inv.op, right)) {
        problems.push({ field: `params.${inv.left}`, message: `${inv.left} must be ${OP_WORDS[inv.op]} ${inv.right} (${right}), got ${left}`, error_code: 'invariant' });
      }
    } else {
      for (const field of inv.fields) {
        if (given(params, field)) problems.push({ field: `params.${field}`, message: `${field} is set only for ${inv.account} accounts; this source is not one`, error_code: 'invariant' });
        setPath(record, field, null);
      }
    }
  }
  if (problems.length) throw invalidParams(`the write breaks the record's rules: ${problems.map((p) => p.message).join('; ')}`, problems);
}
