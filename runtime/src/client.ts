/**
 * The client generated SDKs extend. It turns descriptors (which entity, which action, how it pages) into
 * execute calls; every fact about the service (paths, envelope keys, search paging) arrives as a
 * {@link ServiceDescriptor}, and nothing here knows any connector.
 */

import { ApiError, isRecord } from './errors.js';
import type { ClientOptions, PageOptions, RequestOptions } from './options.js';
import {
  PagePromise,
  type LoadedPage,
  type PageLoader,
  type PageView,
  type PaginationDescriptor,
} from './pagination.js';
import { checkParams, type ParamSchema } from './params.js';
import { APIPromise } from './promise.js';
import { createTransport, type Exchange, type Transport } from './transport.js';
import { ParamValidationError } from './validation.js';

/** Service facts from the spec (describe's `service`): the runtime takes them as data, never as constants. */
export interface ServiceDescriptor {
  /** Execute path with a `{source_id}` placeholder, e.g. "/api/v1/connectors/sources/{source_id}/execute". */
  executePath: string;
  /** Source creation path, e.g. "/api/v1/integrations/sources". */
  sourcesPath: string;
  /** Response keys carrying the records and the meta, e.g. "result" and "connector_metadata". */
  envelope: { records: string; meta: string };
  /** The uniform search's paging (catalogue `service.search.pagination`). */
  search: PaginationDescriptor;
  /** Actions of the vocabulary that read: only these are retried. Any other action counts as a write (a retried create could create twice). */
  reads: readonly string[];
  /** Response header carrying the service's request id (errors and `withResponse()` report it), e.g. "x-request-id". */
  requestIdHeader?: string;
}

/** One call of the execute endpoint, as generated code describes it. */
export interface CallDescriptor {
  entity: string;
  action: string;
  /** The params' schema from the spec (absent where the contract does not show params). */
  params?: ParamSchema;
}

/** A client of any connector (the auth_config type does not matter to what calls it). */
export type AnyClient = ConnectorClient<any>;

/** One method of a generated resource, as data: what it sends and how its result is read. */
export interface MethodDescriptor extends Partial<CallDescriptor> {
  /**
   * single: the envelope's records value (get, create, update, delete); list: pages of records (list, api_search);
   * hits: pages of the uniform search; a function: a call of its own (downloads: `callDownload`). Absent: list
   * when `paging` is given, else single.
   */
  result?:
    | 'single'
    | 'list'
    | 'hits'
    | ((client: AnyClient, call: CallDescriptor, params?: object, options?: RequestOptions) => APIPromise<unknown>);
  /** list: how it pages (absent: one page). */
  paging?: PaginationDescriptor;
}

/**
 * The entities of a client as data: property name → method name → descriptor. Where a descriptor gives no
 * entity or action, the names are the snake_case forms of the property and method names (`paymentIntents` →
 * `payment_intents`, `apiSearch` → `api_search`).
 */
export type ResourceTable = Record<string, Record<string, MethodDescriptor>>;

/** `apiSearch` → `api_search`. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A page of a list-shaped result: the envelope's records and meta (`Page<Customer>` when the meta does not matter). */
export interface Page<T, M = unknown> {
  /** The page's records. */
  records: T[];
  /** The page's meta: paging keys (has_more, next cursor, …) as the connector's list returns them. */
  meta: M;
}

/** Result of the untyped {@link ConnectorClient.execute}. */
export interface ExecuteResponse {
  records: unknown;
  meta: unknown;
  status: number;
  headers: Record<string, string>;
}

/** Body of source creation; which fields are required is not specified by the contract. */
export interface CreateSourceBody<A = Record<string, unknown>> {
  workspace_id?: string;
  source_template_id?: string;
  auth_config?: A;
  name?: string;
}

/** A created source: its id plus whatever else the service returns. */
export interface Source {
  id: string;
  [key: string]: unknown;
}

/**
 * Calls the Connector Execution Service; generated clients subclass it and add typed entity methods. `A` is the
 * connector's auth_config type, which `createSource` takes.
 */
export class ConnectorClient<A extends object = Record<string, unknown>> {
  readonly #options: ClientOptions;
  readonly #service: ServiceDescriptor;
  readonly #transport: Transport;
  /** The execute path of this client's source, expanded once; undefined without a source. */
  readonly #executePath: string | undefined;

