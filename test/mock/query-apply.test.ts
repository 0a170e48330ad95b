/** Running a plan: sorting by its keys, projecting by its paths, and the planQuery entry point itself. */
import { describe, expect, test } from 'vitest';
import {
  planQuery,
  projectRecord,
  QUERY_LANGUAGES,
  QueryError,
  runPlan,
  sortRecords,
  type QueryLanguage,
} from '../../mock/query/index.js';

const rows = [
  { id: 'a', n: 10, when: '2024-03-01T00:00:00Z', status: { name: 'Done' }, tags: ['z'] },
  { id: 'b', n: 9, when: null, status: { name: 'Backlog' }, tags: ['a'] },
  { id: 'c', n: '100', when: '2024-01-01T00:00:00+05:00', status: null, tags: [] },
  { id: 'd', n: 10, when: '2023-12-31T20:00:00Z', status: { name: 'Review' } },
];
const order = (sort: Parameters<typeof sortRecords>[1]) => sortRecords(rows, sort).map((r) => r.id);

describe('sortRecords', () => {
  test('numbers and numeric strings sort numerically; ties keep input order', () => {
    expect(order([{ path: 'n', direction: 'asc' }])).toEqual(['b', 'a', 'd', 'c']);
    expect(order([{ path: 'n', direction: 'desc' }])).toEqual(['c', 'a', 'd', 'b']);
  });

  test('ISO dates sort chronologically across offsets; null and missing sort last in both directions', () => {
    expect(order([{ path: 'when', direction: 'asc' }])).toEqual(['c', 'd', 'a', 'b']);
    expect(order([{ path: 'when', direction: 'desc' }])).toEqual(['a', 'd', 'c', 'b']);
    expect(order([{ path: 'tags', direction: 'desc' }])).toEqual(['a', 'b', 'c', 'd']);
  });

  test('objects sort by their name; later keys break ties', () => {
    expect(order([{ path: 'status', direction: 'asc' }])).toEqual(['b', 'a', 'd', 'c']);
    expect(
      order([
        { path: 'n', direction: 'desc' },
        { path: 'id', direction: 'desc' },
      ]),
    ).toEqual(['c', 'd', 'a', 'b']);
  });

  test('no keys keep the input order and return a copy', () => {
    const sorted = sortRecords(rows, undefined);
    expect(sorted).toEqual(rows);
    expect(sorted).not.toBe(rows);
  });
});

describe('projectRecord', () => {
  test('keeps exactly the given paths the record has, nested paths inside their parents', () => {
    const record = { id: '1', properties: { email: 'x@y.z', phone: '123' }, archived: false, extra: 1 };
    expect(projectRecord(record, ['id', 'properties.email', 'properties.fax', 'archived', 'missing'])).toEqual({
      id: '1',
      properties: { email: 'x@y.z' },
      archived: false,
    });
    expect(projectRecord(record, undefined)).toBe(record);
  });

  test('a __proto__ path segment creates data, not a prototype', () => {
    const record = JSON.parse('{"__proto__":{"admin":true},"id":"1"}');
    const out = projectRecord(record, ['__proto__.admin', 'id']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect((out as { admin?: unknown }).admin).toBeUndefined();
    expect(JSON.stringify(out)).toBe('{"__proto__":{"admin":true},"id":"1"}');
  });
});

describe('planQuery', () => {
  test('runPlan filters, sorts and projects in one pass', () => {
    const contacts = [
      { id: '1', properties: { email: 'a@x.io', score: '5' } },
      { id: '2', properties: { email: 'b@x.io', score: '50' } },
      { id: '3', properties: { email: 'c@y.io', score: '7' } },
    ];
    const plan = planQuery(
      'filter_groups',
      {
        filterGroups: [{ filters: [{ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@x.io' }] }],
        sorts: [{ propertyName: 'score', direction: 'DESCENDING' }],
        properties: ['score'],
      },
      'filterGroups',
    );
    expect(runPlan(contacts, plan)).toEqual([
      { id: '2', properties: { score: '50' } },
      { id: '1', properties: { score: '5' } },
    ]);
  });

  test('every language is planned from the param it is given', () => {
    const params = { q: "name = 'x'", jql: 'key = X-1', query: 'id:"x"', search: 'x' };
    const names: Record<QueryLanguage, string> = {
      drive_query: 'q',
      jql: 'jql',
      search_query: 'query',
      code_search: 'search',
      filter_groups: 'filterGroups',
    };
    for (const language of QUERY_LANGUAGES) {
      const plan = planQuery(language, params, names[language]);
      expect(typeof plan.matches({ id: 'x', name: 'x', key: 'X-1' })).toBe('boolean');
    }
    expect(() => planQuery('jql', { jql: 42 }, 'jql')).toThrow(QueryError);
  });

  test('an unknown language is a programming error, not a QueryError', () => {
    const call = () => planQuery('sql' as QueryLanguage, {}, 'q');
    expect(call).toThrow(/unknown query language "sql"/);
    expect(call).not.toThrow(QueryError);
  });

  test('a QueryError carries field, position and error_code', () => {
    const error = (() => {
      try {
        planQuery('jql', { jql: 'status ~ ""' }, 'jql');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(QueryError);
    expect(error).toMatchObject({ name: 'QueryError', field: 'jql', position: 9, error_code: 'invalid_value' });
  });
});
