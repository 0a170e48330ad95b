/** Uniform search of the mock: every class of invalid request is a 422 (SearchRequestError) naming where and why. */
import { describe, expect, test } from 'vitest';
import { SearchIndex, SearchRequestError, type SearchField } from '../../mock/search/index.js';

const FIELDS: SearchField[] = [
  { name: 'name', type: 'string' },
  { name: 'status', type: 'string', enum: ['active', 'canceled'] },
  { name: 'amount', type: 'integer' },
  { name: 'ratio', type: 'number' },
  { name: 'paid', type: 'boolean' },
  { name: 'tags', type: 'array' },
  { name: 'address', type: 'object' },
  { name: 'note', type: 'object|string' },
];
const index = new SearchIndex(
  [
    { id: 'a', data: { name: 'Ada', status: 'active', amount: 1, ratio: 0.5, paid: true, tags: ['x'], address: { city: 'London' } } },
    { id: 'b', data: { name: 'Bob', status: 'canceled', amount: 2, ratio: 1.5, paid: false, tags: [], address: null } },
    { id: 'c', data: { name: 'Cy', status: 'active', amount: 3, ratio: 2.5, paid: false, tags: ['y'], address: null } },
  ],
  FIELDS,
);

/** The error of a request that must fail. */
function errorOf(params: unknown, on: SearchIndex = index): SearchRequestError {
  try {
    on.search(params);
  } catch (e) {
    expect(e).toBeInstanceOf(SearchRequestError);
    return e as SearchRequestError;
  }
  throw new Error('the search did not fail');
}
/** The errors of a request that must fail, as [field, error_code] pairs. */
const errorsOf = (params: unknown, on: SearchIndex = index): [string, string][] => errorOf(params, on).errors.map((x) => [x.field, x.error_code]);
const filterErrors = (filter: unknown) => errorsOf({ query: { filter } });

describe('422: unknown operator', () => {
  test('names the operator with its path, however deep', () => {
    expect(filterErrors({ between: { amount: [1, 2] } })).toEqual([['query.filter.between', 'unknown_operator']]);
    expect(filterErrors({ and: [{ eq: { amount: 1 } }, { not: { regex: { name: 'a' } } }] })).toEqual([['query.filter.and[1].not.regex', 'unknown_operator']]);
  });

  test('the message lists the operators', () => {
    const error = errorOf({ query: { filter: { between: {} } } });
    expect(error.errors[0]!.message).toBe('unknown operator "between"; operators: and, eq, fuzzy, gt, gte, in, keyword, like, lt, lte, neq, not, or');
    expect(error.message).toBe(`Invalid search params: query.filter.between: ${error.errors[0]!.message}`);
  });
});

