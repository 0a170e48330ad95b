/** filter_groups: the CRM (HubSpot-style) search request — 13 operators, groups, sorts, free text, projection. */
import { describe, expect, test } from 'vitest';
import { planQuery, projectRecord, QueryError, runPlan } from '../../mock/query/index.js';

const contacts = [
  {
    id: '101',
    createdAt: '2024-01-05T09:00:00.000Z',
    updatedAt: '2024-03-01T12:00:00.000Z',
    archived: false,
    properties: {
      email: 'alice@acme.com',
      firstname: 'Alice',
      lastname: 'Nguyen',
      lifecyclestage: 'customer',
      num_employees: '250',
      createdate: '2024-01-05T09:00:00.000Z',
      hs_object_id: '101',
      jobtitle: 'Head of Sales',
    },
    associations: { companies: { results: [{ id: '9' }] } },
  },
  {
    id: '102',
    createdAt: '2024-02-10T15:30:00.000Z',
    updatedAt: '2024-02-11T08:00:00.000Z',
    archived: false,
    properties: {
      email: 'bob@globex.io',
      firstname: 'Bob',
      lastname: 'Martin',
      lifecyclestage: 'lead',
      num_employees: '40',
      createdate: '2024-02-10T15:30:00.000Z',
      hs_object_id: '102',
      jobtitle: null,
    },
  },
  {
    id: '103',
    createdAt: '2024-03-20T11:00:00.000Z',
    updatedAt: '2024-03-21T11:00:00.000Z',
    archived: true,
    properties: {
      email: 'carol@acme.com',
      firstname: 'Carol',
      lastname: 'Acme-Smith',
      lifecyclestage: 'Customer',
      num_employees: '1200',
      createdate: '2024-03-20T11:00:00.000Z',
      hs_object_id: '103',
      jobtitle: '',
    },
  },
];

type Filter = Record<string, unknown>;

/** Ids of the contacts one filter group of `filters` selects. */
function ids(params: Record<string, unknown>): string[] {
  return runPlan(contacts, planQuery('filter_groups', params, 'filterGroups')).map((c) => String(c.id));
}
const where = (...filters: Filter[]) => ids({ filterGroups: [{ filters }] });

