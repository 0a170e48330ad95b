/**
 * What the mock puts on the wire is what the spec's types allow (the OpenAPI proxy test found both): the end of
 * paging where the next key may not be null, and the Content-Type of downloads.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { readSpec } from '../../generator/spec/read.js';
import { startMock, type MockServer } from '../../mock/server.js';
import { Fixtures } from '../contract/fixtures.js';

let mock: MockServer;
beforeAll(async () => {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  mock = await startMock({ ir, port: 0 });
});
afterAll(() => mock.close());

async function execute(source: string, body: unknown): Promise<Response> {
  return fetch(`${mock.url}/api/v1/connectors/sources/${source}/execute`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

test('on the last page a next key typed as a non-null string is empty, and a non-null object stays an object', async () => {
  // crm: next_cursor is a string ("absent or empty on the last page").
  const crm = (await (await execute('crm', { entity: 'contacts', action: 'list', params: { limit: 100 } })).json()) as { connector_metadata: Record<string, unknown> };
  expect(crm.connector_metadata['next_cursor']).toBe('');
  // call_recording: the cursor sits in a pagination object that is never null; walk to the last page.
  let meta: { pagination: Record<string, unknown> } | undefined;
  let cursor: unknown;
  for (let page = 0; page < 20 && (page === 0 || cursor); page++) {
    const res = await execute('call_recording', { entity: 'users', action: 'list', params: cursor ? { cursor } : {} });
    meta = ((await res.json()) as { connector_metadata: { pagination: Record<string, unknown> } }).connector_metadata;
    cursor = meta.pagination['cursor'];
  }
  expect(meta!.pagination).toMatchObject({ cursor: '', totalRecords: expect.any(Number) });
});

test("a download's Content-Type is a media type: a free-text format param falls back to application/octet-stream", async () => {
  const fileId = new Fixtures('file_storage').key('files_export', 0);
  const free = await execute('file_storage', { entity: 'files_export', action: 'download', params: { fileId, mimeType: 'pdf' } });
  expect(free.status).toBe(200);
  expect(free.headers.get('content-type')).toBe('application/octet-stream');
  const typed = await execute('file_storage', { entity: 'files_export', action: 'download', params: { fileId, mimeType: 'application/pdf' } });
  expect(typed.headers.get('content-type')).toBe('application/pdf');
  // An export is in the requested format, not in the file's own type (files_export takes files' records).
  const own = new Fixtures('file_storage').field('files', 0, 'mimeType');
  expect(own).toMatch(/^[\w.+-]+\/[\w.+-]+/);
  expect(free.headers.get('content-type')).not.toBe(own);
});
