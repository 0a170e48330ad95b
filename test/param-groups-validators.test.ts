/**
 * The spec's param groups (IR paramGroups) are part of the params validators a package exports from `/validators`:
 * the same verdicts the mock gives (mock/rules.ts), so a user can check params before sending them.
 */
import { describe, expect, test } from 'vitest';
import { params_tasks_list, params_workspace_task_search_list } from '@connector-sdk/work-management/validators';
import { paramGroupProblems } from '../mock/rules.js';
import { readSpec } from '../generator/spec/read.js';

const { ir } = await readSpec('spec');
const entity = (name: string) => ir.connectors.find((c) => c.id === 'work_management')!.entities.find((e) => e.name === name)!;

describe('tasks list: oneOf project, section, or assignee with workspace', () => {
  const cases: [string, Record<string, unknown>, boolean][] = [
    ['a project', { project: '1' }, true],
    ['a section', { section: '2' }, true],
    ['an assignee with a workspace', { assignee: 'me', workspace: '3' }, true],
    ['nothing', {}, false],
    ['an assignee alone', { assignee: 'me' }, false],
    ['a project and a section (two alternatives)', { project: '1', section: '2' }, false],
    ['a null project', { project: null }, false],
  ];
  test.each(cases)('%s', (_name, params, valid) => {
    expect(params_tasks_list(params)).toBe(valid);
    // The validator and the mock agree.
    expect(paramGroupProblems(entity('tasks').actions.find((a) => a.name === 'list')!, params).length === 0).toBe(valid);
  });
});

test('workspace task search: at least one search param besides the workspace', () => {
  expect(params_workspace_task_search_list({ workspace_gid: '1' })).toBe(false);
  expect(params_workspace_task_search_list({ workspace_gid: '1', text: 'bug' })).toBe(true);
  expect(params_workspace_task_search_list({ workspace_gid: '1', text: 'bug', completed: true })).toBe(true);
});
