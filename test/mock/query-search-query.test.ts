/** search_query: the payments search query language (Stripe-style clauses, AND / OR, negation, metadata). */
import { describe, expect, test } from 'vitest';
import { planQuery, QueryError } from '../../mock/query/index.js';

const customers = [
  {
    id: 'cus_Alpha1',
    object: 'customer',
    email: 'jenny.rosen@example.com',
    name: 'Jenny Rosen',
    created: 1_700_000_000,
    balance: 0,
    currency: 'usd',
    metadata: { plan: 'gold', order_id: '6735' },
    address: { city: 'Berlin' },
  },
  {
    id: 'cus_Beta22',
    object: 'customer',
    email: 'amy@rocketrides.io',
    name: "Amy O'Neil",
    created: 1_650_000_000,
    balance: -500,
    currency: 'eur',
    metadata: {},
    address: null,
  },
  {
    id: 'cus_Gamma3',
    object: 'customer',
    email: null,
    name: 'Say "Hi" Ltd',
    created: 1_600_000_000,
    balance: 1200,
    currency: 'usd',
    metadata: { plan: 'silver' },
  },
];
const charges = [
  {
    id: 'ch_1',
    object: 'charge',
    amount: 1000,
    currency: 'usd',
    status: 'succeeded',
    customer: 'cus_Alpha1',
    refunded: false,
    metadata: { key: 'value' },
  },
  {
    id: 'ch_2',
    object: 'charge',
    amount: 250,
    currency: 'jpy',
    status: 'failed',
    customer: 'cus_Beta22',
    refunded: false,
    metadata: {},
  },
  {
    id: 'ch_3',
    object: 'charge',
    amount: 99_999,
    currency: 'usd',
    status: 'succeeded',
    customer: null,
    refunded: true,
    metadata: { key: 'other' },
  },
];

function select<R extends { id: string }>(records: R[], query: string): string[] {
  const plan = planQuery('search_query', { query }, 'query');
  return records.filter((r) => plan.matches(r)).map((r) => r.id);
}

