/** code_search: the code-hosting search syntax subset over repository, issue, pull-request and user records. */
import { describe, expect, test } from 'vitest';
import { planQuery, QueryError } from '../../mock/query/index.js';

const repositories = [
  {
    id: 'R_kgDOA1',
    name: 'hello-world',
    nameWithOwner: 'octo-org/hello-world',
    description: 'My first repository on the platform',
    owner: { login: 'octo-org' },
    isPrivate: false,
    isArchived: false,
    isFork: false,
    stargazerCount: 1520,
    forkCount: 300,
    primaryLanguage: { name: 'TypeScript' },
    createdAt: '2021-03-04T10:00:00Z',
    pushedAt: '2024-05-01T08:00:00Z',
  },
  {
    id: 'R_kgDOA2',
    name: 'secret-sauce',
    nameWithOwner: 'octo-org/secret-sauce',
    description: null,
    owner: { login: 'octo-org' },
    isPrivate: true,
    isArchived: true,
    isFork: false,
    stargazerCount: 3,
    forkCount: 0,
    primaryLanguage: { name: 'Go' },
    createdAt: '2024-01-15T12:30:00Z',
    pushedAt: '2024-01-20T08:00:00Z',
  },
  {
    id: 'R_kgDOA3',
    name: 'dotfiles',
    nameWithOwner: 'mona/dotfiles',
    description: 'Hello config files',
    owner: { login: 'mona' },
    isPrivate: false,
    isArchived: false,
    isFork: true,
    stargazerCount: 10,
    forkCount: 2,
    primaryLanguage: null,
    createdAt: '2019-07-01T00:00:00Z',
    pushedAt: '2023-11-11T11:11:11Z',
  },
];
const issues = [
  {
    id: 'I_1',
    number: 12,
    title: 'Crash when saving a file',
    body: 'Steps: open, save. Expected: no crash.',
    state: 'OPEN',
    author: { login: 'mona' },
    repository: { nameWithOwner: 'octo-org/hello-world', owner: { login: 'octo-org' } },
    labels: { nodes: [{ name: 'bug' }, { name: 'help wanted' }] },
    assignees: { nodes: [] },
    comments: { totalCount: 4 },
    createdAt: '2024-02-01T09:00:00Z',
    closedAt: null,
  },
  {
    id: 'I_2',
    number: 13,
    title: 'Add dark theme',
    body: 'Please add a dark theme.',
    state: 'CLOSED',
    author: { login: 'hubot' },
    repository: { nameWithOwner: 'octo-org/hello-world', owner: { login: 'octo-org' } },
    labels: { nodes: [{ name: 'enhancement' }] },
    assignees: { nodes: [{ login: 'mona' }] },
    comments: { totalCount: 0 },
    createdAt: '2024-02-15T18:00:00Z',
    closedAt: '2024-03-01T10:00:00Z',
  },
];
const pullRequests = [
  {
    id: 'PR_1',
    number: 14,
    title: 'Fix crash on save',
    state: 'MERGED',
    isDraft: false,
    mergedAt: '2024-03-02T10:00:00Z',
    headRefName: 'fix-save',
    author: { login: 'mona' },
  },
  {
    id: 'PR_2',
    number: 15,
    title: 'WIP: dark theme',
    state: 'OPEN',
    isDraft: true,
    mergedAt: null,
    headRefName: 'dark',
    author: { login: 'hubot' },
  },
];

function ids(query: string, records: { id: string }[]): string[] {
  const plan = planQuery('code_search', { query }, 'query');
  return records.filter((r) => plan.matches(r as Record<string, unknown>)).map((r) => r.id);
}

