/**
 * The client guide: what a user of a generated package reaches for after the quickstart — every client and
 * per-call option (name, type, default, what it does), the error classes with their fields and when each is
 * thrown, raw responses and request ids, retries, timeouts and abort, the safe limits, logging, a custom fetch
 * behind a proxy, and testing against the mock. Options and errors come from the runtime's own JSDoc
 * (runtime-api.ts); examples are complete programs for one connector (the docs test compiles them). Rendered into
 * every package README and into generated/docs/client.md.
 */
import { template, type Render } from '../templates/index.js';
import type { ActionIR, ConnectorIR, EntityIR, SpecIR } from '../../ir.js';
import { clientClassName, methodExample } from '../clients/client-names.js';
import { camelCase, propertyKey } from '../naming.js';
import { clientPreamble, clientVariable } from './examples.js';
import { code, prose, table } from './markdown.js';
import { runtimeApi, type ApiMember } from './runtime-api.js';

/** Where a mock source of a connector comes from: the mock starts one per connector, named by its id. */
export const mockSourceId = (connector: ConnectorIR) => connector.id;

let clientTemplate: Render | undefined;

function render(view: object): string {
  clientTemplate ??= template('partial-client');
  return clientTemplate(view).replace(/\n{3,}/g, '\n\n').trim();
}

/** An options table: option, type, default, what it does. */
function optionsTable(members: ApiMember[]): string {
  return table(
    ['option', 'type', 'default', 'what it does'],
    members.map((m) => [code(m.name), code(m.type), m.default === undefined ? (m.optional ? '—' : 'required') : prose(m.default), prose(m.doc)]),
  );
}

/** The single-record read an example calls: a get with the fewest required params. */
function getAction(connector: ConnectorIR): { entity: EntityIR; action: ActionIR } | undefined {
  const gets = connector.entities.flatMap((entity) => entity.actions.filter((a) => a.result.shape === 'single' && a.kind === 'read').map((action) => ({ entity, action })));
  return gets.sort((a, b) => a.action.params.filter((p) => p.required).length - b.action.params.filter((p) => p.required).length)[0];
}

/** A list call without required params, for the limits example. */
function listAction(connector: ConnectorIR): { entity: EntityIR; action: ActionIR } | undefined {
  for (const entity of connector.entities) {
    const action = entity.actions.find((a) => a.result.shape === 'list' && !a.params.some((p) => p.required));
    if (action) return { entity, action };
  }
  return undefined;
}

/** `const record = await payments.customers.get({ id: '<id>' });` → the call expression alone. */
function callOf(connector: ConnectorIR, found: { entity: EntityIR; action: ActionIR }): string {
  return /await (.+);$/.exec(methodExample(connector, found.entity, found.action))![1]!;
}

/** `const x = new XClient({ baseUrl, token, sourceId` from the environment, then `options` lines, `});`. */
function configuredClient(connector: ConnectorIR, options: string[]): string[] {
  return [
    `const ${clientVariable(connector)} = new ${clientClassName(connector)}({`,
    ...['baseUrl: process.env.CONNECTOR_BASE_URL!,', 'token: process.env.CONNECTOR_TOKEN!,', "sourceId: '<source id>',", ...options].map((line) => `  ${line}`),
    '});',
  ];
}