describe('422: unsearchable field', () => {
  test('in a filter, a sort and fields', () => {
    expect(filterErrors({ and: [{ eq: { amount: 1 } }, { gt: { created: 5 } }] })).toEqual([['query.filter.and[1].gt.created', 'unsearchable_field']]);
    expect(errorsOf({ query: { sort: [{ amount: 'asc' }, { created: 'desc' }] } })).toEqual([['query.sort[1].created', 'unsearchable_field']]);
    expect(errorsOf({ query: {}, fields: ['name', 'secret'] })).toEqual([['fields[1]', 'unsearchable_field']]);
  });

  test('__proto__ and constructor are unknown names and never touch a prototype', () => {
    const params = JSON.parse('{"query":{"filter":{"eq":{"__proto__":{"polluted":true}}},"sort":[{"constructor":"asc"}]},"fields":["__proto__"]}');
    expect(errorsOf(params)).toEqual([
      ['query.filter.eq.__proto__', 'unsearchable_field'],
      ['query.sort[0].constructor', 'unsearchable_field'],
      ['fields[0]', 'unsearchable_field'],
    ]);
    expect(filterErrors(JSON.parse('{"__proto__":{"eq":{"amount":1}}}'))).toEqual([['query.filter.__proto__', 'unknown_operator']]);
    expect(errorsOf(JSON.parse('{"query":{},"__proto__":{"limit":1}}'))).toEqual([['__proto__', 'unknown_param']]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('a field the catalogue names __proto__ or constructor stays unknown', () => {
    const odd = new SearchIndex([{ id: 'a', data: JSON.parse('{"constructor":"x","__proto__":"y"}') }], [
      { name: 'constructor', type: 'string' },
      { name: '__proto__', type: 'string' },
    ]);
    expect(errorsOf({ query: { filter: { eq: { constructor: 'x' } } } }, odd)).toEqual([['query.filter.eq.constructor', 'unsearchable_field']]);
    expect(odd.search({ query: {} }).hits).toEqual([{ id: 'a', score: 1, data: {} }]);
  });
});

describe('422: operand of the wrong type', () => {
  test('integer fields take integral numbers, number fields numbers, string fields strings, boolean fields booleans', () => {
    expect(filterErrors({ eq: { amount: '1' } })).toEqual([['query.filter.eq.amount', 'invalid_operand']]);
    expect(filterErrors({ gt: { amount: 1.5 } })).toEqual([['query.filter.gt.amount', 'invalid_operand']]);
    expect(filterErrors({ lt: { ratio: '2' } })).toEqual([['query.filter.lt.ratio', 'invalid_operand']]);
    expect(filterErrors({ eq: { name: 5 } })).toEqual([['query.filter.eq.name', 'invalid_operand']]);
    expect(filterErrors({ eq: { paid: 'true' } })).toEqual([['query.filter.eq.paid', 'invalid_operand']]);
    expect(filterErrors({ eq: { address: 'London' } })).toEqual([['query.filter.eq.address', 'invalid_operand']]);
  });

  test('in takes an array, and each element is checked where it stands', () => {
    expect(filterErrors({ in: { amount: 1 } })).toEqual([['query.filter.in.amount', 'invalid_operand']]);
    expect(filterErrors({ in: { amount: [1, 'two', 3, false] } })).toEqual([
      ['query.filter.in.amount[1]', 'invalid_operand'],
      ['query.filter.in.amount[3]', 'invalid_operand'],
    ]);
  });

  test('enum fields take their values only', () => {
    expect(filterErrors({ eq: { status: 'paused' } })).toEqual([['query.filter.eq.status', 'invalid_operand']]);
    expect(filterErrors({ in: { status: ['active', 'Active'] } })).toEqual([['query.filter.in.status[1]', 'invalid_operand']]);
  });

  test('comparisons refuse null; like, fuzzy and keyword take strings; fuzzy and keyword need a word', () => {
    expect(filterErrors({ gte: { amount: null } })).toEqual([['query.filter.gte.amount', 'invalid_operand']]);
    expect(filterErrors({ like: { name: 5 } })).toEqual([['query.filter.like.name', 'invalid_operand']]);
    expect(filterErrors({ fuzzy: { name: ' -- ' } })).toEqual([['query.filter.fuzzy.name', 'invalid_operand']]);
    expect(filterErrors({ keyword: { name: ['a'] } })).toEqual([['query.filter.keyword.name', 'invalid_operand']]);
  });

  test('a field typed object|string takes an object or a string for eq and a string for comparisons', () => {
    expect(index.search({ query: { filter: { eq: { note: { a: 1 } } } } }).hits).toEqual([]);
    expect(index.search({ query: { filter: { gt: { note: 'a' } } } }).hits).toEqual([]);
    expect(filterErrors({ eq: { note: 5 } })).toEqual([['query.filter.eq.note', 'invalid_operand']]);
    expect(filterErrors({ gt: { note: { a: 1 } } })).toEqual([['query.filter.gt.note', 'invalid_operand']]);
  });
});

describe('422: operator that does not apply to the field', () => {
  test('text operators need string fields, comparisons number or string fields, objects only eq / neq', () => {
    expect(filterErrors({ like: { amount: '1%' } })).toEqual([['query.filter.like.amount', 'unsupported_operator']]);
    expect(filterErrors({ keyword: { tags: 'x' } })).toEqual([['query.filter.keyword.tags', 'unsupported_operator']]);
    expect(filterErrors({ gt: { paid: true } })).toEqual([['query.filter.gt.paid', 'unsupported_operator']]);
    expect(filterErrors({ lt: { tags: 'x' } })).toEqual([['query.filter.lt.tags', 'unsupported_operator']]);
    expect(filterErrors({ gte: { address: {} } })).toEqual([['query.filter.gte.address', 'unsupported_operator']]);
    expect(filterErrors({ in: { address: [{}] } })).toEqual([['query.filter.in.address', 'unsupported_operator']]);
  });
});

describe('422: malformed filter', () => {
  test('a filter has exactly one operator key', () => {
    expect(filterErrors({})).toEqual([['query.filter', 'invalid_filter']]);
    expect(filterErrors({ eq: { amount: 1 }, gt: { amount: 0 } })).toEqual([['query.filter', 'invalid_filter']]);
    expect(filterErrors('amount = 1')).toEqual([['query.filter', 'invalid_filter']]);
    expect(filterErrors(null)).toEqual([['query.filter', 'invalid_filter']]);
  });

  test('and / or take a non-empty array of filters, not one filter, operators a non-empty field map', () => {
    expect(filterErrors({ and: [] })).toEqual([['query.filter.and', 'invalid_filter']]);
    expect(filterErrors({ or: { eq: { amount: 1 } } })).toEqual([['query.filter.or', 'invalid_filter']]);
    expect(filterErrors({ not: [{ eq: { amount: 1 } }] })).toEqual([['query.filter.not', 'invalid_filter']]);
    expect(filterErrors({ eq: {} })).toEqual([['query.filter.eq', 'invalid_filter']]);
    expect(filterErrors({ or: [{ eq: { amount: 1 } }, 7] })).toEqual([['query.filter.or[1]', 'invalid_filter']]);
  });

  test('filters nested deeper than 64 levels are refused, not a stack overflow', () => {
    let filter: unknown = { eq: { amount: 1 } };
    for (let i = 0; i < 10_000; i++) filter = { not: filter };
    const errors = filterErrors(filter);
    expect(errors).toHaveLength(1);
    expect(errors[0]![1]).toBe('invalid_filter');
  });
});

describe('422: params', () => {
  test('unknown params, at the top and in query', () => {
    expect(errorsOf({ query: {}, page: 2 })).toEqual([['page', 'unknown_param']]);
    expect(errorsOf({ query: { filter: { eq: { amount: 1 } }, order: [] } })).toEqual([['query.order', 'unknown_param']]);
  });

  test('query is required and params must be an object', () => {
    expect(errorsOf({})).toEqual([['query', 'required']]);
    expect(errorsOf({ query: 'amount:1' })).toEqual([['query', 'invalid_type']]);
    expect(errorsOf(undefined)).toEqual([['params', 'invalid_type']]);
    expect(errorsOf([])).toEqual([['params', 'invalid_type']]);
  });

  test('limit is an integer of at least 1', () => {
    expect(errorsOf({ query: {}, limit: 0 })).toEqual([['limit', 'invalid_value']]);
    expect(errorsOf({ query: {}, limit: -5 })).toEqual([['limit', 'invalid_value']]);
    expect(errorsOf({ query: {}, limit: 2.5 })).toEqual([['limit', 'invalid_type']]);
    expect(errorsOf({ query: {}, limit: '10' })).toEqual([['limit', 'invalid_type']]);
  });

  test('fields is an array of names', () => {
    expect(errorsOf({ query: {}, fields: 'name' })).toEqual([['fields', 'invalid_type']]);
    expect(errorsOf({ query: {}, fields: ['name', 3] })).toEqual([['fields[1]', 'invalid_type']]);
  });

  test('sort is an array of { field: asc | desc } on sortable fields', () => {
    expect(errorsOf({ query: { sort: { amount: 'asc' } } })).toEqual([['query.sort', 'invalid_sort']]);
    expect(errorsOf({ query: { sort: [{ amount: 'up' }] } })).toEqual([['query.sort[0].amount', 'invalid_sort']]);
    expect(errorsOf({ query: { sort: [{ amount: 'asc', name: 'desc' }] } })).toEqual([['query.sort[0]', 'invalid_sort']]);
    expect(errorsOf({ query: { sort: [{ address: 'asc' }] } })).toEqual([['query.sort[0].address', 'unsortable_field']]);
    expect(errorsOf({ query: { sort: [{ tags: 'asc' }] } })).toEqual([['query.sort[0].tags', 'unsortable_field']]);
  });

  test('every problem of a request is reported at once, in reading order', () => {
    expect(errorsOf({ query: { filter: { or: [{ gt: { paid: 1 } }, { eq: { nope: 1 } }] }, sort: [{ amount: 'sideways' }] }, limit: 0, extra: true })).toEqual([
      ['extra', 'unknown_param'],
      ['query.filter.or[0].gt.paid', 'unsupported_operator'],
      ['query.filter.or[1].eq.nope', 'unsearchable_field'],
      ['query.sort[0].amount', 'invalid_sort'],
      ['limit', 'invalid_value'],
    ]);
  });
});

describe('422: cursor', () => {
  const query = { filter: { gte: { amount: 1 } }, sort: [{ amount: 'desc' }] };
  const cursor = index.search({ query, limit: 1 }).next_cursor!;

  test('a malformed cursor', () => {
    expect(errorsOf({ query, cursor: 'not a cursor!' })).toEqual([['cursor', 'invalid_cursor']]);
    expect(errorsOf({ query, cursor: Buffer.from('{"v":1}').toString('base64url') })).toEqual([['cursor', 'invalid_cursor']]);
    expect(errorsOf({ query, cursor: cursor.slice(0, -4) })).toEqual([['cursor', 'invalid_cursor']]);
    expect(errorsOf({ query, cursor: 42 })).toEqual([['cursor', 'invalid_type']]);
  });

  test('a cursor of another query or of another entity', () => {
    expect(errorsOf({ query: { ...query, sort: [{ amount: 'asc' }] }, cursor })).toEqual([['cursor', 'invalid_cursor']]);
    expect(errorsOf({ query: { filter: { gte: { amount: 2 } }, sort: query.sort }, cursor })).toEqual([['cursor', 'invalid_cursor']]);
    const other = new SearchIndex([{ id: 'a', data: { amount: 1 } }, { id: 'b', data: { amount: 2 } }], [{ name: 'amount', type: 'integer' }]);
    expect(errorsOf({ query, cursor }, other)).toEqual([['cursor', 'invalid_cursor']]);
  });

  test('the cursor is accepted by the query that issued it, with another limit or fields', () => {
    expect(index.search({ query, cursor, limit: 5, fields: ['name'] }).hits.map((h) => h.id)).toEqual(['b', 'a']);
  });
});
