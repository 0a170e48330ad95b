/** drive_query: the file-storage `q` language subset over files (and drives). */
import { describe, expect, test } from 'vitest';
import { planQuery, QueryError } from '../../mock/query/index.js';

const files = [
  {
    kind: 'drive#file',
    id: '1AbcReport',
    name: 'Quarterly Report Q1.pdf',
    mimeType: 'application/pdf',
    parents: ['0BFolderFinance'],
    trashed: false,
    starred: true,
    modifiedTime: '2024-04-02T09:15:00.000Z',
    createdTime: '2024-04-01T08:00:00.000Z',
    description: 'Revenue and churn for the first quarter',
    owners: [{ emailAddress: 'finance@example.com', permissionId: 'p-1', displayName: 'Finance' }],
  },
  {
    kind: 'drive#file',
    id: '1DefBudget',
    name: 'HelloWorld budget',
    mimeType: 'application/vnd.google-apps.spreadsheet',
    parents: ['0BFolderFinance', '0BShared'],
    trashed: false,
    starred: false,
    modifiedTime: '2024-05-10T17:45:30.000Z',
    createdTime: '2024-01-15T10:00:00.000Z',
    owners: [{ emailAddress: 'amy@example.com', permissionId: 'p-2' }],
  },
  {
    kind: 'drive#file',
    id: '1GhiOld',
    name: "Bob's notes",
    mimeType: 'text/plain',
    parents: ['root-id'],
    trashed: true,
    modifiedTime: '2023-12-31T23:59:59Z',
    createdTime: '2023-12-01T00:00:00Z',
    description: 'churn notes, first draft',
  },
];
const drives = [
  {
    kind: 'drive#drive',
    id: 'd1',
    name: 'Engineering',
    hidden: false,
    createdTime: '2022-01-01T00:00:00Z',
    memberCount: 42,
  },
  { kind: 'drive#drive', id: 'd2', name: 'Archive', hidden: true, createdTime: '2020-06-01T00:00:00Z', memberCount: 3 },
];

function ids(q: string, records: { id: string }[] = files): string[] {
  const plan = planQuery('drive_query', { q }, 'q');
  return records.filter((r) => plan.matches(r)).map((r) => r.id);
}

