/** The mock over real HTTP: both endpoints, the error cases of issue 4 in the spec's error body, no 500 for any input. */
import http from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Random } from '../../generator/emitters/fixtures/random.js';
import type { SpecIR } from '../../generator/ir.js';
import { readSpec } from '../../generator/spec/read.js';
import { MAX_RECORDS, startMock, type MockServer } from '../../mock/server.js';

let mock: MockServer;
let guarded: MockServer;
const lines: string[] = [];

let specIr: SpecIR;

beforeAll(async () => {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  specIr = ir;
  mock = await startMock({ ir, port: 0, log: (l) => lines.push(l) });
  guarded = await startMock({ ir, port: 0, token: 'secret-token' });
});
afterAll(async () => {
  await mock.close();
  await guarded.close();
});

/** `call` on another server. */
const callOn = (server: MockServer, body: unknown, options: { source?: string } = {}) => call(body, { ...options, server });

async function call(body: unknown, options: { server?: MockServer; source?: string; token?: string | null; raw?: string; path?: string } = {}) {
  const server = options.server ?? mock;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? 'any-token'}`;
  const url = `${server.url}${options.path ?? `/api/v1/connectors/sources/${options.source ?? 'payments'}/execute`}`;
  const res = await fetch(url, { method: 'POST', headers, body: options.raw ?? JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe('errors use the spec error body', () => {
  test('no bearer token: 401; with --token only that token is accepted', async () => {
    expect(await call({ entity: 'customers', action: 'list' }, { token: null })).toEqual({
      status: 401,
      body: { message: 'missing bearer token: send Authorization: Bearer <token>', errors: [{ field: 'headers.authorization', message: 'missing or not a Bearer token', error_code: 'missing_token' }] },
    });
    expect((await call({ entity: 'customers', action: 'list' }, { server: guarded, token: 'other' })).status).toBe(401);
    expect((await call({ entity: 'customers', action: 'list' }, { server: guarded, token: 'secret-token' })).status).toBe(200);
    // The scheme name is case-insensitive.
    const url = `${guarded.url}/api/v1/connectors/sources/payments/execute`;
    const lower = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'bearer secret-token' }, body: JSON.stringify({ entity: 'customers', action: 'list' }) });
    expect(lower.status).toBe(200);
  });

  test('unknown source, unknown route, another method: each error names its problem (errors holds one entry)', async () => {
    expect(await call({ entity: 'customers', action: 'list' }, { source: 'nope' })).toEqual({
      status: 404,
      body: { message: 'unknown source "nope"', errors: [{ field: 'path.source_id', message: 'names no source of this service', error_code: 'unknown_source' }] },
    });
    const route = await call({}, { path: '/api/v2/nothing' });
    expect(route.status).toBe(404);
    expect(route.body.errors).toMatchObject([{ field: 'path', error_code: 'unknown_route' }]);
    const get = await fetch(`${mock.url}/api/v1/integrations/sources`, { method: 'GET', headers: { authorization: 'Bearer x' } });
    expect(get.status).toBe(405);
    expect((await get.json()).errors).toMatchObject([{ field: 'method', error_code: 'method_not_allowed' }]);
  });

  test('a source whose auth_config is null: 422 (an absent one is no credentials)', async () => {
    const server = await startMock({ ir: specIr, port: 0 });
    try {
      const nulled = await call({ source_template_id: 'crm', auth_config: null }, { server, path: '/api/v1/integrations/sources' });
      expect(nulled.status).toBe(422);
      expect(nulled.body.errors).toMatchObject([{ field: 'auth_config', error_code: 'invalid_type' }]);
    } finally {
      await server.close();
    }
  });

  test('a write to the record of another entity that names none: 404 naming the param (channel_topics create)', async () => {
    const { status, body } = await call({ entity: 'channel_topics', action: 'create', params: { channel: 'Cnope', topic: 't' } }, { source: 'team_messaging' });
    expect(status).toBe(404);
    expect(body.errors).toEqual([{ field: 'params.channel', message: 'names no channels record', error_code: 'record_not_found' }]);
  });

  test('a date-time param that is no date-time: 422 naming it and the format, not an empty list', async () => {
    const { status, body } = await call({ entity: 'calls', action: 'list', params: { fromDateTime: 'junk' } }, { source: 'call_recording' });
    expect(status).toBe(422);
    expect(body.errors.map((e: { field: string }) => e.field)).toEqual(['params.fromDateTime']);
    // The format in words, not its regular expression.
    expect(body.errors[0].message).toBe("param 'fromDateTime' must be an ISO 8601 date-time (2024-04-05T10:00:00Z; UTC where it gives no offset), got \"junk\"");
    const ok = await call({ entity: 'calls', action: 'list', params: { fromDateTime: '2024-04-05T10:00:00' } }, { source: 'call_recording' });
    expect(ok.status).toBe(200);
    // recruiting's timestamp filters take date-times too (upstream's ISO 8601): "yesterday" is refused, not an empty page.
    const recruiting = await call({ entity: 'applications', action: 'list', params: { created_after: 'yesterday' } }, { source: 'recruiting' });
    expect(recruiting).toMatchObject({ status: 422, body: { errors: [{ field: 'params.created_after', error_code: 'pattern' }] } });
  });

  test('a key of no record: 404 whose field problem names the key param (the client error code)', async () => {
    const { status, body } = await call({ entity: 'customers', action: 'get', params: { id: 'cus_nope' } });
    expect(status).toBe(404);
    expect(body.errors).toEqual([{ field: 'params.id', message: 'names no customers record', error_code: 'record_not_found' }]);
  });

  test('unknown entity or action: 400 naming the valid ones', async () => {
    const entity = await call({ entity: 'widgets', action: 'list' });
    expect(entity.status).toBe(400);
    expect(entity.body.errors).toEqual([{ field: 'entity', message: expect.stringContaining('customers, disputes'), error_code: 'unknown_entity' }]);
    const action = await call({ entity: 'balance', action: 'list' });
    expect(action).toMatchObject({ status: 400, body: { errors: [{ field: 'action', message: 'valid actions: get', error_code: 'unknown_action' }] } });
  });

  test('invalid params: 422 naming each field', async () => {
    const r = await call({ entity: 'payouts', action: 'list', params: { limit: 0, status: 'lost', colour: 'blue' } });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['params.colour', 'params.limit', 'params.status']);
    expect(r.body.errors.find((e: { field: string }) => e.field === 'params.limit')).toEqual({ field: 'params.limit', message: "param 'limit' must be >= 1 (minimum 1), got 0", error_code: 'minimum' });
  });

  test('malformed JSON or body: 400', async () => {
    expect(await call(undefined, { raw: '{"entity":' })).toMatchObject({ status: 400, body: { errors: [{ field: 'body', error_code: 'malformed_json' }] } });
    expect(await call(undefined, { raw: '[1,2]' })).toMatchObject({ status: 400, body: { errors: [{ field: 'body', error_code: 'malformed_body' }] } });
    expect(await call({ entity: 1, action: 'list', params: [] })).toMatchObject({ status: 400 });
  });

  test('a body nested deeper than 64 levels: 400 too_deep, never a 500 (answering it would overflow the stack)', async () => {
    const nested = (levels: number, inner: string) => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);
    const create = (metadata: string) => `{"entity":"customers","action":"create","params":{"name":"x","metadata":${metadata}}}`;
    const deep = await call(undefined, { raw: create(nested(5000, '1')) });
    expect(deep).toMatchObject({ status: 400, body: { errors: [{ field: 'body', error_code: 'too_deep' }] } });
    expect(deep.body.message).toBe('the execute body nests arrays and objects deeper than 64 levels');
    // Within the limit, the same create is answered (the record echoes the nested value).
    expect((await call(undefined, { raw: create(nested(60, '1')) })).status).toBe(200);
    const source = await call(undefined, { raw: `{"source_template_id":"payments","auth_config":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, path: '/api/v1/integrations/sources' });
    expect(source).toMatchObject({ status: 400, body: { errors: [{ error_code: 'too_deep' }] } });
  });

  test('uniform search: an unknown operator, an unsearchable field or a wrong operand is a 422 naming it', async () => {
    const r = await call({ entity: 'customers', action: 'search', params: { query: { filter: { gt: { created: 'yesterday' } } } } });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ field: 'params.query.filter.gt.created', error_code: 'invalid_operand' });
  });

  test('api_search outside the documented subset of a query language: a clear 422', async () => {
    const r = await call({ entity: 'customers', action: 'api_search', params: { query: 'email:"a@b.c" AND currency:"usd" OR currency:"eur"' } });
    expect(r.status).toBe(422);
    expect(r.body.message).toMatch(/^invalid query: .*AND and OR/i);
    expect(r.body.errors[0]).toMatchObject({ field: 'params.query', error_code: 'query_unsupported' });
  });

  test('a range the file cannot satisfy: 416 with Content-Range', async () => {
    const list = await call({ entity: 'files', action: 'list', params: { pageSize: 1 } }, { source: 'file_storage' });
    const res = await fetch(`${mock.url}/api/v1/connectors/sources/file_storage/execute`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'files', action: 'download', params: { fileId: list.body.result[0].id, alt: 'media', range_header: 'bytes=999999-' } }),
    });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toMatch(/^bytes \*\/\d+$/);
  });

  test('a range that is not one bytes range (malformed, several) is ignored: 200 with the whole content', async () => {
    const list = await call({ entity: 'files', action: 'list', params: { pageSize: 1 } }, { source: 'file_storage' });
    const download = (range: string) =>
      fetch(`${mock.url}/api/v1/connectors/sources/file_storage/execute`, {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
        body: JSON.stringify({ entity: 'files', action: 'download', params: { fileId: list.body.result[0].id, alt: 'media', range_header: range } }),
      });
    const whole = await (await download('bytes=0-')).arrayBuffer();
    for (const range of ['garbage', 'bytes=0-4,10-14', 'items=0-4']) {
      const res = await download(range);
      expect(res.status, range).toBe(200);
      expect((await res.arrayBuffer()).byteLength, range).toBe(whole.byteLength);
    }
  });

  test('since_id takes any id: 0 starts at the first record, an id between records after it', async () => {
    const all = await call({ entity: 'agents', action: 'list', params: { limit: 100 } }, { source: 'live_chat' });
    const ids = (all.body.result as { id: number }[]).map((r) => r.id);
    expect((await call({ entity: 'agents', action: 'list', params: { limit: 100, since_id: 0 } }, { source: 'live_chat' })).body.result.map((r: { id: number }) => r.id)).toEqual(ids);
    const between = await call({ entity: 'agents', action: 'list', params: { limit: 100, since_id: ids[2]! + 1 } }, { source: 'live_chat' });
    expect(between.body.result.map((r: { id: number }) => r.id)).toEqual(ids.slice(3));
  });
});

