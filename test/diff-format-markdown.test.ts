/** The diff's pull-request comment keeps every word of a message: GitHub reads `<…>` outside code as HTML. */
import { expect, test } from 'vitest';
import { formatMarkdown } from '../generator/diff/format-markdown.js';
import type { DiffResult } from '../generator/diff/model.js';

test('angle brackets and ampersands outside code spans are escaped; code spans and pipes are kept readable', () => {
  const result: DiffResult = {
    base: 'HEAD',
    head: 'spec',
    changes: [
      {
        id: 'sort-element-changed',
        severity: 'breaking',
        direction: 'request',
        bump: 'major',
        affects: ['payments'],
        target: 'sort element',
        message: 'a sort element is { <searchable field>: "asc" & more } instead of `{ <field>: "asc" | "desc" }`',
        location: { file: 'spec/service.yaml', line: 40 },
      } as DiffResult['changes'][number],
    ],
    connectors: [{ connector: 'payments', package: '@connector-sdk/payments', bump: 'major', version: { from: '0.1.0', to: '0.2.0' }, counts: { breaking: 1, warning: 0, 'non-breaking': 0 } }],
  };
  const row = formatMarkdown(result).split('\n').find((l) => l.includes('sort-element-changed'))!;
  expect(row).toContain('a sort element is { &lt;searchable field&gt;: "asc" &amp; more } instead of `{ <field>: "asc" \\| "desc" }`');
});