function refusal(query: unknown): QueryError {
  try {
    planQuery('code_search', { query }, 'query');
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected a QueryError for ${JSON.stringify(query)}`);
}

describe('code_search free text', () => {
  test('every word must appear in some string value, ignoring case', () => {
    expect(ids('hello', repositories)).toEqual(['R_kgDOA1', 'R_kgDOA3']);
    expect(ids('HELLO config', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('crash save', issues)).toEqual(['I_1']);
  });

  test('quoted phrases match as a whole', () => {
    expect(ids('"dark theme"', issues)).toEqual(['I_2']);
    expect(ids('"theme dark"', issues)).toEqual([]);
    expect(ids('label:"help wanted"', issues)).toEqual(['I_1']);
  });

  test('in: restricts the words to the named fields', () => {
    expect(ids('hello in:name', repositories)).toEqual(['R_kgDOA1']);
    expect(ids('hello in:description', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('hello in:name,description', repositories)).toEqual(['R_kgDOA1', 'R_kgDOA3']);
    expect(ids('crash in:title', issues)).toEqual(['I_1']);
    expect(ids('theme in:body', issues)).toEqual(['I_2']);
  });
});

describe('code_search qualifiers', () => {
  test('is:open / closed / merged read state; closed includes merged', () => {
    expect(ids('is:open', issues)).toEqual(['I_1']);
    expect(ids('is:closed', issues)).toEqual(['I_2']);
    expect(ids('is:closed', pullRequests)).toEqual(['PR_1']);
    expect(ids('is:merged', pullRequests)).toEqual(['PR_1']);
    expect(ids('state:open', pullRequests)).toEqual(['PR_2']);
  });

  test('is:public / private / archived / fork / draft / pr / issue', () => {
    expect(ids('is:public', repositories)).toEqual(['R_kgDOA1', 'R_kgDOA3']);
    expect(ids('is:private', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('is:archived', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('is:fork', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('is:draft', pullRequests)).toEqual(['PR_2']);
    expect(ids('is:pr', [...issues, ...pullRequests])).toEqual(['PR_1', 'PR_2']);
    expect(ids('is:issue', [...issues, ...pullRequests])).toEqual(['I_1', 'I_2']);
  });

  test('label, repo, user, org, author, assignee, language compare objects and connections by name or login', () => {
    expect(ids('label:BUG', issues)).toEqual(['I_1']);
    expect(ids('repo:octo-org/hello-world', issues)).toEqual(['I_1', 'I_2']);
    expect(ids('repo:mona/dotfiles', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('user:mona', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('org:octo-org', issues)).toEqual(['I_1', 'I_2']);
    expect(ids('author:mona', [...issues, ...pullRequests])).toEqual(['I_1', 'PR_1']);
    expect(ids('assignee:mona', issues)).toEqual(['I_2']);
    expect(ids('language:typescript', repositories)).toEqual(['R_kgDOA1']);
  });

  test('no: matches an empty field', () => {
    expect(ids('no:assignee', issues)).toEqual(['I_1']);
    expect(ids('no:language', repositories)).toEqual(['R_kgDOA3']);
  });

  test('comparisons and ranges on numbers and dates; a bare date is the whole day', () => {
    expect(ids('stars:>10', repositories)).toEqual(['R_kgDOA1']);
    expect(ids('stars:>=10', repositories)).toEqual(['R_kgDOA1', 'R_kgDOA3']);
    expect(ids('stars:<10', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('forks:<=2', repositories)).toEqual(['R_kgDOA2', 'R_kgDOA3']);
    expect(ids('stars:3..10', repositories)).toEqual(['R_kgDOA2', 'R_kgDOA3']);
    expect(ids('stars:100..*', repositories)).toEqual(['R_kgDOA1']);
    expect(ids('created:>=2024-01-01', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('created:*..2020-01-01', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('created:2024-01-15', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('created:2024-01-01..2024-01-15', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('created:<=2024-01-15', repositories)).toEqual(['R_kgDOA1', 'R_kgDOA2', 'R_kgDOA3']);
    expect(ids('created:>2024-01-15', repositories)).toEqual([]);
    expect(ids('created:>2024-01-15T12:00:00Z', repositories)).toEqual(['R_kgDOA2']);
    expect(ids('pushed:<2024-01-01', repositories)).toEqual(['R_kgDOA3']);
    expect(ids('comments:>0', issues)).toEqual(['I_1']);
    expect(ids('stars:1520', repositories)).toEqual(['R_kgDOA1']);
  });

  test('any other key reads the field of that name; a record without it does not match', () => {
    expect(ids('number:13', issues)).toEqual(['I_2']);
    expect(ids('headRefName:dark', pullRequests)).toEqual(['PR_2']);
    expect(ids('milestone:v1', issues)).toEqual([]);
  });

  test('-qualifier negates; its negation holds where the field is absent', () => {
    expect(ids('-label:bug', issues)).toEqual(['I_2']);
    expect(ids('-is:archived -user:mona', repositories)).toEqual(['R_kgDOA1']);
    expect(ids('-milestone:v1', issues)).toEqual(['I_1', 'I_2']);
  });

  test('all terms must hold', () => {
    expect(ids('is:public stars:>5 hello in:name', repositories)).toEqual(['R_kgDOA1']);
    expect(ids('repo:octo-org/hello-world is:open label:bug crash', issues)).toEqual(['I_1']);
  });
});

describe('code_search refusals carry the position', () => {
  test.each([
    ['crash OR save', 'query_unsupported', 6],
    ['crash AND save', 'query_unsupported', 6],
    ['NOT crash', 'query_unsupported', 0],
    ['(crash save)', 'query_unsupported', 0],
    ['crash sort:created-desc', 'query_unsupported', 6],
    ['-crash', 'query_unsupported', 0],
    ['x -"dark theme"', 'query_unsupported', 2],
    ['-in:title crash', 'query_unsupported', 0],
    ['"dark theme', 'query_syntax', 0],
    ['label:"help', 'query_syntax', 6],
    ['label:', 'query_syntax', 6],
    [':bug', 'query_syntax', 0],
    ['x -', 'query_syntax', 2],
    ['dark"theme"', 'query_syntax', 4],
    ['"dark"theme', 'query_syntax', 6],
    ['label:"bug"s', 'query_syntax', 11],
    ['stars:>', 'query_syntax', 7],
    ['stars:1..', 'query_syntax', 6],
    ['stars:1..2..3', 'query_syntax', 6],
    ['stars:>many', 'invalid_value', 7],
    ['stars:>*', 'invalid_value', 7],
    ['created:2024-01-01..soon', 'invalid_value', 20],
    ['   ', 'invalid_value', 0],
  ])('%s → %s at %i', (query, code, position) => {
    const error = refusal(query);
    expect(error.error_code).toBe(code);
    expect(error.position).toBe(position);
    expect(error.field).toBe('query');
  });

  test('a missing query is refused; the message names the construct', () => {
    expect(refusal(undefined)).toMatchObject({ error_code: 'invalid_value', position: undefined });
    expect(refusal('crash OR save').message).toBe(
      'boolean operator OR is not supported; terms are combined with AND at position 6',
    );
  });
});

describe('code_search and hostile input', () => {
  test('__proto__ and constructor qualifiers resolve to nothing', () => {
    expect(ids('__proto__:x', repositories)).toEqual([]);
    expect(ids('constructor:Object', repositories)).toEqual([]);
    expect(ids('no:__proto__', repositories)).toHaveLength(3);
  });
});
