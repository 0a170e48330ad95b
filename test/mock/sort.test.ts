/**
 * Sorting params (spec/README.md, `sortBy`): which sort keys a request's params ask for, in each syntax — a plain
 * value with a direction param, a signed value, comma-separated clauses — and that values the spec does not map, or
 * no sorting param at all, keep the list's order.
 */
import { describe, expect, test } from 'vitest';
import type { ActionIR, PropertyIR, SortByIR } from '../../generator/ir.js';
import { requestedSort } from '../../mock/sort.js';

const param = (name: string, sortBy?: SortByIR): PropertyIR => ({ name, required: false, types: ['string'], nullable: false, source: { file: 'x', line: 1 }, ...(sortBy ? { sortBy } : {}) });
const action = (...params: PropertyIR[]): ActionIR => ({ name: 'list', kind: 'read', description: '', params, result: { shape: 'list' }, pagination: 'none', source: { file: 'x', line: 1 } });

describe('requestedSort', () => {
  test('plain: the value names the field, the direction param the direction, else the default', () => {
    const rule: SortByIR = { fields: [{ value: 'alphabetical', field: 'title' }, { value: 'created_at', field: 'created_at' }], syntax: 'plain', directionParam: 'sort_order', descending: ['desc'], defaultDirection: 'asc' };
    const list = action(param('sort_by', rule), param('sort_order'));
    expect(requestedSort(list, { sort_by: 'alphabetical', sort_order: 'desc' })).toEqual([{ path: 'title', direction: 'desc' }]);
    expect(requestedSort(list, { sort_by: 'alphabetical', sort_order: 'asc' })).toEqual([{ path: 'title', direction: 'asc' }]);
    expect(requestedSort(list, { sort_by: 'created_at' })).toEqual([{ path: 'created_at', direction: 'asc' }]);
    expect(requestedSort(action(param('sort_by', { ...rule, defaultDirection: 'desc' }), param('sort_order')), { sort_by: 'created_at' })).toEqual([{ path: 'created_at', direction: 'desc' }]);
    expect(requestedSort(list, { sort_by: 'position' }), 'a value the spec does not map').toEqual([]);
    expect(requestedSort(list, { sort_order: 'desc' }), 'no sorting param').toEqual([]);
  });

  test('signed: a - prefix is descending, + or none ascending', () => {
    const list = action(param('sort', { fields: [{ value: 'id', field: 'id' }, { value: 'updated_at', field: 'updated_at' }], syntax: 'signed', defaultDirection: 'asc' }));
    expect(requestedSort(list, { sort: '-updated_at' })).toEqual([{ path: 'updated_at', direction: 'desc' }]);
    expect(requestedSort(list, { sort: '+id' })).toEqual([{ path: 'id', direction: 'asc' }]);
    expect(requestedSort(list, { sort: 'id' })).toEqual([{ path: 'id', direction: 'asc' }]);
  });

  test('clauses: comma-separated keys in order, each descending when followed by desc; unmapped keys are skipped', () => {
    const list = action(param('orderBy', { fields: [{ value: 'modifiedTime', field: 'modifiedTime' }, { value: 'name_natural', field: 'name' }], syntax: 'clauses', defaultDirection: 'asc' }));
    expect(requestedSort(list, { orderBy: 'modifiedTime desc, recency, name_natural' })).toEqual([
      { path: 'modifiedTime', direction: 'desc' },
      { path: 'name', direction: 'asc' },
    ]);
    expect(requestedSort(list, { orderBy: 'folder' })).toEqual([]);
  });
});