function examples(connector: ConnectorIR, envelope: SpecIR['service']['envelope']) {
  const client = clientVariable(connector);
  const className = clientClassName(connector);
  const get = getAction(connector);
  const list = listAction(connector);
  const getCall = get ? callOf(connector, get) : `${client}.createSource({ source_template_id: '${connector.id}' })`;
  const listCall = list ? `${client}.${camelCase(list.entity.name)}.${camelCase(list.action.name)}()` : undefined;
  return {
    raw: [
      clientPreamble(connector),
      '',
      `const { data, response, requestId } = await ${getCall}.withResponse();`,
      'console.log(data, response.status, requestId);',
      '',
      '// The response itself, its body readable again (for list calls: the first page).',
      `const raw = await ${getCall}.asResponse();`,
      "console.log(raw.headers.get('content-type'), await raw.text());",
      '',
      '// Calls are real promises.',
      `const fastest = await Promise.race([${getCall}, new Promise((resolve) => setTimeout(resolve, 5_000))]);`,
      'console.log(fastest);',
    ].join('\n'),
    errors: [
      clientPreamble(connector, ['ApiError', 'InvalidRequestError', 'LimitError', 'RateLimitError']),
      '',
      'try {',
      `  console.log(await ${getCall});`,
      '} catch (error) {',
      '  if (error instanceof InvalidRequestError) console.error(error.fieldErrors);',
      '  else if (error instanceof RateLimitError) console.error(`retry in ${error.retryAfterMs ?? 1000} ms`);',
      '  else if (error instanceof LimitError) console.error(`${error.limit} is ${error.max}`);',
      '  else if (error instanceof ApiError) console.error(error.status, error.code, error.requestId, error.message);',
      '  else throw error;',
      '}',
    ].join('\n'),
    abort: [
      clientPreamble(connector),
      '',
      '// At most 5 s per attempt and 3 retries for this call; give up on it after 20 s whatever happens.',
      `const record = await ${withOptions(getCall, '{ timeoutMs: 5_000, maxRetries: 3, signal: AbortSignal.timeout(20_000) }')};`,
      'console.log(record);',
    ].join('\n'),
    limits: listCall
      ? [
          clientPreamble(connector),
          '',
          '// Raise a limit where the data really is that large.',
          `const big = new ${className}({ baseUrl: process.env.CONNECTOR_BASE_URL!, token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>', maxResponseBytes: 128 * 1024 * 1024, maxPages: 100_000 });`,
          `for await (const record of big.${listCall.slice(client.length + 1)}) console.log(record);`,
          '',
          "// A call's own maxPages / maxItems end the walk quietly.",
          `for await (const record of ${withOptions(listCall, '{ maxPages: 3 }')}) console.log(record);`,
        ].join('\n')
      : undefined,
    logging: [
      `import { ${className} } from '${connector.package.name}';`,
      '',
      ...configuredClient(connector, [
        "logLevel: 'info',",
        '// Any object with some of error / warn / info / debug: console (the default), pino, winston, …',
        "logger: { info: (line) => console.log(`[sdk] ${line}`), warn: (line) => console.warn(`[sdk] ${line}`), error: (line) => console.error(`[sdk] ${line}`) },",
      ]),
      `await ${getCall};`,
    ].join('\n'),
    proxy: [
      "import { fetch, ProxyAgent } from 'undici';",
      `import { ${className} } from '${connector.package.name}';`,
      '',
      "// undici's own fetch with a dispatcher: every request goes through the proxy.",
      ...configuredClient(connector, ['fetch,', "fetchOptions: { dispatcher: new ProxyAgent(process.env.HTTPS_PROXY ?? 'http://proxy.internal:8080') },"]),
      `console.log(await ${getCall});`,
    ].join('\n'),
    double: [
      `import { ${className} } from '${connector.package.name}';`,
      '',
      '// A test double: any function that takes (url, init) and answers with a Response.',
      `const ${client} = new ${className}({`,
      "  baseUrl: 'https://api.test',",
      "  token: 'test',",
      "  sourceId: 'src_test',",
      `  fetch: async (url, init) => new Response(JSON.stringify({ ${propertyKey(envelope.records)}: [], ${propertyKey(envelope.meta)}: {} }), { headers: { 'content-type': 'application/json' } }),`,
      '});',
    ].join('\n'),
    mock: [
      `import { ${className} } from '${connector.package.name}';`,
      '',
      `// The mock accepts any token; its ready source for this connector is '${mockSourceId(connector)}'.`,
      `const ${client} = new ${className}({ baseUrl: 'http://127.0.0.1:4010', token: 'test', sourceId: '${mockSourceId(connector)}' });`,
      ...(listCall ? [`for await (const record of ${withOptions(listCall, '{ maxItems: 20 }')}) console.log(record);`] : [`console.log(await ${getCall});`]),
    ].join('\n'),
  };
}

