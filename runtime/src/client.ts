/**
 * The client generated SDKs extend. It turns descriptors (which entity, which action, how it pages) into
 * execute calls; every fact about the service (paths, envelope keys, search paging) arrives as a
 * {@link ServiceDescriptor}, and nothing here knows any connector.
 */

import { toDownloadResponse, type DownloadResponse } from './download.js';
import { ApiError, isRecord } from './errors.js';
import type { ClientOptions, PageOptions, RequestOptions } from './options.js';
import { PagePromise, type LoadedPage, type PaginationDescriptor } from './pagination.js';
import { Transport, type Exchange } from './transport.js';
import { describeIssues, ParamValidationError, ResponseValidationError, type ResponseValidation, type Validator } from './validation.js';

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
}

/** One call of the execute endpoint, as generated code describes it. */
export interface CallDescriptor {
  entity: string;
  action: string;
  /** Reads may be retried; writes never are. */
  kind: 'read' | 'write';
  /** The params validator compiled from the spec (absent where the contract does not show params). */
  validateParams?: Validator;
  /** The record validator compiled from the spec, for validateResponses. */
  validateRecord?: Validator;
}

/** A page of a list-shaped result: the envelope's records and meta. */
export interface Page<T, M> {
  records: T[];
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
 * Read actions of the contract's action vocabulary (seed 000, item 5): only these are retried by the untyped
 * {@link ConnectorClient.execute}. Any other action name counts as a write, the safe default.
 */
const READ_ACTIONS: ReadonlySet<string> = new Set(['list', 'get', 'api_search', 'search', 'download']);

/** Calls the Connector Execution Service; generated clients subclass it and add typed entity methods. */
export class ConnectorClient {
  readonly #transport: Transport;
  readonly #service: ServiceDescriptor;
  readonly #sourceId: string | undefined;
  readonly #validateParams: boolean;
  readonly #validateResponses: ResponseValidation;
  readonly #warn: (line: string) => void;

  /** Validates a given source id at once; a client without one can only create sources. */
  constructor(options: ClientOptions, service: ServiceDescriptor) {
    if (options.sourceId !== undefined) checkSourceId(options.sourceId);
    this.#transport = new Transport(options);
    this.#service = service;
    this.#sourceId = options.sourceId;
    this.#validateParams = options.validateParams ?? true;
    this.#validateResponses = options.validateResponses ?? 'off';
    this.#warn = options.logger ? (line) => options.logger!.warn(line) : (line) => console.warn(line);
  }

  /**
   * Untyped escape hatch: any entity/action/params; returns the envelope's records and meta as sent.
   * Read actions retry like typed ones; write actions never. Expects a JSON response (use typed download methods for bytes).
   */
  async execute(request: { entity: string; action: string; params?: Record<string, unknown> }, options?: RequestOptions): Promise<ExecuteResponse> {
    const kind = READ_ACTIONS.has(request.action) ? 'read' : 'write';
    const exchange = await this.#execute({ entity: request.entity, action: request.action, kind }, request.params, options);
    return { ...this.#unwrap(exchange), status: exchange.status, headers: exchange.headers };
  }

  /** POSTs the body to the sources path; returns the envelope's records value (assumed { id, ... }). Never retried. */
  async createSource(body: CreateSourceBody, options?: RequestOptions): Promise<Source> {
    const exchange = await this.#transport.send({ path: this.#service.sourcesPath, body, accept: 'application/json', retryable: false, stream: false, options });
    return this.#unwrap(exchange).records as Source;
  }

  /** A single-record call (get, create, update, delete): the envelope's records value. */
  protected async callSingle<T>(call: CallDescriptor, params: object | undefined, options?: RequestOptions): Promise<T> {
    this.#checkParams(call, params);
    const { records } = this.#unwrap(await this.#execute(call, params, options));
    this.#checkRecords(call, [records], false);
    return records as T;
  }

  /** A list-shaped call (list, api_search): lazily fetched pages walked per `pagination` (null: one page). */
  protected callList<T, M>(call: CallDescriptor, params: object | undefined, pagination: PaginationDescriptor | null, options?: PageOptions): PagePromise<T, Page<T, M>> {
    // Only the caller's params are checked: later pages differ only in the paging value the server handed out.
    const invalid = this.#paramProblem(call, params);
    const load = async (pageParams: Record<string, unknown> | undefined): Promise<LoadedPage<T, Page<T, M>>> => {
      if (invalid) throw invalid;
      const { records, meta } = this.#unwrap(await this.#execute(call, pageParams, options));
      if (!Array.isArray(records)) throw this.#shapeError(call, `expected an array of records in '${this.#service.envelope.records}'`);
      this.#checkRecords(call, records, true);
      return { page: { records: records as T[], meta: meta as M }, items: records as T[], meta };
    };
    return new PagePromise(load, params as Record<string, unknown> | undefined, pagination, limitsOf(options));
  }

  /**
   * The uniform search: pages per `service.search`. The envelope's records value is the hit object
   * ({ hits, next_cursor, took_ms }); it is both the page and the meta paging reads; the items are its hits.
   */
  protected callSearch<H, R extends { hits: H[] }>(call: CallDescriptor, params: object, options?: PageOptions): PagePromise<H, R> {
    const invalid = this.#paramProblem(call, params);
    const load = async (pageParams: Record<string, unknown> | undefined): Promise<LoadedPage<H, R>> => {
      if (invalid) throw invalid;
      const { records } = this.#unwrap(await this.#execute(call, pageParams, options));
      if (!isRecord(records) || !Array.isArray(records['hits'])) {
        throw this.#shapeError(call, `expected a search result with a hits array in '${this.#service.envelope.records}'`);
      }
      return { page: records as unknown as R, items: records['hits'] as H[], meta: records };
    };
    return new PagePromise(load, params as Record<string, unknown>, this.#service.search, limitsOf(options));
  }

  /** A download: the response bytes, streamed, never parsed. */
  protected async callDownload(call: CallDescriptor, params: object | undefined, options?: RequestOptions): Promise<DownloadResponse> {
    this.#checkParams(call, params);
    const exchange = await this.#execute(call, params, options, true);
    return toDownloadResponse(exchange.response, exchange.headers);
  }

  /** POSTs `{ entity, action, params }` to the execute path of this client's source. */
  #execute(call: CallDescriptor, params: object | undefined, options: RequestOptions | undefined, stream = false): Promise<Exchange> {
    if (this.#sourceId === undefined) throw new TypeError('ConnectorClient: sourceId is required for execute calls (only createSource works without it)');
    const path = this.#service.executePath.replace('{source_id}', encodeURIComponent(this.#sourceId));
    const body = params === undefined ? { entity: call.entity, action: call.action } : { entity: call.entity, action: call.action, params };
    return this.#transport.send({
      path,
      body,
      accept: stream ? '*/*' : 'application/json',
      retryable: call.kind === 'read',
      stream,
      entity: call.entity,
      action: call.action,
      options,
    });
  }

