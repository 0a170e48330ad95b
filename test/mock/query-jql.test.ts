/** jql: the issue query language subset over project-tracking issues `{ id, key, self, fields }`. */
import { describe, expect, test } from 'vitest';
import { planQuery, QueryError, runPlan } from '../../mock/query/index.js';

const issue = (id: string, key: string, fields: Record<string, unknown>) => ({
  id,
  key,
  self: `https://example.atlassian.net/rest/api/3/issue/${id}`,
  expand: null,
  fields,
});
const issues = [
  issue('10001', 'ABC-1', {
    summary: 'Login page returns 500',
    status: { name: 'In Progress', id: '3' },
    project: { key: 'ABC', name: 'Alpha Web', id: '100' },
    created: '2024-01-10T10:00:00.000+0000',
    priority: { name: 'High', id: '2' },
    labels: ['bug', 'backend'],
    assignee: { displayName: 'Dana Lee', emailAddress: 'dana@example.com', accountId: 'acc-1' },
    storyPoints: 5,
    description: {
      type: 'doc',
      version: 1,
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Stack trace attached' }] }],
    },
    customfield_10010: 'Sprint 7',
  }),
  issue('10002', 'ABC-2', {
    summary: 'Add dark mode',
    status: { name: 'Done', id: '5' },
    project: { key: 'ABC', name: 'Alpha Web', id: '100' },
    created: '2024-02-10T10:00:00.000+0000',
    priority: { name: 'Low', id: '4' },
    labels: [],
    assignee: null,
    storyPoints: 3,
    description: null,
  }),
  issue('10003', 'XYZ-1', {
    summary: 'Crash on start (Android)',
    status: { name: 'To Do', id: '1' },
    project: { key: 'XYZ', name: 'Xylophone App', id: '200' },
    created: '2024-03-01T00:00:00.000+0000',
    priority: { name: 'High', id: '2' },
    labels: ['bug', 'mobile'],
    assignee: { displayName: 'Eli Park', emailAddress: 'eli@example.com', accountId: 'acc-2' },
    storyPoints: 13,
    description: 'Reproducible on Pixel 8',
  }),
];

function keys(jql: string): string[] {
  return runPlan(issues, planQuery('jql', { jql }, 'jql')).map((r) => String(r.key));
}

function refusal(jql: string): QueryError {
  try {
    planQuery('jql', { jql }, 'jql');
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`expected a QueryError for ${jql}`);
}

describe('jql clauses', () => {
  test('= and != on project (key or name), status (name), key and id, ignoring case', () => {
    expect(keys('project = abc')).toEqual(['ABC-1', 'ABC-2']);
    expect(keys('project = "Xylophone App"')).toEqual(['XYZ-1']);
    expect(keys('project = 200')).toEqual(['XYZ-1']);
    expect(keys('status = "in progress"')).toEqual(['ABC-1']);
    expect(keys('status != Done')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('key = abc-2')).toEqual(['ABC-2']);
    expect(keys('issuekey = XYZ-1 OR id = 10001')).toEqual(['ABC-1', 'XYZ-1']);
  });

  test('objects compare by name, displayName, emailAddress or accountId; arrays by any element', () => {
    expect(keys('priority = high')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('assignee = "dana@example.com"')).toEqual(['ABC-1']);
    expect(keys('assignee = acc-2')).toEqual(['XYZ-1']);
    expect(keys('labels = mobile')).toEqual(['XYZ-1']);
  });

  test('!=, !~ and NOT IN never match an empty field', () => {
    expect(keys('assignee != "dana@example.com"')).toEqual(['XYZ-1']);
    expect(keys('labels != backend')).toEqual(['XYZ-1']);
    expect(keys('description !~ "pixel"')).toEqual(['ABC-1']);
    expect(keys('assignee NOT IN (acc-1)')).toEqual(['XYZ-1']);
  });

  test('~ needs every word as a case-insensitive substring, ADF documents included; text searches all fields', () => {
    expect(keys('summary ~ "crash android"')).toEqual(['XYZ-1']);
    expect(keys('summary ~ "crash ios"')).toEqual([]);
    expect(keys('summary ~ "dar*"')).toEqual(['ABC-2']);
    expect(keys('description ~ "stack trace"')).toEqual(['ABC-1']);
    expect(keys('text ~ "pixel"')).toEqual(['XYZ-1']);
  });

  test('>, >=, <, <= on dates (yyyy-MM-dd, yyyy/MM/dd, with HH:mm) and numbers', () => {
    expect(keys('created >= 2024-02-10')).toEqual(['ABC-2', 'XYZ-1']);
    expect(keys('created > "2024/02/10 10:00"')).toEqual(['XYZ-1']);
    expect(keys('created < 2024/01/11')).toEqual(['ABC-1']);
    expect(keys('created <= "2024-02-10 10:00"')).toEqual(['ABC-1', 'ABC-2']);
    expect(keys('storyPoints > 4')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('storyPoints <= 5 AND storyPoints >= 5')).toEqual(['ABC-1']);
  });

  test('IN and NOT IN take lists (EMPTY allowed); IS [NOT] EMPTY / NULL; = EMPTY', () => {
    expect(keys('status IN ("To Do", done)')).toEqual(['ABC-2', 'XYZ-1']);
    expect(keys('status NOT IN ("To Do", done)')).toEqual(['ABC-1']);
    expect(keys('assignee IN (EMPTY, acc-2)')).toEqual(['ABC-2', 'XYZ-1']);
    expect(keys('labels IS EMPTY')).toEqual(['ABC-2']);
    expect(keys('assignee is not null')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('description = EMPTY')).toEqual(['ABC-2']);
    expect(keys('description != EMPTY')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('resolution IS EMPTY')).toEqual(['ABC-1', 'ABC-2', 'XYZ-1']);
  });

  test('field names ignore case; cf[N] is customfield_N; aliases map to their fields', () => {
    expect(keys('SUMMARY ~ login')).toEqual(['ABC-1']);
    expect(keys('cf[10010] = "sprint 7"')).toEqual(['ABC-1']);
    expect(keys('createdDate < 2024-01-11')).toEqual(['ABC-1']);
  });
});

