/** The rule checks of the mock, one concern each: param groups, invariants on writes, filter matching, interval bounds. */
import { describe, expect, test } from 'vitest';
import type { ActionIR, InvariantIR } from '../../generator/ir.js';
import { checkInvariants, paramGroupProblems } from '../../mock/rules.js';
import { matchValues, matchesValue, withinBound } from '../../mock/select.js';
import { requestFingerprint } from '../../mock/paging.js';

const action = (paramGroups: ActionIR['paramGroups']): ActionIR => ({ name: 'list', kind: 'read', description: '', params: [], result: { shape: 'list' }, pagination: 'none', source: { file: 'x', line: 1 }, ...(paramGroups ? { paramGroups } : {}) });

describe('param groups', () => {
  const tasks = action([{ kind: 'oneOf', alternatives: [['assignee', 'workspace'], ['project'], ['section']] }]);
  test('oneOf: exactly one alternative given in full', () => {
    expect(paramGroupProblems(tasks, { project: 'p' })).toEqual([]);
    expect(paramGroupProblems(tasks, { assignee: 'a', workspace: 'w' })).toEqual([]);
    expect(paramGroupProblems(tasks, { workspace: 'w' })).toEqual([{ field: 'params', message: 'give one of: assignee with workspace, or project, or section', error_code: 'param_group' }]);
    expect(paramGroupProblems(tasks, { project: 'p', section: 's' })[0]!.message).toBe('give only one of: assignee with workspace, or project, or section (got project and section)');
    // Null counts as not given.
    expect(paramGroupProblems(tasks, { project: null })).toHaveLength(1);
  });
  test('atLeastOne: any alternative will do', () => {
    const search = action([{ kind: 'atLeastOne', alternatives: [['completed'], ['text']] }]);
    expect(paramGroupProblems(search, { text: 'x', completed: false })).toEqual([]);
    expect(paramGroupProblems(search, {})[0]!.message).toBe('give at least one of: completed, or text');
  });
});

describe('invariants on writes', () => {
  const charge: InvariantIR[] = [
    { kind: 'iff', field: 'refunded', left: 'amount_refunded', op: 'eq', right: 'amount' },
    { kind: 'compare', left: 'amount_refunded', op: 'lte', right: 'amount' },
    { kind: 'accountOnly', account: 'platform', fields: ['application'] },
  ];
  test('an iff field follows its condition; accountOnly fields are null', () => {
    const record: Record<string, unknown> = { amount: 500, amount_refunded: 500, refunded: false, application: 'x' };
    checkInvariants(charge, record, {});
    expect(record).toEqual({ amount: 500, amount_refunded: 500, refunded: true, application: null });
    record['amount_refunded'] = 10;
    checkInvariants(charge, record, {});
    expect(record['refunded']).toBe(false);
  });
  test('a write that breaks a compare, or sets an accountOnly field, is a 422 naming the field', () => {
    expect(() => checkInvariants(charge, { amount: 5, amount_refunded: 9 }, { amount_refunded: 9 })).toThrow(/amount_refunded must be at most amount \(5\), got 9/);
    try {
      checkInvariants(charge, { amount: 5, amount_refunded: 0, application: 'app' }, { application: 'app' });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 422, errors: [{ field: 'params.application', error_code: 'invariant' }] });
    }
  });
});

describe('filters and bounds', () => {
  test('matches: exact, contains, prefix; case-sensitive or not; arrays match by any element', () => {
    expect(matchesValue('Ada@Example.com', 'Ada@Example.com', { mode: 'exact', caseSensitive: true })).toBe(true);
    expect(matchesValue('Ada@Example.com', 'ada@example.com', { mode: 'exact', caseSensitive: true })).toBe(false);
    expect(matchesValue('PROJ', 'ro', { mode: 'contains', caseSensitive: false })).toBe(true);
    expect(matchesValue('PROJ', 'ro', { mode: 'contains', caseSensitive: true })).toBe(false);
    expect(matchesValue('PROJ', 'PR', { mode: 'prefix', caseSensitive: true })).toBe(true);
    expect(matchesValue(['OPEN', 'CLOSED'], 'CLOSED', { mode: 'exact', caseSensitive: true })).toBe(true);
    expect(matchesValue(null, 'x', { mode: 'contains', caseSensitive: false })).toBe(false);
  });
  test('a matching param gives several values: an array its items, a separator param its trimmed entries', () => {
    expect(matchValues({ separator: ',' }, 'business, software,')).toEqual(['business', 'software']);
    expect(matchValues({}, 'a,b')).toEqual(['a,b']); // no separator: one value, commas and all
    expect(matchValues({}, ['1', '2'])).toEqual(['1', '2']);
    expect(matchValues({ separator: ',' }, 7)).toEqual([7]);
    expect(matchValues({ separator: ',' }, '')).toEqual([]); // no values: no filter (select.ts)
  });
  test('bounds: exclusive and inclusive ends, an inclusive param, Unix time strings as numbers', () => {
    expect(withinBound(100, { side: 'lower', inclusive: false }, 100, {})).toBe(false);
    expect(withinBound(100, { side: 'lower', inclusive: true }, 100, {})).toBe(true);
    expect(withinBound(101, { side: 'lower', inclusive: false }, '100', {})).toBe(true);
    expect(withinBound(99, { side: 'upper', inclusive: false }, 100, {})).toBe(true);
    const oldest = { side: 'lower' as const, inclusive: false, inclusiveParam: 'inclusive' };
    expect(withinBound('1712345678.000100', oldest, '1712345678.0001', {})).toBe(false);
    expect(withinBound('1712345678.000100', oldest, '1712345678.0001', { inclusive: true })).toBe(true);
    expect(withinBound('1712345679.5', oldest, '1712345678', {})).toBe(true);
    expect(withinBound(null, oldest, '1', {})).toBe(false);
  });
});

describe('page tokens', () => {
  test('a request fingerprint ignores the paging params and key order, and tells other filters apart', () => {
    const paging = ['cursor', 'limit'];
    const base = requestFingerprint({ filter: { from: 'a', to: 'b' }, limit: 5 }, paging);
    expect(requestFingerprint({ filter: { to: 'b', from: 'a' }, cursor: 'x', limit: 50 }, paging)).toBe(base);
    expect(requestFingerprint({ filter: { from: 'a', to: 'c' } }, paging)).not.toBe(base);
    expect(requestFingerprint({ filter: { from: 'a', to: 'b' }, archived: null }, paging)).toBe(base); // null: not given
  });
});