function refusal(params: Record<string, unknown>): QueryError {
  try {
    planQuery('filter_groups', params, 'filterGroups');
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error('expected a QueryError');
}

describe('filter_groups operators', () => {
  test('EQ ignores case; NEQ is its negation', () => {
    expect(where({ propertyName: 'lifecyclestage', operator: 'EQ', value: 'customer' })).toEqual(['101', '103']);
    expect(where({ propertyName: 'email', operator: 'EQ', value: 'BOB@GLOBEX.IO' })).toEqual(['102']);
    expect(where({ propertyName: 'lifecyclestage', operator: 'NEQ', value: 'CUSTOMER' })).toEqual(['102']);
  });

  test('LT, LTE, GT, GTE compare numeric strings as numbers, not text', () => {
    expect(where({ propertyName: 'num_employees', operator: 'GT', value: '100' })).toEqual(['101', '103']);
    expect(where({ propertyName: 'num_employees', operator: 'GTE', value: 250 })).toEqual(['101', '103']);
    expect(where({ propertyName: 'num_employees', operator: 'LT', value: '250' })).toEqual(['102']);
    expect(where({ propertyName: 'num_employees', operator: 'LTE', value: '250' })).toEqual(['101', '102']);
  });

  test('dates compare as instants, including epoch milliseconds as HubSpot accepts them', () => {
    const feb1 = Date.parse('2024-02-01T00:00:00Z');
    expect(where({ propertyName: 'createdate', operator: 'GTE', value: String(feb1) })).toEqual(['102', '103']);
    expect(where({ propertyName: 'createdate', operator: 'LT', value: '2024-02-01' })).toEqual(['101']);
  });

  test('BETWEEN is inclusive and takes value/highValue or values [low, high]', () => {
    expect(where({ propertyName: 'num_employees', operator: 'BETWEEN', value: '40', highValue: '250' })).toEqual([
      '101',
      '102',
    ]);
    expect(where({ propertyName: 'num_employees', operator: 'BETWEEN', values: ['41', '1200'] })).toEqual([
      '101',
      '103',
    ]);
  });

  test('IN ignores case; NOT_IN excludes the listed values', () => {
    expect(where({ propertyName: 'firstname', operator: 'IN', values: ['alice', 'CAROL'] })).toEqual(['101', '103']);
    expect(where({ propertyName: 'firstname', operator: 'NOT_IN', values: ['alice', 'carol'] })).toEqual(['102']);
  });

  test('HAS_PROPERTY needs a value (null and "" count as none); NOT_HAS_PROPERTY is the rest', () => {
    expect(where({ propertyName: 'jobtitle', operator: 'HAS_PROPERTY' })).toEqual(['101']);
    expect(where({ propertyName: 'jobtitle', operator: 'NOT_HAS_PROPERTY' })).toEqual(['102', '103']);
    expect(where({ propertyName: 'phone', operator: 'NOT_HAS_PROPERTY' })).toEqual(['101', '102', '103']);
  });

  test('CONTAINS_TOKEN matches a word or token, with * wildcards; NOT_CONTAINS_TOKEN negates', () => {
    expect(where({ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: 'acme' })).toEqual(['101', '103']);
    expect(where({ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: '*@acme.com' })).toEqual(['101', '103']);
    expect(where({ propertyName: 'jobtitle', operator: 'CONTAINS_TOKEN', value: 'SAL*' })).toEqual(['101']);
    expect(where({ propertyName: 'email', operator: 'CONTAINS_TOKEN', value: 'acm' })).toEqual([]);
    expect(where({ propertyName: 'email', operator: 'NOT_CONTAINS_TOKEN', value: 'acme' })).toEqual(['102']);
  });

  test('id, createdAt, updatedAt and archived resolve to top-level fields', () => {
    expect(where({ propertyName: 'archived', operator: 'EQ', value: 'true' })).toEqual(['103']);
    expect(where({ propertyName: 'id', operator: 'IN', values: ['101', '103'] })).toEqual(['101', '103']);
    expect(where({ propertyName: 'updatedAt', operator: 'GT', value: '2024-03-01T00:00:00Z' })).toEqual(['101', '103']);
  });
});

describe('filter_groups combination, sorts, query, properties', () => {
  test('filters in a group are ANDed; groups are ORed; no groups match everything', () => {
    const acmeCustomers = {
      filters: [
        { propertyName: 'email', operator: 'CONTAINS_TOKEN', value: 'acme' },
        { propertyName: 'archived', operator: 'EQ', value: 'false' },
      ],
    };
    expect(ids({ filterGroups: [acmeCustomers] })).toEqual(['101']);
    expect(
      ids({
        filterGroups: [acmeCustomers, { filters: [{ propertyName: 'firstname', operator: 'EQ', value: 'bob' }] }],
      }),
    ).toEqual(['101', '102']);
    expect(ids({})).toEqual(['101', '102', '103']);
    expect(ids({ filterGroups: [] })).toEqual(['101', '102', '103']);
  });

  test('sorts apply in order, ASCENDING by default, numeric strings numerically', () => {
    expect(ids({ sorts: [{ propertyName: 'num_employees', direction: 'DESCENDING' }] })).toEqual(['103', '101', '102']);
    expect(
      ids({ sorts: [{ propertyName: 'archived' }, { propertyName: 'createdAt', direction: 'DESCENDING' }] }),
    ).toEqual(['102', '101', '103']);
    expect(
      planQuery('filter_groups', { sorts: [{ propertyName: 'createdAt', direction: 'ASCENDING' }] }, 'x').sort,
    ).toEqual([{ path: 'createdAt', direction: 'asc' }]);
  });

  test('query: every word appears in some property, ignoring case', () => {
    expect(ids({ query: 'ACME' })).toEqual(['101', '103']);
    expect(ids({ query: 'acme carol' })).toEqual(['103']);
    expect(ids({ query: '   ' })).toEqual(['101', '102', '103']);
    expect(
      ids({
        query: 'acme',
        filterGroups: [{ filters: [{ propertyName: 'archived', operator: 'EQ', value: 'false' }] }],
      }),
    ).toEqual(['101']);
  });

  test('properties keeps the top-level fields and only the named properties plus the defaults', () => {
    const [first] = runPlan(contacts, planQuery('filter_groups', { properties: ['email'] }, 'x'));
    expect(first).toEqual({
      id: '101',
      createdAt: '2024-01-05T09:00:00.000Z',
      updatedAt: '2024-03-01T12:00:00.000Z',
      archived: false,
      properties: { email: 'alice@acme.com', hs_object_id: '101', createdate: '2024-01-05T09:00:00.000Z' },
    });
  });
});

describe('filter_groups refusals name the path', () => {
  test.each([
    [{ filterGroups: Array.from({ length: 7 }, () => ({ filters: [] })) }, 'filterGroups', 'limit_exceeded'],
    [
      { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'LIKE', value: 'x' }] }] },
      'filterGroups[0].filters[0].operator',
      'unknown_operator',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'eq', value: 'x' }] }] },
      'filterGroups[0].filters[0].operator',
      'unknown_operator',
    ],
    [
      { filterGroups: [{ filters: [] }, { filters: [{ propertyName: 'email', operator: 'EQ' }] }] },
      'filterGroups[1].filters[0].value',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'IN', values: [] }] }] },
      'filterGroups[0].filters[0].values',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'IN', values: ['a', { b: 1 }] }] }] },
      'filterGroups[0].filters[0].values[1]',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'n', operator: 'BETWEEN', values: ['1'] }] }] },
      'filterGroups[0].filters[0].values',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'n', operator: 'BETWEEN', value: '1' }] }] },
      'filterGroups[0].filters[0].highValue',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ operator: 'EQ', value: 'x' }] }] },
      'filterGroups[0].filters[0].propertyName',
      'invalid_value',
    ],
    [
      { filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: ['x'] }] }] },
      'filterGroups[0].filters[0].value',
      'invalid_value',
    ],
    [{ filterGroups: 'email=x' }, 'filterGroups', 'invalid_value'],
    [{ filterGroups: [{ filters: [42] }] }, 'filterGroups[0].filters[0]', 'invalid_value'],
    [{ sorts: [{ propertyName: 'email', direction: 'asc' }] }, 'sorts[0].direction', 'invalid_value'],
    [{ query: 'x'.repeat(3001) }, 'query', 'limit_exceeded'],
    [{ query: 5 }, 'query', 'invalid_value'],
    [{ properties: 'email,firstname' }, 'properties', 'invalid_value'],
  ])('%j → %s %s', (params, field, code) => {
    const error = refusal(params);
    expect(error.field).toBe(field);
    expect(error.error_code).toBe(code);
    expect(error.position).toBeUndefined();
    expect(error.message).toContain(field);
  });

  test('six groups and a 3000-character query are still accepted', () => {
    const group = { filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' }] };
    expect(ids({ filterGroups: Array.from({ length: 6 }, () => group), query: 'a'.repeat(3000) })).toEqual([]);
  });
});