  /** The error invalid params would throw (undefined when valid, or when validation is off or not possible). */
  #paramProblem(call: CallDescriptor, params: object | undefined): ParamValidationError | undefined {
    const validate = call.validateParams;
    if (!this.#validateParams || !validate || validate(params ?? {})) return undefined;
    return new ParamValidationError(call.entity, call.action, describeIssues(validate.errors ?? [], 'param', params ?? {}));
  }

  #checkParams(call: CallDescriptor, params: object | undefined): void {
    const problem = this.#paramProblem(call, params);
    if (problem) throw problem;
  }

  /** validateResponses: checks each record; warns or throws per the client option. */
  #checkRecords(call: CallDescriptor, records: unknown[], indexed: boolean): void {
    const validate = call.validateRecord;
    if (this.#validateResponses === 'off' || !validate) return;
    const problems = records.flatMap((record, i) =>
      validate(record) ? [] : describeIssues(validate.errors ?? [], 'field', record).map((p) => (indexed ? { ...p, path: `[${i}]${p.path ? `.${p.path}` : ''}`, message: `record ${i}: ${p.message}` } : p)),
    );
    if (problems.length === 0) return;
    const error = new ResponseValidationError(call.entity, call.action, problems);
    if (this.#validateResponses === 'strict') throw error;
    this.#warn(error.message);
  }

  /** The envelope's records and meta (both undefined for an empty body). */
  #unwrap(exchange: Exchange): { records: unknown; meta: unknown } {
    const { json } = exchange;
    if (json === undefined) return { records: undefined, meta: undefined };
    if (!isRecord(json)) throw new ApiError(`${exchange.status} expected a JSON object response`, { status: exchange.status, headers: exchange.headers });
    return { records: json[this.#service.envelope.records], meta: json[this.#service.envelope.meta] };
  }

  /** A 2xx response whose shape the call cannot use. */
  #shapeError(call: CallDescriptor, message: string): ApiError {
    return new ApiError(`${message} (${call.entity} ${call.action})`, { entity: call.entity, action: call.action });
  }
}

/** Rejects source ids that are empty or would change the path ("." and ".." are path segments of their own). */
function checkSourceId(sourceId: string): void {
  if (sourceId === '' || sourceId === '.' || sourceId === '..') {
    throw new TypeError(`ConnectorClient: invalid sourceId ${JSON.stringify(sourceId)} (it must be a non-empty id other than "." and "..")`);
  }
}

/** The walk limits of page options. */
function limitsOf(options: PageOptions | undefined): { maxItems?: number | undefined; maxPages?: number | undefined } {
  return { maxItems: options?.maxItems, maxPages: options?.maxPages };
}