function refusal(query: unknown): QueryError {
  try {
    planQuery('search_query', { query }, 'query');
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected a QueryError for ${JSON.stringify(query)}`);
}

describe('search_query clauses', () => {
  test('field:value is an exact match ignoring case, with either quote', () => {
    expect(select(customers, 'email:"JENNY.ROSEN@example.com"')).toEqual(['cus_Alpha1']);
    expect(select(customers, "email:'amy@rocketrides.io'")).toEqual(['cus_Beta22']);
    expect(select(customers, 'email:"jenny"')).toEqual([]);
  });

  test('numbers match numerically, quoted or not', () => {
    expect(select(charges, 'amount:1000')).toEqual(['ch_1']);
    expect(select(charges, 'amount:"1000"')).toEqual(['ch_1']);
    expect(select(charges, 'refunded:true')).toEqual(['ch_3']);
  });

  test('field~"text" is a case-insensitive substring match', () => {
    expect(select(customers, 'email~"ROCKET"')).toEqual(['cus_Beta22']);
    expect(select(customers, 'name~"ros"')).toEqual(['cus_Alpha1']);
  });

  test('>, >=, <, <= compare numbers', () => {
    expect(select(charges, 'amount>1000')).toEqual(['ch_3']);
    expect(select(charges, 'amount>=1000')).toEqual(['ch_1', 'ch_3']);
    expect(select(charges, 'amount<1000')).toEqual(['ch_2']);
    expect(select(charges, 'amount<=250')).toEqual(['ch_2']);
    expect(select(customers, 'balance<0')).toEqual(['cus_Beta22']);
    expect(select(customers, 'created>1650000000')).toEqual(['cus_Alpha1']);
  });

  test('- negates a clause', () => {
    expect(select(charges, '-currency:"usd"')).toEqual(['ch_2']);
    expect(select(charges, '-amount>1000')).toEqual(['ch_1', 'ch_2']);
  });

  test('field:null matches missing or null; -field:null the rest', () => {
    expect(select(customers, 'email:null')).toEqual(['cus_Gamma3']);
    expect(select(charges, '-customer:null')).toEqual(['ch_1', 'ch_2']);
    expect(select(customers, 'metadata["plan"]:null')).toEqual(['cus_Beta22']);
  });

  test('metadata["key"] and metadata[\'key\'] read metadata; dotted paths read nested fields', () => {
    expect(select(charges, 'metadata["key"]:"value"')).toEqual(['ch_1']);
    expect(select(customers, "metadata['order_id']:'6735'")).toEqual(['cus_Alpha1']);
    expect(select(customers, 'address.city:"berlin"')).toEqual(['cus_Alpha1']);
  });

  test('a backslash escapes quotes inside strings', () => {
    expect(select(customers, 'name:"Say \\"Hi\\" Ltd"')).toEqual(['cus_Gamma3']);
    expect(select(customers, "name:'Amy O\\'Neil'")).toEqual(['cus_Beta22']);
  });
});

describe('search_query connectives', () => {
  test('AND and OR in any case; whitespace alone means AND', () => {
    expect(select(charges, 'currency:"usd" AND status:"succeeded" and amount<5000')).toEqual(['ch_1']);
    expect(select(charges, 'status:"failed" OR amount>5000 or currency:"eur"')).toEqual(['ch_2', 'ch_3']);
    expect(select(charges, 'currency:"usd"   status:"succeeded"')).toEqual(['ch_1', 'ch_3']);
  });

  test('ten clauses are accepted', () => {
    expect(select(charges, Array.from({ length: 10 }, () => 'amount>1').join(' AND '))).toEqual([
      'ch_1',
      'ch_2',
      'ch_3',
    ]);
  });
});

describe('search_query refusals carry the position', () => {
  test.each([
    ['email:"a" AND name:"b" OR id:"c"', 'query_unsupported', 23],
    ['email:"a" name:"b" OR id:"c"', 'query_unsupported', 19],
    ['(email:"a" OR name:"b")', 'query_unsupported', 0],
    ['amount:(1)', 'query_unsupported', 7],
    ['email:jenny', 'invalid_value', 6],
    ['email~"ab"', 'invalid_value', 6],
    ['amount>"ten"', 'invalid_value', 7],
    ['amount>=null', 'invalid_value', 8],
    ['email="x"', 'unknown_operator', 5],
    ['email!="x"', 'unknown_operator', 5],
    ['email', 'query_syntax', 5],
    ['email:', 'query_syntax', 6],
    ['email:"abc', 'query_syntax', 6],
    ['AND email:"x"', 'query_syntax', 0],
    ['email:"x" AND', 'query_syntax', 13],
    ['email:"x"name:"y"', 'query_syntax', 9],
    ['-', 'query_syntax', 1],
    ['9lives:"x"', 'query_syntax', 0],
    ['name["k"]:"x"', 'query_syntax', 0],
    ['metadata[key]:"x"', 'query_syntax', 9],
    ['metadata["key":"x"', 'query_syntax', 14],
    [Array.from({ length: 11 }, () => 'amount>1').join(' OR '), 'limit_exceeded', 120],
    ['   ', 'invalid_value', 0],
  ])('%s → %s at %i', (query, code, position) => {
    const error = refusal(query);
    expect(error.error_code).toBe(code);
    expect(error.position).toBe(position);
    expect(error.field).toBe('query');
    expect(error.message).toContain(`at position ${position}`);
  });

  test('a missing or non-string query is refused without a position', () => {
    expect(refusal(undefined)).toMatchObject({ error_code: 'invalid_value', position: undefined, field: 'query' });
    expect(refusal(42)).toMatchObject({ error_code: 'invalid_value', position: undefined });
    expect(refusal('x'.repeat(10_001))).toMatchObject({ error_code: 'limit_exceeded' });
  });

  test('the error names the construct', () => {
    expect(refusal('email="x"').message).toBe('unknown operator "="; use :, ~, >, >=, < or <= at position 5');
    expect(refusal('email:jenny').message).toBe('string values must be quoted: "jenny" at position 6');
  });
});

describe('search_query and hostile input', () => {
  test('__proto__ and constructor are not fields; they never match', () => {
    expect(select(customers, '-__proto__:null')).toEqual([]);
    expect(select(customers, '-constructor:null')).toEqual([]);
    expect(select(customers, 'metadata["__proto__"]:null')).toEqual(['cus_Alpha1', 'cus_Beta22', 'cus_Gamma3']);
  });

  test('query text is data: code-like values are compared, never run', () => {
    expect(select(customers, 'name:"process.exit(1)"')).toEqual([]);
    expect(select(customers, 'name~"); throw 1; ("')).toEqual([]);
  });
});