  /**
   * Checks the options at once: a token given as text is not empty, a given source id, and validators for
   * validateResponses. `connector` names the connector in log lines; each entry of `resources` becomes a property
   * holding that entity's methods.
   */
  constructor(options: ClientOptions, service: ServiceDescriptor, connector?: string, resources: ResourceTable = {}) {
    const { sourceId, token } = options;
    // An empty token (an unset environment variable) would only fail at the first call, as a 401.
    if (token === '') throw new TypeError('empty token');
    // "." and ".." would be path segments of their own.
    if (sourceId === '' || sourceId === '.' || sourceId === '..')
      throw new TypeError(`invalid sourceId ${JSON.stringify(sourceId)}: not empty, "." or ".."`);
    // The validators are opt-in so that clients which never check responses do not bundle them.
    if (!options.responseValidators && (options.validateResponses ?? 'off') !== 'off') {
      throw new TypeError("validateResponses needs the responseValidators of '<package>/validators'");
    }
    this.#options = options;
    this.#service = service;
    // Never empty (checked above).
    this.#executePath = sourceId && service.executePath.replace('{source_id}', encodeURIComponent(sourceId));
    this.#transport = createTransport(options, service.requestIdHeader, connector);
    for (const name in resources)
      (this as Record<string, unknown>)[name] = this.resource(snakeCase(name), resources[name]!);
  }

