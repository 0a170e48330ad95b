/**
 * The local mock of the Connector Execution Service: a real HTTP server serving both endpoints of the spec from
 * fixtures held in memory, one line logged per request. Every answer follows the spec's envelope or error body;
 * no input makes it answer 500 (any such answer is a bug: the fuzz test hunts for them).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import { authConfigFields, FORMAT_PATTERNS, type ActionIR, type ConnectorIR, type SpecIR, type ValueFormat } from '../generator/ir.js';
import { FORMAT_TEXT } from '../generator/emitters/rules-text.js';
import { objectSchema, paramsSchema } from '../generator/emitters/validators/json-schema.js';
import { describeIssues, nestedDeeperThan } from '../runtime/src/validation.js';
import { runAction, type ActionResult } from './actions.js';
import { badRequest, HttpError, invalidParams, type FieldProblem } from './errors.js';
import { checkParamGroups } from './rules.js';
import { BaseData, SourceData } from './store.js';
import { DEFAULT_MAX_SOURCES, MAX_RECORDS } from './limits.js';

export { DEFAULT_MAX_SOURCES, MAX_RECORDS } from './limits.js';

/** How to start the mock. */
export interface MockOptions {
  /** The spec, as IR. */
  ir: SpecIR;
  /** Port; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** When set, the only bearer token accepted; otherwise any non-empty token. */
  token?: string;
  /** Fixture seed; default 1. */
  seed?: number;
  /** Records per listable entity (default: three pages and two); at most MAX_RECORDS. */
  records?: number;
  /** Sources that may be created through the sources endpoint (default DEFAULT_MAX_SOURCES); more answer 429. */
  maxSources?: number;
  /** Record fields the mock may keep built in memory to answer faster (default 8,000,000). */
  cacheFields?: number;
  /** Receives one line per request; default none. */
  log?: (line: string) => void;
  /** Receives debug lines (e.g. a client that went away mid-request); default none. */
  debug?: (line: string) => void;
}

/** A running mock. */
export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010. */
  url: string;
  /** Port it listens on. */
  port: number;
  /** Sources ready at start: one per connector, id = connector id. */
  sources: { id: string; connector: string }[];
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

const MAX_BODY = 1024 * 1024;

function pathPattern(template: string): RegExp {
  const escaped = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('\\{source_id\\}', '([^/]+)');
  return new RegExp(`^${escaped}$`);
}

/** Value formats by their pattern: a param that breaks one is told the format in words, not the regular expression. */
const FORMAT_BY_PATTERN = new Map(Object.entries(FORMAT_PATTERNS).map(([format, pattern]) => [pattern, format as ValueFormat]));

