/**
 * Type tests of the generated clients: wrong calls do not compile (each `@ts-expect-error` fails `tsc` if the
 * call ever type-checks), right calls get precise types. `npm test` runs tsc over this file before vitest.
 * The calls sit in functions that are never invoked: only their types matter here.
 */
import { describe, expectTypeOf, test } from 'vitest';
import { AdvertisingClient } from '@connector-sdk/advertising';
import { CodeHostingClient } from '@connector-sdk/code-hosting';
import { IssueTrackingClient } from '@connector-sdk/issue-tracking';
import { FileStorageClient, type DownloadResponse } from '@connector-sdk/file-storage';
import {
  PaymentsClient,
  type Charge,
  type Customer,
  type CustomersSearchFields,
  type DeletedCustomer,
  type ListMeta,
  type Payout,
  type SearchResultMeta,
} from '@connector-sdk/payments';
import { SupportDeskClient } from '@connector-sdk/support-desk';
import { WorkManagementClient } from '@connector-sdk/work-management';

const options = { baseUrl: 'http://localhost', token: 't', sourceId: 's' };
const payments = new PaymentsClient(options);

describe('wrong calls do not compile', () => {
  test('params', () => {
    void (() => {
      // @ts-expect-error missing required param `id`
      void payments.customers.get({});
      // @ts-expect-error params are required when a param is required
      void payments.customers.get();
      // @ts-expect-error unknown param
      void payments.customers.list({ limit: 10, colour: 'blue' });
      // @ts-expect-error param of the wrong type
      void payments.customers.list({ limit: '10' });
      // @ts-expect-error enum param outside its enum
      void payments.payouts.list({ status: 'lost' });
      // @ts-expect-error nested object param with an unknown key
      void payments.customers.list({ created: { after: 1 } });
      // @ts-expect-error an action that takes no params takes none
      void payments.balance.get({ currency: 'usd' });
      // @ts-expect-error const param must hold its literal
      void new FileStorageClient(options).files.download({ fileId: 'f', alt: 'json' });
      // @ts-expect-error an array param's elements keep their enum
      void new CodeHostingClient(options).issues.list({ owner: 'o', repo: 'r', states: ['OPEN', 'LOST'] });
    });
  });

  test('entities and actions', () => {
    void (() => {
      // @ts-expect-error unknown entity
      void payments.widgets;
      // @ts-expect-error unknown action (balance has get only)
      void payments.balance.list();
      // @ts-expect-error writes exist only where the contract lists them
      void payments.charges.create({});
      // @ts-expect-error api_search is camel-cased
      void payments.customers.api_search({ query: 'x' });
    });
  });

  test('uniform search', () => {
    void (() => {
      // @ts-expect-error a filter on a field that is not searchable
      void payments.customers.search({ query: { filter: { eq: { colour: 'blue' } } } });
      // @ts-expect-error an operand of the wrong type (created is an integer)
      void payments.customers.search({ query: { filter: { gt: { created: 'yesterday' } } } });
      // @ts-expect-error like applies to text fields only
      void payments.customers.search({ query: { filter: { like: { created: '17%' } } } });
      // @ts-expect-error in takes an array
      void payments.customers.search({ query: { filter: { in: { currency: 'usd' } } } });
      // @ts-expect-error a filter has exactly one operator
      void payments.customers.search({ query: { filter: { eq: { currency: 'usd' }, gt: { created: 1 } } } });
      // @ts-expect-error and takes an array of filters
      void payments.customers.search({ query: { filter: { and: { eq: { currency: 'usd' } } } } });
      // @ts-expect-error not takes one filter
      void payments.customers.search({ query: { filter: { not: [{ eq: { currency: 'usd' } }] } } });
      // @ts-expect-error unknown operator
      void payments.customers.search({ query: { filter: { contains: { email: 'x' } } } });
      // @ts-expect-error a sort on a field that is not searchable
      void payments.customers.search({ query: { sort: [{ colour: 'asc' }] } });
      // @ts-expect-error a sort direction outside asc | desc
      void payments.customers.search({ query: { sort: [{ created: 'up' }] } });
      // @ts-expect-error fields name searchable fields only
      void payments.customers.search({ query: {}, fields: ['colour'] });
      // @ts-expect-error a path goes into a field that holds an object only
      void payments.customers.search({ query: {}, fields: ['email.domain'] });
      // @ts-expect-error enum-typed searchable field
      void payments.customers.search({ query: { filter: { eq: { tax_exempt: 'maybe' } } } });
    });
  });

  test('createSource auth_config', () => {
    void (() => {
      // @ts-expect-error issue tracking auth_config requires api_key
      void new IssueTrackingClient(options).createSource({ auth_config: {} });
      // @ts-expect-error advertising auth_config fields are strings
      void new AdvertisingClient(options).createSource({ auth_config: { client_id: 1, client_secret: 's', refresh_token: 'r' } });
      // @ts-expect-error region_url is a string
      void new AdvertisingClient(options).createSource({ auth_config: { client_id: 'c', client_secret: 's', refresh_token: 'r', region_url: 1 } });
      // @ts-expect-error an unknown auth_config key
      void new AdvertisingClient(options).createSource({ auth_config: { client_id: 'c', client_secret: 's', refresh_token: 'r', regionUrl: 'https://x' } });
    });
  });
});

