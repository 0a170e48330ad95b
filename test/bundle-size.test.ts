/**
 * What a user's bundle holds when they import one client and call one method: the budget of the shipping issue
 * (≤ 6 KB gzipped for payments, runtime included), and nothing that only opt-in entries need (the ajv record
 * validators, response validation) or that the client does not use (downloads). Sizes are bytes, not timings.
 */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { bundleProgram, ONE_METHOD_BUDGET_BYTES, oneMethodProgram } from '../bench/bundle-size.js';

let ir: SpecIR;
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
});

const connector = (id: string) => ir.connectors.find((c) => c.id === id)!;

describe('a program that imports one client and calls one method', () => {
  test(`payments bundles to at most ${ONE_METHOD_BUDGET_BYTES} B gzipped, runtime included`, async () => {
    const { gzipped } = await bundleProgram(oneMethodProgram(connector('payments')));
    expect(gzipped).toBeLessThanOrEqual(ONE_METHOD_BUDGET_BYTES);
  });

  test('holds no record validator, no response validation and (without downloads) no download code', async () => {
    const { code } = await bundleProgram(oneMethodProgram(connector('payments')));
    expect(code).not.toContain('must have required property'); // ajv's standalone code
    expect(code).not.toContain('response does not match the contract');
    expect(code).not.toContain('content-disposition');
    // Params are still checked: the compact schemas and their checker are in.
    expect(code).toContain('must be equal to one of the allowed values');
  });

  test('a client with downloads carries the download code, and only then', async () => {
    const withDownloads = ir.connectors.find((c) => c.entities.some((e) => e.actions.some((a) => a.name === 'download')))!;
    expect((await bundleProgram(oneMethodProgram(withDownloads))).code).toContain('content-disposition');
  });

  test('holds no agent tool: no definition, description, schema or adapter of the /tools entry', async () => {
    const { code } = await bundleProgram(oneMethodProgram(connector('payments')));
    expect(code).not.toContain('payments_customers_list'); // a tool name
    expect(code).not.toContain('Read-only.'); // the descriptions
    expect(code).not.toContain('tool_result'); // the Anthropic adapter
    expect(code).not.toContain('_fields'); // the output guard
  });

  test('importing the /tools entry is what brings the tools in', async () => {
    const program = `import { PaymentsClient } from '@connector-sdk/payments';\nimport { openaiTools, tools } from '@connector-sdk/payments/tools';\nconsole.log(openaiTools(tools, new PaymentsClient({ baseUrl: 'https://api.example.com', token: 't', sourceId: 's' })));`;
    const { code } = await bundleProgram(program);
    expect(code).toContain('payments_customers_list');
    expect(code).toContain('_fields');
    // Only this connector's tools, and no record validator: /tools stands on the client and the runtime alone.
    expect(code).not.toContain('crm_contacts_list');
    expect(code).not.toContain('must have required property');
  });

  test('a client paging by next URLs carries the URL reader, and only then', async () => {
    const byUrl = ir.connectors.find((c) => c.pagination.some((s) => s.next.queryParam !== undefined))!;
    expect((await bundleProgram(oneMethodProgram(byUrl))).code).toContain('searchParams');
    expect((await bundleProgram(oneMethodProgram(connector('payments')))).code).not.toContain('searchParams');
  });

  test('importing the /validators entry is what brings the record validators in', async () => {
    const program = `import { responseValidators } from '@connector-sdk/payments/validators';\nconsole.log(responseValidators);`;
    expect((await bundleProgram(program)).code).toContain('must have required property');
  });
});