describe('created records', () => {
  test('hold what the create gave, defaults where it gave none; other fields are null where they may be, flags false (a new message is no reply)', async () => {
    const server = await startMock({ ir: specIr, port: 0 });
    try {
      const channel = (await callOn(server, { entity: 'channels', action: 'list', params: { limit: 1 } }, { source: 'team_messaging' })).body.result[0].id;
      const posted = await callOn(server, { entity: 'messages', action: 'create', params: { channel, text: 'hello' } }, { source: 'team_messaging' });
      expect(posted.status).toBe(200);
      const listed = (await callOn(server, { entity: 'channel_messages', action: 'list', params: { channel, limit: 1 } }, { source: 'team_messaging' })).body.result[0];
      expect(listed).toMatchObject({ ts: posted.body.result.ts, text: 'hello', thread_ts: null, reply_count: null });
      const created = await callOn(server, { entity: 'channels', action: 'create', params: { name: 'fresh-channel' } }, { source: 'team_messaging' });
      expect(created.body.result).toMatchObject({ name: 'fresh-channel', is_archived: false });
      // A channel has a name, in the contract's form (lowercase, no spaces).
      expect((await callOn(server, { entity: 'channels', action: 'create', params: { name: '' } }, { source: 'team_messaging' })).status).toBe(422);
      expect((await callOn(server, { entity: 'channels', action: 'create', params: { name: 'Bad Name' } }, { source: 'team_messaging' })).status).toBe(422);
      // A record that is one object (issue_tracking's data) is blanked inside it.
      const teamId = (await callOn(server, { entity: 'teams', action: 'list', params: { first: 1 } }, { source: 'issue_tracking' })).body.result[0].data.id;
      const issue = await callOn(server, { entity: 'issues', action: 'create', params: { teamId, title: 'Fresh' } }, { source: 'issue_tracking' });
      expect(issue.body.result.data).toMatchObject({ teamId, title: 'Fresh', description: null, stateId: null });
      // An issue joins a team that exists (its parent): another teamId is a 404 naming the param.
      const orphan = await callOn(server, { entity: 'issues', action: 'create', params: { teamId: 'no-such-team', title: 'Lost' } }, { source: 'issue_tracking' });
      expect(orphan).toMatchObject({ status: 404, body: { errors: [{ field: 'params.teamId', error_code: 'parent_not_found' }] } });
      // A param not given holds its default (priority 0, "no priority"), not a fixture's random value.
      for (const title of ['One', 'Two', 'Three']) {
        const made = await callOn(server, { entity: 'issues', action: 'create', params: { teamId, title } }, { source: 'issue_tracking' });
        expect(made.body.result.data.priority).toBe(0);
      }
      const urgent = await callOn(server, { entity: 'issues', action: 'create', params: { teamId, title: 'Now', priority: 1 } }, { source: 'issue_tracking' });
      expect(urgent.body.result.data.priority).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('page tokens continue their own request', () => {
  test('a token used with other filters is a 422 invalid_cursor; another page size is fine', async () => {
    const first = await call({ entity: 'channels', action: 'list', params: { limit: 2 } }, { source: 'team_messaging' });
    const cursor = first.body.connector_metadata.next_cursor as string;
    expect(typeof cursor).toBe('string');
    const other = await call({ entity: 'channels', action: 'list', params: { limit: 2, cursor, exclude_archived: true } }, { source: 'team_messaging' });
    expect(other.status).toBe(422);
    expect(other.body.errors).toMatchObject([{ field: 'params.cursor', error_code: 'invalid_cursor' }]);
    const resized = await call({ entity: 'channels', action: 'list', params: { limit: 3, cursor } }, { source: 'team_messaging' });
    expect(resized.status).toBe(200);
  });
});

describe('deleted records stay gone', () => {
  test('a create after a delete gets a new id: the deleted one names no record', async () => {
    const server = await startMock({ ir: specIr, port: 0 });
    try {
      for (const [entity, params] of [['customers', { email: 'a@example.com' }], ['products', { name: 'A' }]] as const) {
        const create = async () => (await callOn(server, { entity, action: 'create', params })).body.result.id as string;
        const first = await create();
        expect((await callOn(server, { entity, action: 'delete', params: { id: first } })).status).toBe(200);
        const second = await create();
        expect(second, `${entity}: a new id after a delete`).not.toBe(first);
        expect((await callOn(server, { entity, action: 'get', params: { id: first } })).status).toBe(404);
      }
    } finally {
      await server.close();
    }
  });
});

describe('writes keep records to their schema', () => {
  test('a param naming a record field must fit it: 422 naming the param, and the record is unchanged', async () => {
    const id = (await call({ entity: 'customers', action: 'list', params: { limit: 1 } })).body.result[0].id;
    const before = (await call({ entity: 'customers', action: 'get', params: { id } })).body.result;
    const bad = await call({ entity: 'customers', action: 'update', params: { id, object: 'invoice', created: 'yesterday' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string; error_code: string }) => [e.field, e.error_code])).toEqual([
      ['params.created', 'invalid_field_value'],
      ['params.object', 'invalid_field_value'],
    ]);
    expect((await call({ entity: 'customers', action: 'get', params: { id } })).body.result).toEqual(before);
    expect((await call({ entity: 'customers', action: 'create', params: { object: 'charge' } })).status).toBe(422);
  });
});

describe('paging while records are written', () => {
  test('a cursor continues after the last record served: a message posted between pages neither repeats nor skips one', async () => {
    // A server of its own: the writes stay out of the sources other tests read.
    const server = await startMock({ ir: specIr, port: 0 });
    const source = 'team_messaging';
    const call = (body: unknown, options: { source: string }) => callOn(server, body, options);
    const channels = await call({ entity: 'channels', action: 'list', params: { limit: 1 } }, { source });
    const channel = channels.body.result[0].id as string;
    const list = (cursor?: string) => call({ entity: 'channel_messages', action: 'list', params: { channel, limit: 4, ...(cursor ? { cursor } : {}) } }, { source });
    const before = (await call({ entity: 'channel_messages', action: 'list', params: { channel, limit: 100 } }, { source })).body.result.map((m: { ts: string }) => m.ts);
    expect(before.length).toBeGreaterThan(4);
    const first = await list();
    await call({ entity: 'messages', action: 'create', params: { channel, text: 'posted between pages' } }, { source });
    const second = await list(first.body.connector_metadata.next_cursor);
    const seen = [...first.body.result, ...second.body.result].map((m: { ts: string }) => m.ts);
    await server.close();
    expect(seen).toEqual(before.slice(0, seen.length));
  });
});

describe('sources', () => {
  test('one ready source per connector, id = connector id', () => {
    expect(mock.sources.map((s) => s.id)).toContain('work_management');
    expect(mock.sources).toHaveLength(15);
  });

  test('creating a source checks auth_config against the connector and returns its id; the new source serves data', async () => {
    const bad = await call({ source_template_id: 'advertising', auth_config: { client_id: 1 } }, { path: '/api/v1/integrations/sources' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual(['auth_config.client_id', 'auth_config.client_secret', 'auth_config.refresh_token']);
    expect((await call({ source_template_id: 'nope' }, { path: '/api/v1/integrations/sources' })).body.errors[0].field).toBe('source_template_id');
    const ok = await call({ workspace_id: 'w', source_template_id: 'advertising', name: 'Ads', auth_config: { client_id: 'a', client_secret: 'b', refresh_token: 'c' } }, { path: '/api/v1/integrations/sources' });
    expect(ok).toEqual({ status: 201, body: { result: { id: 'advertising-1', source_template_id: 'advertising', workspace_id: 'w', name: 'Ads' } } });
    expect((await call({ entity: 'profiles', action: 'list' }, { source: 'advertising-1' })).status).toBe(200);
  });

  test('advertising takes region_url in auth_config (optional: it has a default), checked as an absolute http(s) URL', async () => {
    const auth = { client_id: 'a', client_secret: 'b', refresh_token: 'c' };
    const path = '/api/v1/integrations/sources';
    const ok = await call({ source_template_id: 'advertising', auth_config: { ...auth, region_url: 'https://advertising-api-eu.example.com' } }, { path });
    expect(ok.status).toBe(201);
    expect((await call({ entity: 'profiles', action: 'list' }, { source: ok.body.result.id })).status).toBe(200);
    const bad = await call({ source_template_id: 'advertising', auth_config: { ...auth, region_url: 'eu-west' } }, { path });
    expect(bad).toMatchObject({ status: 422, body: { errors: [{ field: 'auth_config.region_url', error_code: 'invalid_format' }] } });
    expect((await call({ source_template_id: 'advertising', auth_config: { ...auth, region_url: 7 } }, { path })).body.errors[0]).toMatchObject({ field: 'auth_config.region_url', error_code: 'invalid_type' });
    const unknown = await call({ source_template_id: 'advertising', auth_config: { ...auth, regionUrl: 'https://x.example' } }, { path });
    expect(unknown.body.errors[0].message).toContain('known: client_id, client_secret, refresh_token, region_url');
  });

  test('created sources are capped: beyond the cap a clear 429, and no source is made', async () => {
    const capped = await startMock({ ir: (await readSpec(path.resolve(import.meta.dirname, '../../spec'))).ir, port: 0, maxSources: 2 });
    try {
      const create = () => call({ source_template_id: 'crm' }, { server: capped, path: '/api/v1/integrations/sources' });
      expect((await create()).status).toBe(201);
      expect((await create()).status).toBe(201);
      const third = await create();
      expect(third.status).toBe(429);
      expect(third.body.message).toMatch(/at most 2 created sources/);
      expect(third.body.errors[0].error_code).toBe('source_limit');
      expect((await call({ entity: 'contacts', action: 'list' }, { server: capped, source: 'crm-3' })).status).toBe(404);
    } finally {
      await capped.close();
    }
  });

  test('writes to one source never show in another', async () => {
    const created = await call({ entity: 'customers', action: 'create', params: { email: 'only-here@example.com' } });
    const id = created.body.result.id;
    expect((await call({ entity: 'customers', action: 'get', params: { id } })).status).toBe(200);
    const other = await call({ source_template_id: 'payments' }, { path: '/api/v1/integrations/sources' });
    expect((await call({ entity: 'customers', action: 'get', params: { id } }, { source: other.body.result.id })).status).toBe(404);
  });
});

describe('list params select records only by the rules the spec states', () => {
  const ids = async (source: string, entity: string, action: string, params: Record<string, unknown>) => {
    const r = await call({ entity, action, params }, { source });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.result as Record<string, unknown>[]).map((x) => x['id']);
  };

  test('a param named like a record field but stated as no filter selects nothing (what to return, not which records)', async () => {
    const all = await ids('crm', 'contacts', 'list', { limit: 100 });
    expect(all.length).toBeGreaterThan(0);
    // crm `properties` names the properties to return; the record's `properties` is an object.
    expect(await ids('crm', 'contacts', 'list', { limit: 100, properties: 'email', associations: 'companies' })).toEqual(all);
    // project_tracking `expand` and `fields` shape the issues returned; the records have fields named so.
    const issues = await ids('project_tracking', 'issues', 'api_search', {});
    expect(issues.length).toBeGreaterThan(0);
    expect(await ids('project_tracking', 'issues', 'api_search', { expand: 'names', fields: 'summary' })).toEqual(issues);
  });

  test('a stated equality filter selects, and each allowed value finds the records that hold it', async () => {
    const all = (await call({ entity: 'applications', action: 'list', params: { per_page: 500 } }, { source: 'recruiting' })).body.result as { id: unknown; status: string }[];
    for (const status of ['active', 'rejected', 'hired']) {
      const expected = all.filter((a) => a.status === status).map((a) => a.id);
      expect(expected.length, status).toBeGreaterThan(0);
      expect(await ids('recruiting', 'applications', 'list', { per_page: 500, status })).toEqual(expected);
    }
  });

  test('crm lists leave archived records out unless archived is given; archived: true gives those only', async () => {
    const listed = (params: Record<string, unknown>) => call({ entity: 'companies', action: 'list', params: { limit: 100, ...params } }, { source: 'crm' }).then((r) => r.body.result as { archived: boolean }[]);
    const byDefault = await listed({});
    const archived = await listed({ archived: true });
    expect(byDefault.length).toBeGreaterThan(0);
    expect(archived.length).toBeGreaterThan(0);
    expect(byDefault.every((c) => !c.archived)).toBe(true);
    expect(archived.every((c) => c.archived)).toBe(true);
    expect(await listed({ archived: false })).toEqual(byDefault);
  });
});

describe("a scheme's backward param (payments ending_before)", () => {
  const page = (params: Record<string, unknown>) => call({ entity: 'customers', action: 'list', params: { limit: 5, ...params } });

  test('gives the records just before the one named, in list order; has_more says more lie before them', async () => {
    const all = (await page({ limit: 100 })).body.result.map((c: { id: string }) => c.id) as string[];
    expect(all.length).toBeGreaterThan(12);
    const back = await page({ ending_before: all[12] });
    expect(back.status).toBe(200);
    expect(back.body.result.map((c: { id: string }) => c.id)).toEqual(all.slice(7, 12));
    expect(back.body.connector_metadata.has_more).toBe(true);
    const first = await page({ ending_before: all[3] });
    expect(first.body.result.map((c: { id: string }) => c.id)).toEqual(all.slice(0, 3));
    expect(first.body.connector_metadata.has_more).toBe(false);
  });

  test('an id of no record, or both directions at once: a 422 naming the param', async () => {
    expect(await page({ ending_before: 'cus_nope' })).toMatchObject({ status: 422, body: { errors: [{ field: 'params.ending_before', error_code: 'invalid_cursor' }] } });
    const all = (await page({})).body.result as { id: string }[];
    expect(await page({ ending_before: all[2]!.id, starting_after: all[0]!.id })).toMatchObject({ status: 422, body: { errors: [{ field: 'params.ending_before' }] } });
  });
});

test('records per entity beyond the stated maximum: a clear error, no server', async () => {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  await expect(startMock({ ir, port: 0, records: MAX_RECORDS + 1 })).rejects.toThrow(`records must be an integer from 1 to ${MAX_RECORDS}`);
});

test('a client that goes away mid-request is a debug line, not an error', async () => {
  const debug: string[] = [];
  const logged: string[] = [];
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  const server = await startMock({ ir, port: 0, log: (l) => logged.push(l), debug: (l) => debug.push(l) });
  try {
    const { port } = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /api/v1/connectors/sources/payments/execute HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"entity":"cust');
        setTimeout(() => socket.destroy(), 50);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(debug.join('\n')).toMatch(/client closed the connection/);
    expect(logged.join('\n')).not.toMatch(/internal error|500/);
    expect((await call({ entity: 'customers', action: 'list' }, { server })).status).toBe(200);
  } finally {
    await server.close();
  }
});

test('a body over the limit: 413 naming the body; the pooled connection is closed, so its next request is answered at once', async () => {
  const { port } = new URL(mock.url);
  // One kept-alive socket, as an HTTP client pool reuses it.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = (body: string) =>
    new Promise<{ status: number | string; body?: { errors: unknown[] }; ms: number }>((resolve) => {
      const started = performance.now();
      const headers = { authorization: 'Bearer t', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
      const req = http.request({ host: '127.0.0.1', port: Number(port), method: 'POST', path: '/api/v1/connectors/sources/payments/execute', agent, headers }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), ms: performance.now() - started }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: `error ${error.code}`, ms: performance.now() - started }));
      req.end(body);
    });
  try {
    const first = await post(JSON.stringify({ entity: 'customers', action: 'list', params: { pad: 'x'.repeat(1_200_000) } }));
    expect(first.status).toBe(413);
    expect(first.body!.errors).toEqual([{ field: 'body', message: 'over 1048576 bytes', error_code: 'body_too_large' }]);
    const next = await post(JSON.stringify({ entity: 'customers', action: 'list' }));
    expect(next.status, 'not a reset after the server gave up on the half-read connection').toBe(200);
    expect(next.ms).toBeLessThan(2_000);
  } finally {
    agent.destroy();
  }
});

test('one log line per request, without the token', async () => {
  const before = lines.length;
  await call({ entity: 'customers', action: 'list' }, { token: 'very-secret-token' });
  expect(lines.slice(before)).toEqual([expect.stringMatching(/^POST \/api\/v1\/connectors\/sources\/payments\/execute 200 [\d.]+ms payments customers list$/)]);
  expect(lines.join('\n')).not.toContain('very-secret-token');
});

test('no input makes it answer 500; __proto__ keys are inert', async () => {
  const random = Random.for('mock-fuzz');
  const values: unknown[] = [null, 0, -1, 1e21, 'x', '', true, [], {}, [{}], { __proto__: { polluted: 1 } }, { constructor: { prototype: { polluted: 1 } } }, 'bytes=5-1', '💥'.repeat(50)];
  const entities = ['customers', 'charges', 'balance', '__proto__', 'constructor', 'toString', 'files'];
  const actions = ['list', 'get', 'create', 'update', 'delete', 'search', 'api_search', 'download', '__proto__', 'hasOwnProperty'];
  const params = ['limit', 'id', 'query', 'page', 'starting_after', 'fileId', 'email', 'created', '__proto__', 'constructor', 'range_header', 'alt', 'fields', 'cursor'];
  for (let i = 0; i < 400; i++) {
    const body: Record<string, unknown> = JSON.parse(`{"entity":${JSON.stringify(random.pick(entities))},"action":${JSON.stringify(random.pick(actions))}}`);
    const p: Record<string, unknown> = {};
    for (let k = random.int(0, 3); k > 0; k--) p[random.pick(params)] = random.pick(values);
    const raw = random.chance(0.1) ? JSON.stringify(body).slice(0, random.int(0, 20)) : JSON.stringify({ ...body, params: p }).replace('"params":{', '"params":{"__proto__":{"polluted":true},');
    const res = await fetch(`${mock.url}/api/v1/connectors/sources/${random.pick(['payments', 'file_storage', '..', '%E0%A4%A'])}/execute`, { method: 'POST', headers: { authorization: 'Bearer t' }, body: raw });
    expect(res.status, raw).toBeLessThan(500);
    await res.arrayBuffer();
  }
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
});