  /**
   * Untyped escape hatch: any entity/action/params; returns the envelope's records and meta as sent.
   * Retried like typed calls: the service's read actions may be; any other action never. Expects a JSON response (use typed download methods for bytes).
   */
  execute(
    request: { entity: string; action: string; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): APIPromise<ExecuteResponse> {
    return this.#call(this.#send(request, request.params, options), (records, meta, { status, headers }) => ({
      records,
      meta,
      status,
      headers,
    }));
  }

  /**
   * Creates a source: POSTs the body to the sources path; returns the envelope's records value (assumed { id, ... }).
   * Never retried. `auth_config` is typed by the connector's authentication.
   * @example
   * const source = await client.createSource({ workspace_id: '<workspace>', source_template_id: '<connector id>', name: 'My source', auth_config: {} });
   */
  createSource(body: CreateSourceBody<A>, options?: RequestOptions): APIPromise<Source> {
    return this.#call(
      this.#transport.send(this.#service.sourcesPath, body, false, options),
      (records) => records as Source,
    );
  }

  /**
   * The methods of one entity, from data: each method name maps to what it sends and how its result is read.
   * Generated clients describe every entity this way (through the constructor's `resources`); the runtime supplies
   * the behaviour.
   */
  protected resource<R>(entity: string, methods: Record<string, MethodDescriptor>): R {
    const resource: Record<string, (params?: object, options?: PageOptions) => unknown> = {};
    for (const name in methods) {
      const method = methods[name]!;
      const call: CallDescriptor = { entity, action: snakeCase(name), ...method };
      const { result = method.paging ? 'list' : 'single' } = method;
      const hits = result === 'hits';
      resource[name] =
        typeof result === 'function'
          ? (params, options) => result(this, call, params, options)
          : result === 'single'
            ? (params, options) => this.callSingle(call, params, options)
            : (params, options) =>
                this.#pages(call, params, options, hits ? this.#service.search : method.paging, hits);
    }
    return resource as R;
  }

  /** A single-record call (get, create, update, delete): the envelope's records value. */
  protected callSingle<T>(call: CallDescriptor, params: object | undefined, options?: RequestOptions): APIPromise<T> {
    return this.#call(this.request(call, params, options), (records) => {
      this.#checkRecords(call, [records], false);
      return records as T;
    });
  }

  /**
   * The exchange with its data: `read` gets the envelope's records and meta (both undefined for an empty body).
   * The exchange is the call's own object: it becomes the result (no copy: this runs on every call).
   */
  #read<T>(
    exchange: Exchange,
    read: (records: unknown, meta: unknown, exchange: Exchange) => T,
  ): Exchange & { data: T } {
    const { json } = exchange;
    const { envelope } = this.#service;
    // Set in place (Object.assign with a literal costs every call more).
    (exchange as Exchange & { data: T }).data = read(json?.[envelope.records], json?.[envelope.meta], exchange);
    return exchange as Exchange & { data: T };
  }

  /** The promise of a call: `read` turns its envelope into the data; the exchange gives `withResponse()` its facts. */
  #call<T>(
    exchange: Promise<Exchange>,
    read: (records: unknown, meta: unknown, exchange: Exchange) => T,
  ): APIPromise<T> {
    return new APIPromise(exchange.then((done) => this.#read(done, read)));
  }

  /**
   * A paged call: pages walked per `pagination` (none: one page), the first requested at once. Lists read an
   * array of records and the meta; the uniform search (`hits`) reads the hit object ({ hits, next_cursor,
   * took_ms }) in the records key, which is both the page and the meta paging reads.
   */
  #pages(
    call: CallDescriptor,
    params: object | undefined,
    options: PageOptions | undefined,
    pagination: PaginationDescriptor | undefined,
    hits: boolean,
  ): PagePromise<unknown, unknown> {
    // Only the caller's params are checked: later pages differ only in the paging value the server handed out.
    const invalid = this.#paramProblem(call, params);
    // Not async (each async layer costs every call its ticks): failures are returned as rejections.
    const load: PageLoader<unknown, unknown> = (pageParams) =>
      invalid
        ? Promise.reject(invalid)
        : this.#send(call, pageParams, options).then(
            (exchange) =>
              this.#read(exchange, (records, meta) => {
                const items = hits ? isRecord(records) && records['hits'] : records;
                // Not what the contract describes: an error, not retried (the server did answer).
                const { status, headers, requestId } = exchange;
                if (!Array.isArray(items))
                  throw new ApiError(
                    `${status} response: expected an array of records in '${this.#service.envelope.records}${hits ? '.hits' : ''}'`,
                    { status, headers, requestId },
                  );
                if (!hits) this.#checkRecords(call, items, true);
                // The uniform search's hit object is both the page and the meta paging reads.
                (exchange as Exchange & PageView).items = items;
                (exchange as Exchange & PageView).meta = hits ? records : meta;
                return hits ? records : { records, meta };
              }) as unknown as LoadedPage<unknown, unknown>,
          );
    return new PagePromise(
      load,
      params as Record<string, unknown> | undefined,
      pagination,
      options,
      this.#options.maxPages ?? 10_000,
    );
  }

  /**
   * Sends one execute call described as data and returns the exchange: status, headers (credentials removed),
   * the parsed JSON body — or, with `stream`, the unread response (downloads). Params are checked first unless
   * `validateParams` is off. Generated methods build on it; so can calls the typed methods do not cover.
   */
  request(call: CallDescriptor, params?: object, options?: RequestOptions, stream?: boolean): Promise<Exchange> {
    const problem = this.#paramProblem(call, params);
    return problem ? Promise.reject(problem) : this.#send(call, params, options, stream);
  }

  /** POSTs `{ entity, action, params }` to the execute path of this client's source. */
  #send(
    { entity, action }: { entity: string; action: string },
    params: object | undefined,
    options: RequestOptions | undefined,
    stream?: boolean,
  ): Promise<Exchange> {
    const path = this.#executePath;
    // Not async (each async layer costs every call its ticks): failures are returned as rejections.
    return path
      ? this.#transport.send(
          path,
          { entity, action, params },
          this.#service.reads.includes(action),
          options,
          stream,
          entity,
          action,
        )
      : Promise.reject(new TypeError('sourceId is required (only createSource works without it)'));
  }

  /** The error invalid params would throw (undefined when valid, or when checking is off or not possible). */
  #paramProblem(call: CallDescriptor, params: object | undefined): ParamValidationError | undefined {
    const problems =
      this.#options.validateParams !== false && call.params ? checkParams(call.params, params ?? {}) : [];
    return problems[0] && new ParamValidationError(call.entity, call.action, problems);
  }

  /** validateResponses: the responseValidators check each record and warn or throw as the option says. */
  #checkRecords(call: CallDescriptor, records: unknown[], indexed: boolean): void {
    this.#options.responseValidators?.check(
      call.entity,
      call.action,
      records,
      indexed,
      this.#options.validateResponses,
      this.#transport.log,
    );
  }
}