/** A log line as the client writes it for a retried read of this connector. */
function logLineExample(connector: ConnectorIR): string {
  const read = listAction(connector) ?? getAction(connector);
  return `${connector.id} ${read?.entity.name ?? '<entity>'} ${read?.action.name ?? '<action>'} 503 attempt 1/3 212ms request-id req_7f3a; retrying in 480ms`;
}

/** A call with an options argument added: `x.get({ id })` → `x.get({ id }, opts)`; `x.list()` → `x.list(undefined, opts)`. */
function withOptions(call: string, options: string): string {
  return call.endsWith('()') ? `${call.slice(0, -2)}(undefined, ${options})` : `${call.slice(0, -1)}, ${options})`;
}

/** The error classes: class, base, when it is thrown, the fields it declares. */
export function errorClassesTable(): string {
  return runtimeTables().errorClasses;
}

/** The fields every `ApiError` carries, `message` first. */
export function errorFieldsTable(): string {
  return runtimeTables().errorFields;
}

/** The guide's tables that read the runtime alone: the same for every connector and page, so made once per process. */
interface RuntimeTables {
  clientOptions: string;
  requestOptions: string;
  pageOptions: string;
  errorClasses: string;
  errorFields: string;
  otherFields: { name: string; fields: string }[];
}

let tables: RuntimeTables | undefined;

function runtimeTables(): RuntimeTables {
  if (tables) return tables;
  const api = runtimeApi();
  const byName = new Map(api.errors.map((e) => [e.name, e]));
  const root = (name: string): string => (byName.get(name)?.extends === 'Error' ? name : root(byName.get(name)!.extends));
  const apiError = byName.get('ApiError')!;
  const message: ApiMember = { name: 'message', type: 'string', doc: "What failed and where: status, the body's message, entity and action; never the token.", optional: false };
  const fieldsTable = (fields: ApiMember[]) => table(['field', 'type', 'what it holds'], fields.map((f) => [code(f.name), code(f.type), prose(f.doc)]));
  return (tables = {
    clientOptions: optionsTable(api.clientOptions),
    requestOptions: optionsTable(api.requestOptions),
    pageOptions: optionsTable(api.pageOptions),
    errorClasses: table(
      ['class', 'extends', 'thrown when', 'fields of its own'],
      api.errors.map((e) => [code(e.name), code(e.extends), prose(e.doc), e.fields.map((f) => code(f.name)).join(', ') || (root(e.name) === 'ApiError' ? 'those of `ApiError`' : '—')]),
    ),
    errorFields: fieldsTable([message, ...apiError.fields]),
    otherFields: api.errors.filter((e) => e.name !== 'ApiError' && e.fields.length).map((e) => ({ name: e.name, fields: fieldsTable(e.fields) })),
  });
}

/** The guide for one connector's package; `mockSources` adds the table of every connector's mock source. */
export function clientGuide(ir: SpecIR, connector: ConnectorIR, { mockSources = false } = {}): string {
  const api = runtimeApi();
  const { clientOptions, requestOptions, pageOptions, errorClasses, errorFields, otherFields } = runtimeTables();
  return render({
    packageName: connector.package.name,
    clientClass: clientClassName(connector),
    clientOptions,
    requestOptions,
    pageOptions,
    requestIdHeader: ir.service.requestIdHeader ? code(ir.service.requestIdHeader) : undefined,
    errorClasses,
    errorFields,
    otherFields,
    logEnv: api.constants['LOG_LEVEL_ENV'],
    maxRetries: api.constants['MAX_RETRIES'],
    mockSource: mockSourceId(connector),
    logLine: logLineExample(connector),
    mockSources: mockSources
      ? table(
          ['connector', 'mock source id', 'package', 'client'],
          ir.connectors.map((c) => [prose(c.title), code(mockSourceId(c)), code(c.package.name), code(clientClassName(c))]),
        )
      : undefined,
    example: examples(connector, ir.service.envelope),
  });
}
