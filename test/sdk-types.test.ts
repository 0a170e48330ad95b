/**
 * Type tests of the SDK surface (issue 14): every call is a real `Promise` (list calls too), `.withResponse()` and
 * `.asResponse()` are typed, and `fetch` takes undici's, node-fetch's and a plain test double without a cast.
 * `npm test` runs tsc over this file first: each `@ts-expect-error` fails the build if the line ever compiles,
 * and each assignment fails it if it stops compiling. The calls sit in functions never invoked.
 */
import type { Agent, fetch as undiciFetch } from 'undici-types';
import type nodeFetch from 'node-fetch';
import { describe, expectTypeOf, test } from 'vitest';
import {
  PaymentsClient,
  type APIPromise,
  type Customer,
  type DownloadResponse,
  type ListMeta,
  type Page,
  type PagePromise,
  type WithResponse,
} from '@connector-sdk/payments';
import { FileStorageClient } from '@connector-sdk/file-storage';

const options = { baseUrl: 'http://localhost', token: 't', sourceId: 's' };
declare const undici: typeof undiciFetch;
declare const agent: Agent;
declare const nodeFetchImpl: typeof nodeFetch;
const payments = new PaymentsClient(options);

describe('every call is a real Promise', () => {
  test('single and list calls are assignable to Promise<…>, and usable where promises are expected', () => {
    void (async () => {
      const one: Promise<Customer> = payments.customers.get({ id: 'cus_1' });
      const page: Promise<Page<Customer, ListMeta>> = payments.customers.list({ limit: 10 });
      const anything: Promise<unknown> = payments.customers.list();
      // The meta left out: Page<T> takes any meta.
      const records: Page<Customer> = await payments.customers.list();
      expectTypeOf(records.records).toEqualTypeOf<Customer[]>();
      const download: Promise<DownloadResponse> = new FileStorageClient(options).files.download({ fileId: 'f', alt: 'media' });
      const source: Promise<{ id: string }> = payments.createSource({ source_template_id: 'payments' });
      const raced = await Promise.race([payments.customers.list(), payments.customers.get({ id: 'cus_1' })]);
      expectTypeOf(raced).toEqualTypeOf<Page<Customer, ListMeta> | Customer>();
      const helper = <T>(p: Promise<T>): Promise<T> => p;
      expectTypeOf(await helper(payments.customers.list())).toEqualTypeOf<Page<Customer, ListMeta>>();
      void [one, page, anything, download, source];
    });
  });

  test('a list call still iterates items and pages', () => {
    void (async () => {
      const list = payments.customers.list();
      expectTypeOf(list).toEqualTypeOf<PagePromise<Customer, Page<Customer, ListMeta>>>();
      for await (const customer of list) expectTypeOf(customer).toEqualTypeOf<Customer>();
      for await (const page of list.pages()) expectTypeOf(page).toEqualTypeOf<Page<Customer, ListMeta>>();
    });
  });
});

describe('raw responses are typed', () => {
  test('.withResponse() gives the data, the Response and the request id; .asResponse() the Response', () => {
    void (async () => {
      expectTypeOf(payments.customers.get({ id: 'cus_1' })).toEqualTypeOf<APIPromise<Customer>>();
      const { data, response, requestId } = await payments.customers.get({ id: 'cus_1' }).withResponse();
      expectTypeOf(data).toEqualTypeOf<Customer>();
      expectTypeOf(response).toEqualTypeOf<Response>();
      expectTypeOf(requestId).toEqualTypeOf<string | undefined>();
      expectTypeOf(await payments.customers.list().withResponse()).toEqualTypeOf<WithResponse<Page<Customer, ListMeta>>>();
      expectTypeOf(payments.customers.list().asResponse()).toEqualTypeOf<Promise<Response>>();
      // @ts-expect-error the data of a single call is its record, not a page
      void (await payments.customers.get({ id: 'cus_1' }).withResponse()).data.records;
    });
  });
});

describe('fetch takes any fetch-compatible function without a cast', () => {
  test("undici's fetch (with a dispatcher in fetchOptions), node-fetch's, the platform's and test doubles", () => {
    void (() => {
      new PaymentsClient({ ...options, fetch: undici, fetchOptions: { dispatcher: agent } });
      new PaymentsClient({ ...options, fetch: nodeFetchImpl });
      new PaymentsClient({ ...options, fetch: globalThis.fetch });
      new PaymentsClient({ ...options, fetch: async () => new Response('{"result":[]}') });
      new PaymentsClient({ ...options, fetch: async (url: string, init?: RequestInit) => new Response(`${url} ${String(init?.body)}`) });
      // A double that answers with a plain object carrying what the runtime reads.
      new PaymentsClient({
        ...options,
        fetch: async () => ({ ok: true, status: 200, statusText: 'OK', headers: new Headers(), body: null }),
      });
      // Per call too.
      void payments.customers.get({ id: 'cus_1' }, { fetchOptions: { dispatcher: agent, keepalive: true } });
      // @ts-expect-error not a fetch: the URL is a string
      new PaymentsClient({ ...options, fetch: async (url: number) => new Response(String(url)) });
      // @ts-expect-error not a fetch: it must answer with a response
      new PaymentsClient({ ...options, fetch: async () => 'ok' });
      // @ts-expect-error a known fetch init field keeps its type
      new PaymentsClient({ ...options, fetchOptions: { keepalive: 'yes' } });
    });
  });

  test('logLevel takes the five levels only; logger takes console or any object with some of the four methods', () => {
    void (() => {
      new PaymentsClient({ ...options, logLevel: 'debug', logger: console });
      new PaymentsClient({ ...options, logLevel: 'off', logger: { warn: (line: string) => void line } });
      // @ts-expect-error unknown level
      new PaymentsClient({ ...options, logLevel: 'verbose' });
    });
  });
});