describe('jql logic and ordering', () => {
  test('NOT binds tighter than AND, AND tighter than OR; parentheses group', () => {
    expect(keys('project = XYZ OR project = ABC AND status = Done')).toEqual(['ABC-2', 'XYZ-1']);
    expect(keys('(project = XYZ OR project = ABC) AND status = Done')).toEqual(['ABC-2']);
    expect(keys('NOT project = XYZ AND labels = bug')).toEqual(['ABC-1']);
    expect(keys('NOT (project = XYZ AND labels = bug)')).toEqual(['ABC-1', 'ABC-2']);
    expect(keys('not not status = done')).toEqual(['ABC-2']);
  });

  test('keywords ignore case; an empty query matches every issue', () => {
    expect(keys('project = abc and status in (done) or key = XYZ-1')).toEqual(['ABC-2', 'XYZ-1']);
    expect(keys('')).toEqual(['ABC-1', 'ABC-2', 'XYZ-1']);
    expect(runPlan(issues, planQuery('jql', {}, 'jql'))).toHaveLength(3);
  });

  test('ORDER BY sorts by resolved paths, several keys, ASC by default', () => {
    expect(keys('ORDER BY created DESC')).toEqual(['XYZ-1', 'ABC-2', 'ABC-1']);
    expect(keys('ORDER BY Created DESC')).toEqual(['XYZ-1', 'ABC-2', 'ABC-1']);
    expect(keys('ORDER BY storyPoints DESC')).toEqual(['XYZ-1', 'ABC-1', 'ABC-2']);
    expect(keys('labels = bug order by status')).toEqual(['ABC-1', 'XYZ-1']);
    expect(keys('ORDER BY priority ASC, created DESC')).toEqual(['XYZ-1', 'ABC-1', 'ABC-2']);
    expect(planQuery('jql', { jql: 'order by project desc, status, key, summary' }, 'jql').sort).toEqual([
      { path: 'fields.project.key', direction: 'desc' },
      { path: 'fields.status.name', direction: 'asc' },
      { path: 'key', direction: 'asc' },
      { path: 'fields.summary', direction: 'asc' },
    ]);
  });
});

describe('jql refusals carry the position', () => {
  test.each([
    ['assignee = currentUser()', 'query_unsupported', 11],
    ['project IN projectsLeadByUser()', 'query_unsupported', 11],
    ['status WAS Done', 'query_unsupported', 7],
    ['status CHANGED', 'query_unsupported', 7],
    ['created > -7d', 'query_unsupported', 10],
    ['status == Done', 'unknown_operator', 7],
    ['summary LIKE "x"', 'unknown_operator', 8],
    ['status ! Done', 'unknown_operator', 7],
    ['summary ~ ""', 'invalid_value', 10],
    ['summary ~ "abc', 'query_syntax', 10],
    ['(status = Done', 'query_syntax', 14],
    ['status = Done)', 'query_syntax', 13],
    ['status = Done extra', 'query_syntax', 14],
    ['status =', 'query_syntax', 8],
    ['status', 'query_syntax', 6],
    ['= Done', 'query_syntax', 0],
    ['status IN Done', 'query_syntax', 10],
    ['status IN ()', 'query_syntax', 11],
    ['status IN (a b)', 'query_syntax', 13],
    ['status NOT Done', 'query_syntax', 11],
    ['status IS Done', 'query_syntax', 10],
    ['status > EMPTY', 'query_syntax', 9],
    ['status = AND', 'query_syntax', 9],
    ['status = Done AND', 'query_syntax', 17],
    ['ORDER status', 'query_syntax', 6],
    ['ORDER BY', 'query_syntax', 8],
    ['ORDER BY created DESC status = Done', 'query_syntax', 22],
    [`${'('.repeat(65)}status = Done${')'.repeat(65)}`, 'limit_exceeded', 64],
  ])('%s → %s at %i', (jql, code, position) => {
    const error = refusal(jql);
    expect(error.error_code).toBe(code);
    expect(error.position).toBe(position);
    expect(error.field).toBe('jql');
  });

  test('the error names the construct', () => {
    expect(refusal('assignee = currentUser()').message).toBe(
      'functions such as currentUser() are not supported; use a literal value at position 11',
    );
    expect(refusal('summary LIKE "x"').message).toContain('unknown operator "LIKE"');
  });

  test('a relative date inside a ~ text search is just text', () => {
    expect(keys('summary ~ "7d"')).toEqual([]);
  });
});

describe('jql and hostile input', () => {
  test('__proto__ and constructor fields resolve to nothing', () => {
    expect(keys('__proto__ IS NOT EMPTY OR constructor IS NOT EMPTY OR toString = x')).toEqual([]);
    expect(keys('__proto__ IS EMPTY')).toEqual(['ABC-1', 'ABC-2', 'XYZ-1']);
  });
});