describe('right calls are typed precisely', () => {
  test('records, literals, enums and nullability', () => {
    void (async () => {
      const customer = await payments.customers.get({ id: 'cus_1' });
      expectTypeOf(customer).toEqualTypeOf<Customer>();
      expectTypeOf(customer.object).toEqualTypeOf<'customer'>();
      expectTypeOf(customer.email).toEqualTypeOf<string | null>();
      expectTypeOf(customer.address).toEqualTypeOf<Record<string, unknown> | null>();
      const charge: Charge = await payments.charges.get({ id: 'ch_1' });
      expectTypeOf(charge.status).toEqualTypeOf<'succeeded' | 'pending' | 'failed'>();
      expectTypeOf(await payments.customers.delete({ id: 'cus_1' })).toEqualTypeOf<DeletedCustomer>();
      // A record the contract cuts off stays open beyond its known fields.
      const payout: Payout = await payments.payouts.get({ id: 'po_1' });
      expectTypeOf(payout.method).toEqualTypeOf<'standard' | 'instant'>();
      expectTypeOf(payout['status']).toEqualTypeOf<unknown>();
    });
  });

  test('lists: await gives the first page, iteration gives records', () => {
    void (async () => {
      const page = await payments.customers.list({ limit: 100 });
      expectTypeOf(page.records).toEqualTypeOf<Customer[]>();
      expectTypeOf(page.meta).toEqualTypeOf<ListMeta>();
      expectTypeOf(page.meta.has_more).toEqualTypeOf<boolean>();
      for await (const c of payments.customers.list({ limit: 100 }, { maxItems: 250 })) expectTypeOf(c).toEqualTypeOf<Customer>();
      for await (const p of payments.customers.list().pages()) expectTypeOf(p.meta).toEqualTypeOf<ListMeta>();
      const searchPage = await payments.charges.apiSearch({ query: "status:'succeeded'" });
      expectTypeOf(searchPage.meta).toEqualTypeOf<SearchResultMeta>();
      expectTypeOf(searchPage.meta.next_page).toEqualTypeOf<string | null>();
    });
  });

  test('params the contract does not show are open; known ones stay typed', () => {
    void (async () => {
      await payments.invoices.get({ id: 'in_1', expand: ['lines'] });
      await payments.invoices.list({ limit: 5, status: 'open' });
      // @ts-expect-error a known param keeps its type even where the list is cut off
      await payments.invoices.list({ limit: 'five' });
    });
  });

  test('uniform search: filters, sort, narrowed data, cursor', () => {
    void (async () => {
      const result = await payments.customers.search({
        query: {
          filter: { and: [{ gt: { created: 1_700_000_000 } }, { or: [{ in: { currency: ['usd', 'eur'] } }, { not: { eq: { delinquent: true } } }] }, { fuzzy: { name: 'jon smith' } }] },
          sort: [{ created: 'desc' }, { email: 'asc' }],
        },
        limit: 50,
        fields: ['email', 'created'],
      });
      expectTypeOf(result.hits[0]!.data).toEqualTypeOf<{ email?: string | null; created?: number | null }>();
      expectTypeOf(result.next_cursor).toEqualTypeOf<string | null>();
      expectTypeOf(result.took_ms).toEqualTypeOf<number>();
      const all = await payments.customers.search({ query: {} });
      expectTypeOf(all.hits[0]!.data.tax_exempt).toEqualTypeOf<'none' | 'exempt' | 'reverse' | null | undefined>();
      expectTypeOf<keyof typeof all.hits[0]['data']>().toEqualTypeOf<keyof CustomersSearchFields>();
      // Paths into object fields (address.city) are fields too; the names beside them still narrow the data.
      const parts = await payments.customers.search({ query: {}, fields: ['email', 'address.city'] });
      expectTypeOf(parts.hits[0]!.data.email).toEqualTypeOf<string | null | undefined>();
      // eq on an array field takes one element (the array contains it).
      await payments.customers.search({ query: { filter: { eq: { preferred_locales: 'en' } } } });
      // Entities whose searchable fields are not shown accept any field.
      await new SupportDeskClient(options).organizations.search({ query: { filter: { eq: { anything: 1 } } } });
    });
  });

  test('downloads stream; writes and sources are typed', () => {
    void (async () => {
      const file = await new FileStorageClient(options).files.download({ fileId: 'f', alt: 'media', range_header: 'bytes=0-99' });
      expectTypeOf(file).toEqualTypeOf<DownloadResponse>();
      for await (const chunk of file.body) expectTypeOf(chunk).toEqualTypeOf<Uint8Array>();
      await new IssueTrackingClient(options).createSource({ workspace_id: 'w', source_template_id: 'issue_tracking', name: 'Linear', auth_config: { api_key: 'k' } });
      // The advertising configuration variable region_url goes in auth_config; it has a default, so it may be left out.
      const ads = new AdvertisingClient(options);
      await ads.createSource({ source_template_id: 'advertising', auth_config: { client_id: 'c', client_secret: 's', refresh_token: 'r', region_url: 'https://advertising-api-eu.example.com' } });
      await ads.createSource({ source_template_id: 'advertising', auth_config: { client_id: 'c', client_secret: 's', refresh_token: 'r' } });
      // A created issue carries its id in data (an assumption of the spec), typed.
      const issue = await new IssueTrackingClient(options).issues.create({ teamId: 't', title: 'x' });
      expectTypeOf(issue.data.id).toEqualTypeOf<string>();
      await new WorkManagementClient(options).workspaceTaskSearch.list({ workspace_gid: 'w', 'assignee.any': 'me' });
      const raw = await payments.execute({ entity: 'customers', action: 'list', params: { limit: 1 } });
      expectTypeOf(raw.records).toEqualTypeOf<unknown>();
    });
  });
});
