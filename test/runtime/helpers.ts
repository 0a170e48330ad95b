/** Shared fixtures of the runtime tests: a fake fetch that records every request, and a client exposing the protected calls. */
import {
  callDownload,
  type APIPromise,
  ConnectorClient,
  type CallDescriptor,
  type ClientOptions,
  type DownloadResponse,
  type Page,
  type PageOptions,
  type PagePromise,
  type PaginationDescriptor,
  type RequestOptions,
  type ServiceDescriptor,
} from '../../runtime/src/index.js';

/** A distinctive token: no test may find it anywhere outside the Authorization header. */
export const TOKEN = 'tok_SECRET_c0ffee_9f8e7d6c';

/** The service facts of the real spec (catalogue `service`). */
export const SERVICE: ServiceDescriptor = {
  executePath: '/api/v1/connectors/sources/{source_id}/execute',
  sourcesPath: '/api/v1/integrations/sources',
  envelope: { records: 'result', meta: 'connector_metadata' },
  search: { style: 'cursor', param: 'cursor', sizeParam: 'limit', next: { from: 'meta', path: 'next_cursor' }, stop: [{ when: 'nextMissing' }] },
  reads: ['list', 'get', 'api_search', 'search', 'download'],
};

export const BASE = 'https://api.example.test';
export const EXECUTE_URL = `${BASE}/api/v1/connectors/sources/src_1/execute`;

/** One request as the fake server saw it. */
export interface Captured {
  url: string;
  method: string;
  headers: Headers;
  body: { entity?: string; action?: string; params?: Record<string, unknown> } & Record<string, unknown>;
  signal: AbortSignal | undefined;
}

/** A fetch whose answers come from `handler`; `calls` lists every request in order. */
export function fakeFetch(handler: (request: Captured, index: number) => Response | Promise<Response>): { fetch: typeof fetch; calls: Captured[] } {
  const calls: Captured[] = [];
  const fetchImpl = async (input: unknown, init?: RequestInit): Promise<Response> => {
    const request: Captured = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body ? JSON.parse(String(init.body)) : {},
      signal: init?.signal ?? undefined,
    };
    calls.push(request);
    return handler(request, calls.length - 1);
  };
  return { fetch: fetchImpl as typeof fetch, calls };
}

/** A JSON response. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** An envelope with the real spec's keys. */
export function envelope(result: unknown, meta?: unknown): Response {
  return json(meta === undefined ? { result } : { result, connector_metadata: meta });
}

/** A clock that never waits: it records every requested delay. */
export function recordingClock(random = 0.5, now = Date.parse('2025-01-01T00:00:00Z')) {
  const delays: number[] = [];
  return { delays, clock: { sleep: async (ms: number) => void delays.push(ms), random: () => random, now: () => now } };
}

/** Client options for tests: no real waits, distinctive token, fake fetch, no log lines (tests of logging set their own). */
export function options(fetchImpl: typeof fetch, extra: Partial<ClientOptions> = {}): ClientOptions {
  return { baseUrl: BASE, token: TOKEN, sourceId: 'src_1', fetch: fetchImpl, clock: recordingClock().clock, logLevel: 'off', ...extra };
}

/** A client exposing the protected calls, as generated subclasses would use them. */
export class TestClient extends ConnectorClient {
  single<T = unknown>(call: CallDescriptor, params?: object, options?: RequestOptions): APIPromise<T> {
    return this.callSingle<T>(call, params, options);
  }
  list<T = unknown, M = unknown>(call: CallDescriptor, params: object | undefined, pagination: PaginationDescriptor | null, options?: PageOptions): PagePromise<T, Page<T, M>> {
    const resource = this.resource<{ run(params?: object, options?: PageOptions): PagePromise<T, Page<T, M>> }>(call.entity, {
      run: { action: call.action, result: 'list', ...(call.params ? { params: call.params } : {}), ...(pagination ? { paging: pagination } : {}) },
    });
    return resource.run(params, options);
  }
  search<H = unknown>(call: CallDescriptor, params: object, options?: PageOptions): PagePromise<H, { hits: H[]; next_cursor: string | null; took_ms: number }> {
    const resource = this.resource<{ run(params: object, options?: PageOptions): PagePromise<H, { hits: H[]; next_cursor: string | null; took_ms: number }> }>(call.entity, {
      run: { action: call.action, result: 'hits', ...(call.params ? { params: call.params } : {}) },
    });
    return resource.run(params, options);
  }
  download(call: CallDescriptor, params?: object, options?: RequestOptions): APIPromise<DownloadResponse> {
    return callDownload(this, call, params, options);
  }
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

/** Drains an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