function refusal(q: string): QueryError {
  try {
    planQuery('drive_query', { q }, 'q');
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected a QueryError for ${q}`);
}

describe('drive_query terms', () => {
  test('name contains is a case-insensitive prefix of the name or of a word in it', () => {
    expect(ids("name contains 'report'")).toEqual(['1AbcReport']);
    expect(ids("name contains 'quarterly rep'")).toEqual(['1AbcReport']);
    expect(ids("name contains 'Hello'")).toEqual(['1DefBudget']);
    expect(ids("name contains 'World'")).toEqual([]);
    expect(ids("name contains 'port'")).toEqual([]);
  });

  test("name = and != are exact and case-sensitive; \\' escapes a quote", () => {
    expect(ids("name = 'Quarterly Report Q1.pdf'")).toEqual(['1AbcReport']);
    expect(ids("name = 'quarterly report q1.pdf'")).toEqual([]);
    expect(ids("name = 'Bob\\'s notes'")).toEqual(['1GhiOld']);
    expect(ids("name != 'Bob\\'s notes'")).toEqual(['1AbcReport', '1DefBudget']);
    expect(ids("name = 'back\\\\slash'", [{ id: 'b', name: 'back\\slash' } as never])).toEqual(['b']);
  });

  test('mimeType =, != and contains (substring)', () => {
    expect(ids("mimeType = 'application/pdf'")).toEqual(['1AbcReport']);
    expect(ids("mimeType != 'application/pdf'")).toEqual(['1DefBudget', '1GhiOld']);
    expect(ids("mimeType contains 'google-apps'")).toEqual(['1DefBudget']);
  });

  test('fullText contains needs every word as a word of some string; an inner "…" needs the phrase', () => {
    expect(ids("fullText contains 'churn'")).toEqual(['1AbcReport', '1GhiOld']);
    expect(ids("fullText contains 'first churn'")).toEqual(['1AbcReport', '1GhiOld']);
    expect(ids('fullText contains \'"first quarter"\'')).toEqual(['1AbcReport']);
    expect(ids('fullText contains \'"first churn"\'')).toEqual([]);
    expect(ids("fullText contains 'chur'")).toEqual([]);
  });

  test("'id' in parents and 'email' in owners", () => {
    expect(ids("'0BFolderFinance' in parents")).toEqual(['1AbcReport', '1DefBudget']);
    expect(ids("'0BShared' in parents")).toEqual(['1DefBudget']);
    expect(ids("'amy@example.com' in owners")).toEqual(['1DefBudget']);
    expect(ids("'p-1' in owners")).toEqual(['1AbcReport']);
  });

  test('trashed and starred take true/false; a missing flag is false', () => {
    expect(ids('trashed = true')).toEqual(['1GhiOld']);
    expect(ids('trashed = false')).toEqual(['1AbcReport', '1DefBudget']);
    expect(ids('starred != true')).toEqual(['1DefBudget', '1GhiOld']);
  });

  test('times compare as instants with all six operators', () => {
    expect(ids("modifiedTime > '2024-04-02T09:15:00Z'")).toEqual(['1DefBudget']);
    expect(ids("modifiedTime >= '2024-04-02T09:15:00Z'")).toEqual(['1AbcReport', '1DefBudget']);
    expect(ids("modifiedTime < '2024-01-01'")).toEqual(['1GhiOld']);
    expect(ids("modifiedTime <= '2024-04-02T11:15:00+02:00'")).toEqual(['1AbcReport', '1GhiOld']);
    expect(ids("modifiedTime = '2024-05-10T17:45:30Z'")).toEqual(['1DefBudget']);
    expect(ids("createdTime != '2024-01-15T10:00:00Z'")).toEqual(['1AbcReport', '1GhiOld']);
  });

  test('drives: hidden, memberCount and createdTime', () => {
    expect(ids('hidden = true', drives)).toEqual(['d2']);
    expect(ids('memberCount > 10', drives)).toEqual(['d1']);
    expect(ids("memberCount <= 3 and createdTime < '2021-01-01T00:00:00Z'", drives)).toEqual(['d2']);
  });
});

describe('drive_query logic', () => {
  test('not binds tighter than and, and tighter than or; parentheses group; keywords in any case', () => {
    expect(ids("trashed = true or starred = true and name contains 'hello'")).toEqual(['1GhiOld']);
    expect(ids("(trashed = true or starred = true) and name contains 'quarterly'")).toEqual(['1AbcReport']);
    expect(ids("not trashed = true and '0BFolderFinance' in parents")).toEqual(['1AbcReport', '1DefBudget']);
    expect(ids('NOT (trashed = false AND starred = true)')).toEqual(['1DefBudget', '1GhiOld']);
    expect(ids("mimeType = 'text/plain' OR name contains 'hello'")).toEqual(['1DefBudget', '1GhiOld']);
  });

  test('an empty or absent q matches everything', () => {
    expect(ids('')).toHaveLength(3);
    expect(ids('  ')).toHaveLength(3);
    const plan = planQuery('drive_query', {}, 'q');
    expect(files.every((f) => plan.matches(f))).toBe(true);
  });
});

describe('drive_query refusals carry the position', () => {
  test.each([
    ['name contains "x"', 'query_syntax', 14],
    ["name contains 'x", 'query_syntax', 14],
    ["(name = 'a'", 'query_syntax', 11],
    ["name = 'a')", 'query_syntax', 10],
    ["name = 'a' name = 'b'", 'query_syntax', 11],
    ["name = 'a' and", 'query_syntax', 14],
    ['name =', 'query_syntax', 6],
    ["'x' parents", 'query_syntax', 4],
    ["'x' in", 'query_syntax', 6],
    ['name # 1', 'query_syntax', 5],
    ["name > 'a'", 'unknown_operator', 5],
    ["trashed contains 'x'", 'unknown_operator', 8],
    ["fullText = 'x'", 'unknown_operator', 9],
    ["name == 'a'", 'unknown_operator', 5],
    ["name like 'a'", 'unknown_operator', 5],
    ["properties has { key='a' and value='b' }", 'query_unsupported', 11],
    ["owner = 'x'", 'query_unsupported', 0],
    ["'x' in writers", 'query_unsupported', 7],
    ["trashed = 'true'", 'invalid_value', 10],
    ['trashed = maybe', 'invalid_value', 10],
    ["modifiedTime > 'yesterday'", 'invalid_value', 15],
    ["modifiedTime > '2024-02-30T00:00:00Z'", 'invalid_value', 15],
    ["memberCount > 'ten'", 'invalid_value', 14],
    ['name = Report', 'invalid_value', 7],
    [`${'('.repeat(65)}trashed = true${')'.repeat(65)}`, 'limit_exceeded', 64],
  ])('%s → %s at %i', (q, code, position) => {
    const error = refusal(q);
    expect(error.error_code).toBe(code);
    expect(error.position).toBe(position);
    expect(error.field).toBe('q');
  });

  test('the error names the construct', () => {
    expect(refusal("name > 'a'").message).toBe(
      'operator ">" does not apply to name; use contains, =, != at position 5',
    );
    expect(refusal("properties has { key='a' }").message).toContain('has');
  });
});

describe('drive_query and hostile input', () => {
  test('__proto__ and constructor are unsupported fields, not prototype lookups', () => {
    expect(refusal("__proto__ = 'x'").error_code).toBe('query_unsupported');
    expect(refusal("constructor = 'x'").error_code).toBe('query_unsupported');
  });
});