function problemsOf(validate: ValidateFunction): FieldProblem[] {
  const codes: Record<string, string> = { required: 'required', additionalProperties: 'unknown_param', type: 'invalid_type', enum: 'invalid_enum', const: 'invalid_value' };
  return describeIssues((validate.errors ?? []) as never, 'param').map((p, i) => {
    const error = validate.errors![i]!;
    const format = error.keyword === 'pattern' ? FORMAT_BY_PATTERN.get(String(error.params['pattern'])) : undefined;
    const message = format ? `param '${p.path}' must be ${FORMAT_TEXT[format].replace(/`/g, '')}, got ${JSON.stringify(p.value)}` : p.message;
    return { field: `params.${p.path}`.replace(/\.$/, ''), message, error_code: codes[error.keyword] ?? error.keyword };
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    // The rest of the body is never read: the connection closes after the answer, so no later request on it waits.
    if (size > MAX_BODY) throw new HttpError(413, `request body over ${MAX_BODY} bytes`, [{ field: 'body', message: `over ${MAX_BODY} bytes`, error_code: 'body_too_large' }], { connection: 'close' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * How deep a request body may nest: far beyond any the contract's params need (a CRM filter group is five levels), and
 * far below what answering it needs (records echo params; JSON.stringify of a 5,000-deep value overflows the stack).
 */
const MAX_DEPTH = 64;

function parseJsonObject(text: string, what: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badRequest(`malformed JSON in the ${what}: ${(error as Error).message}`, [{ field: 'body', message: 'not valid JSON', error_code: 'malformed_json' }]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest(`the ${what} must be a JSON object`, [{ field: 'body', message: 'not an object', error_code: 'malformed_body' }]);
  if (nestedDeeperThan(value, MAX_DEPTH)) {
    throw badRequest(`the ${what} nests arrays and objects deeper than ${MAX_DEPTH} levels`, [{ field: 'body', message: `nested deeper than ${MAX_DEPTH} levels`, error_code: 'too_deep' }]);
  }
  return value as Record<string, unknown>;
}

/** Starts the mock; resolves once it listens. */
export async function startMock(options: MockOptions): Promise<MockServer> {
  const { ir } = options;
  if (options.records !== undefined && (!Number.isInteger(options.records) || options.records < 1 || options.records > MAX_RECORDS)) {
    throw new RangeError(`records must be an integer from 1 to ${MAX_RECORDS} (records per entity), got ${options.records}`);
  }
  const maxSources = options.maxSources ?? DEFAULT_MAX_SOURCES;
  const base = new BaseData(ir, { seed: options.seed ?? 1, ...(options.records ? { records: options.records } : {}), ...(options.cacheFields !== undefined ? { cacheFields: options.cacheFields } : {}) });
  const connectors = new Map(ir.connectors.map((c) => [c.id, c]));
  const sources = new Map<string, SourceData>();
  for (const c of ir.connectors) sources.set(c.id, new SourceData(c.id, c, base));
  const executePattern = pathPattern(ir.service.execute.path);
  const sourcesPath = ir.service.createSource.path;
  const { records: recordsKey, meta: metaKey } = ir.service.envelope;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
  const validators = new Map<string, ValidateFunction>();
  const searchSchema = { type: 'object', ...objectSchema(ir.service.search.params, 'param', false) };
  let created = 0;

  const validatorFor = (connector: ConnectorIR, entity: string, action: ActionIR): ValidateFunction => {
    const key = `${connector.id}/${entity}/${action.name}`;
    let v = validators.get(key);
    if (!v) validators.set(key, (v = ajv.compile(action.name === 'search' ? searchSchema : paramsSchema(action))));
    return v;
  };

  const authenticate = (req: IncomingMessage) => {
    const header = req.headers.authorization ?? '';
    // The scheme name is case-insensitive (RFC 9110 §11.1): `bearer x` is a bearer token too.
    const match = /^Bearer +(\S.*)$/i.exec(header);
    if (!match) throw new HttpError(401, 'missing bearer token: send Authorization: Bearer <token>', [{ field: 'headers.authorization', message: 'missing or not a Bearer token', error_code: 'missing_token' }]);
    if (options.token !== undefined && match[1] !== options.token) throw new HttpError(401, 'invalid bearer token', [{ field: 'headers.authorization', message: 'not the token this mock accepts', error_code: 'invalid_token' }]);
  };

  const execute = (req: IncomingMessage, sourceId: string, body: Record<string, unknown>, url: string): { result: ActionResult; entity: string; action: string } => {
    const source = sources.get(sourceId);
    if (!source) throw new HttpError(404, `unknown source ${JSON.stringify(sourceId)}`, [{ field: 'path.source_id', message: 'names no source of this service', error_code: 'unknown_source' }]);
    const { entity: entityName, action: actionName, params = {} } = body;
    const bodyProblems: FieldProblem[] = [];
    if (typeof entityName !== 'string') bodyProblems.push({ field: 'entity', message: 'required string', error_code: 'required' });
    if (typeof actionName !== 'string') bodyProblems.push({ field: 'action', message: 'required string', error_code: 'required' });
    if (typeof params !== 'object' || params === null || Array.isArray(params)) bodyProblems.push({ field: 'params', message: 'must be an object', error_code: 'invalid_type' });
    for (const key of Object.keys(body)) if (!['entity', 'action', 'params'].includes(key)) bodyProblems.push({ field: key, message: 'unknown body field', error_code: 'unknown_field' });
    if (bodyProblems.length) throw badRequest(`malformed execute body: ${bodyProblems.map((p) => `${p.field} ${p.message}`).join('; ')}`, bodyProblems);
    const found = source.entity(entityName as string);
    if (!found) {
      const valid = source.connector.entities.map((e) => e.name).join(', ');
      throw badRequest(`unknown entity ${JSON.stringify(entityName)} for ${source.connector.id}; valid entities: ${valid}`, [{ field: 'entity', message: `valid entities: ${valid}`, error_code: 'unknown_entity' }]);
    }
    const { entity, store } = found;
    const action = entity.actions.find((a) => a.name === actionName);
    if (!action) {
      const valid = entity.actions.map((a) => a.name).join(', ');
      throw badRequest(`unknown action ${JSON.stringify(actionName)} for ${entity.name}; valid actions: ${valid}`, [{ field: 'action', message: `valid actions: ${valid}`, error_code: 'unknown_action' }]);
    }
    const validate = validatorFor(source.connector, entity.name, action);
    if (!validate(params)) {
      const problems = problemsOf(validate);
      throw invalidParams(`invalid params for ${entity.name} ${action.name}: ${problems.map((p) => p.message).join('; ')}`, problems);
    }
    checkParamGroups(action, entity.name, params as Record<string, unknown>);
    const rangeHeader = req.headers.range;
    const result = runAction({ source, entity, store, action, url, ...(rangeHeader ? { rangeHeader } : {}) }, params as Record<string, unknown>);
    return { result, entity: entity.name, action: action.name };
  };

  const createSource = (body: Record<string, unknown>): Record<string, unknown> => {
    const problems: FieldProblem[] = [];
    const template = body['source_template_id'];
    const connector = typeof template === 'string' ? connectors.get(template) : undefined;
    if (!connector) problems.push({ field: 'source_template_id', message: `must be one of ${[...connectors.keys()].join(', ')}`, error_code: 'unknown_template' });
    for (const field of ['workspace_id', 'name']) if (body[field] !== undefined && typeof body[field] !== 'string') problems.push({ field, message: 'must be a string', error_code: 'invalid_type' });
    for (const key of Object.keys(body)) if (!['workspace_id', 'source_template_id', 'auth_config', 'name'].includes(key)) problems.push({ field: key, message: 'unknown field', error_code: 'unknown_field' });
    // Absent is no credentials; null is no object (a 422 like any other non-object).
    const auth = body['auth_config'] === undefined ? {} : body['auth_config'];
    if (typeof auth !== 'object' || auth === null || Array.isArray(auth)) problems.push({ field: 'auth_config', message: 'must be an object', error_code: 'invalid_type' });
    else if (connector) problems.push(...authConfigProblems(connector, auth as Record<string, unknown>));
    if (problems.length) throw invalidParams(`invalid source: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, problems);
    if (created >= maxSources) {
      throw new HttpError(429, `source limit reached: this mock holds at most ${maxSources} created sources (start it with --max-sources N for more, or restart it)`, [{ field: 'body', message: `at most ${maxSources} created sources`, error_code: 'source_limit' }]);
    }
    const id = `${connector!.id}-${++created}`;
    sources.set(id, new SourceData(id, connector!, base));
    return { id, source_template_id: connector!.id, ...(body['workspace_id'] !== undefined ? { workspace_id: body['workspace_id'] } : {}), ...(body['name'] !== undefined ? { name: body['name'] } : {}) };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<{ status: number; note: string }> => {
    const path = (req.url ?? '/').split('?')[0]!;
    const match = executePattern.exec(path);
    if (!match && path !== sourcesPath) throw new HttpError(404, `no route ${req.method} ${path}`, [{ field: 'path', message: `the service answers POST ${sourcesPath} and POST /api/v1/connectors/sources/{source_id}/execute`, error_code: 'unknown_route' }]);
    if (req.method !== 'POST') throw new HttpError(405, `use POST for ${path}`, [{ field: 'method', message: `${req.method} is not allowed; use POST`, error_code: 'method_not_allowed' }]);
    authenticate(req);
    const text = await readBody(req);
    if (match) {
      let sourceId: string;
      try {
        sourceId = decodeURIComponent(match[1]!);
      } catch {
        throw badRequest('malformed source id in the path');
      }
      const url = `http://${req.headers.host ?? 'localhost'}${path}`;
      const { result, entity, action } = execute(req, sourceId, parseJsonObject(text, 'execute body'), url);
      if (result.kind === 'bytes') {
        res.writeHead(result.status, { ...result.headers, 'content-length': String(result.body.length) });
        res.end(result.body);
      } else send(res, result.status, { [recordsKey]: result.records, ...(result.meta !== undefined ? { [metaKey]: result.meta } : {}) });
      return { status: result.status, note: `${sourceId} ${entity} ${action}` };
    }
    const source = createSource(parseJsonObject(text, 'source body'));
    send(res, 201, { [recordsKey]: source });
    return { status: 201, note: `created source ${source['id']}` };
  };

  // Every response names its request (the spec's request-id assumption), as the service's would.
  const requestIdHeader = ir.service.requestIdHeader;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    const started = performance.now();
    if (requestIdHeader) res.setHeader(requestIdHeader, `req_mock_${++requests}`);
    const line = (status: number | string, note: string) => `${req.method} ${(req.url ?? '').split('?')[0]} ${status} ${(performance.now() - started).toFixed(1)}ms ${note}`;
    handle(req, res)
      .then(({ status, note }) => options.log?.(line(status, note)))
      .catch((error: unknown) => {
        // A client that goes away mid-request is not the mock's failure: nothing to answer, a debug line.
        if (isClientAbort(error) || res.destroyed || !res.socket || res.socket.destroyed) {
          options.debug?.(line('-', `client closed the connection before the exchange finished (${(error as Error).message ?? String(error)})`));
          return;
        }
        const e = error instanceof HttpError ? error : new HttpError(500, 'internal error of the mock');
        if (!(error instanceof HttpError)) options.log?.(`internal error: ${(error as Error).stack ?? String(error)}`);
        send(res, e.status, e.body(), e.headers);
        options.log?.(line(e.status, e.message));
      });
  });
  server.on('clientError', (error, socket) => {
    if (isClientAbort(error) || !socket.writable) options.debug?.(`client error: ${error.message}`);
    else socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    sources: ir.connectors.map((c) => ({ id: c.id, connector: c.id })),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Errors of a connection the client closed (reset, aborted body, closed socket). */
function isClientAbort(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error | undefined)?.message === 'aborted';
}

/** The auth_config problems of a source: its fields and the variables supplied there (typed strings, required ones present, formats). */
function authConfigProblems(connector: ConnectorIR, auth: Record<string, unknown>): FieldProblem[] {
  const members = authConfigFields(connector.auth);
  if (members.length === 0) return []; // the contract does not show the connector's auth_config
  const problems: FieldProblem[] = [];
  for (const m of members) {
    const value = auth[m.name];
    // A variable with a default is not required: the service uses the default.
    if (value === undefined) {
      if (m.required) problems.push({ field: `auth_config.${m.name}`, message: 'required', error_code: 'required' });
    } else if (typeof value !== 'string') problems.push({ field: `auth_config.${m.name}`, message: 'must be a string', error_code: 'invalid_type' });
    else if (m.format === 'url' && !isHttpUrl(value)) problems.push({ field: `auth_config.${m.name}`, message: `must be an absolute http(s) URL, got ${JSON.stringify(value)}`, error_code: 'invalid_format' });
  }
  const known = new Set(members.map((f) => f.name));
  for (const key of Object.keys(auth)) if (!known.has(key)) problems.push({ field: `auth_config.${key}`, message: `unknown auth_config field of ${connector.id} (known: ${[...known].sort().join(', ')})`, error_code: 'unknown_field' });
  return problems;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) return void res.end();
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}