describe('filter_groups and hostile keys', () => {
  test('__proto__, constructor and toString resolve to nothing, and do not pollute', () => {
    const params = JSON.parse(
      '{"filterGroups":[{"filters":[{"propertyName":"__proto__","operator":"HAS_PROPERTY"}]},{"filters":[{"propertyName":"constructor","operator":"HAS_PROPERTY"}]},{"filters":[{"propertyName":"toString","operator":"EQ","value":"x"}]}],"__proto__":{"polluted":true}}',
    );
    expect(ids(params)).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('an own __proto__ property of a record is data, readable and projectable without changing prototypes', () => {
    const record = JSON.parse('{"id":"7","properties":{"__proto__":"gold","email":"x@y.z"}}');
    const plan = planQuery(
      'filter_groups',
      {
        filterGroups: [{ filters: [{ propertyName: '__proto__', operator: 'EQ', value: 'GOLD' }] }],
        properties: ['__proto__'],
      },
      'x',
    );
    const [out] = runPlan([record], plan);
    expect(Object.getPrototypeOf(out!.properties)).toBe(Object.prototype);
    expect(Object.hasOwn(out!.properties as object, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"id":"7","properties":{"__proto__":"gold"}}');
  });
});

test('properties asked for that a record does not hold still leave its properties object (a required field)', () => {
  const record = { id: '1', properties: {}, createdAt: '2024-01-01T00:00:00Z' };
  expect(projectRecord(record, ['id', 'properties.email', 'createdAt'])).toEqual({ id: '1', properties: {}, createdAt: '2024-01-01T00:00:00Z' });
});
