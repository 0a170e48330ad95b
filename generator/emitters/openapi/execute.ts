/**
 * The execute operation of one connector's document: its request body is a union over the connector's
 * entity–action pairs — discriminated by `entity`, then by `action` — each with its params schema; its responses
 * are the pairs' results in the envelope, the bytes of downloads, and the service's errors.
 */
import { authConfigFields, type ActionIR, type ConnectorIR, type EntityIR, type SpecIR } from '../../ir.js';
import { NOT_SPECIFIED, objectSchema, paramsRequired, paramsSchemaWithGroups, ref, shapeSchema, valueSchema, type JsonSchema } from './schemas.js';
import { searchNames, searchSchemas } from './search.js';

/**
 * Component names of a connector document's schemas. A document holds one connector, so names carry no connector
 * id; dotted names start with a fixed word and the service-wide ones are single PascalCase words, so none collide.
 */
export const names = {
  record: (record: string) => `record.${record}`,
  meta: (meta: string) => `meta.${meta}`,
  body: 'ExecuteBody',
  result: 'ExecuteResult',
  authConfig: 'AuthConfig',
  entityBody: (entity: string) => `entity.${entity}.execute`,
  pair: (entity: string, action: string, part: 'params' | 'request' | 'response') => `pair.${entity}.${action}.${part}`,
};

/** Media type of download bytes: any (the file's own type, e.g. application/pdf, is sent as Content-Type). */
export const BYTES_MEDIA_TYPE = '*/*';

/** The schema of download bytes. */
const BYTES = { type: 'string', contentMediaType: 'application/octet-stream', description: "The file's bytes; Content-Type names the file's type." };

/** Title of a pair's schemas (`customers list`). */
const pairTitle = (entity: EntityIR, action: ActionIR) => `${entity.name} ${action.name}`;

function responseSchema(ir: SpecIR, connector: ConnectorIR, entity: EntityIR, action: ActionIR): JsonSchema | undefined {
  const { records, meta } = ir.service.envelope;
  const record = connector.records.some((r) => r.name === action.result.record) ? ref(names.record(action.result.record!)) : { type: 'object', description: `The record: ${NOT_SPECIFIED}.` };
  const label = pairTitle(entity, action);
  switch (action.result.shape) {
    case 'list': {
      const metaSchema = connector.meta.some((m) => m.name === action.result.meta) ? ref(names.meta(action.result.meta!)) : { type: 'object', description: `Meta: ${NOT_SPECIFIED}.` };
      return { type: 'object', title: label, description: `Result of ${label}: a page of records and its meta.`, required: [records], properties: { [records]: { type: 'array', items: record }, [meta]: metaSchema } };
    }
    case 'single':
      return { type: 'object', title: label, description: `Result of ${label}: one record.`, required: [records], properties: { [records]: record } };
    case 'hits':
      return { type: 'object', title: label, description: `Result of ${label}: one page of search hits.`, required: [records], properties: { [records]: ref(searchNames(entity.name).result) } };
    case 'binary':
      return undefined;
  }
}

/** Where a pair's answer is described: a response schema, or the bytes of a download. */
export const RESPONSE_EXTENSION = 'x-response';

function requestSchema(entity: EntityIR, action: ActionIR, hasResponse: boolean): JsonSchema {
  const params = action.name === 'search' ? ref(searchNames(entity.name).params) : ref(names.pair(entity.name, action.name, 'params'));
  // A download's size limit is no keyword of OpenAPI's: it is said where the pair names its bytes.
  const limit = action.maxBytes ? `, at most ${action.maxBytes} bytes (${Math.round(action.maxBytes / 1048576)} MB)` : '';
  const response = hasResponse ? `#/components/schemas/${names.pair(entity.name, action.name, 'response')}` : `bytes (${BYTES_MEDIA_TYPE})`;
  return {
    type: 'object',
    title: pairTitle(entity, action),
    description: `${action.description} (${action.kind}) Response: ${response}${limit}.`,
    required: ['entity', 'action', ...(action.name === 'search' || paramsRequired(action) ? ['params'] : [])],
    properties: { entity: { const: entity.name }, action: { const: action.name }, params },
    additionalProperties: false,
    // OpenAPI cannot tie a response to a body variant: this names it, for readers and tools that want to.
    [RESPONSE_EXTENSION]: response,
    ...(action.deprecated ? { deprecated: true } : {}),
  };
}

/**
 * Meta keys the paging schemes of a meta shape's actions read the next position from, where the scheme ends when it
 * is missing (`nextMissing`): on the last page such a key is absent, null or empty, so it cannot be required.
 */
function lastPageKeys(connector: ConnectorIR, meta: string): string[] {
  const schemes = new Set(connector.entities.flatMap((e) => e.actions.filter((a) => a.result.meta === meta).map((a) => a.pagination)));
  const keys = connector.pagination.filter((s) => schemes.has(s.name) && s.next.from === 'meta' && s.next.path && s.stop.some((x) => x.when === 'nextMissing')).map((s) => s.next.path!);
  return [...new Set(keys)].sort();
}

/** A meta schema whose next-position keys (dotted paths) are not required, saying why. */
function withOptionalNext(schema: JsonSchema, paths: string[]): JsonSchema {
  if (paths.length === 0) return schema;
  const out = structuredClone(schema);
  for (const dotted of paths) {
    const keys = dotted.split('.');
    let node: JsonSchema | undefined = out;
    for (const key of keys.slice(0, -1)) node = (node?.['properties'] as Record<string, JsonSchema> | undefined)?.[key];
    const required = node?.['required'] as string[] | undefined;
    if (!node || !required) continue;
    const rest = required.filter((k) => k !== keys.at(-1));
    if (rest.length) node['required'] = rest;
    else delete node['required'];
  }
  out['description'] = `${String(out['description'] ?? '')} On the last page ${paths.join(', ')} may be absent (or empty, or null where its type allows): that is how paging ends.`.trim();
  return out;
}

/** Every execute component schema of one connector: records, meta, auth_config, pairs, entity and body unions. */
export function connectorSchemas(ir: SpecIR, connector: ConnectorIR): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const c = connector.id;
  for (const r of connector.records) out.set(names.record(r.name), shapeSchema(r));
  for (const m of connector.meta) out.set(names.meta(m.name), withOptionalNext(shapeSchema(m), lastPageKeys(connector, m.name)));
  const auth = connector.auth;
  // The auth fields and the configuration variables supplied in auth_config (advertising's region_url).
  const members = authConfigFields(auth).map((m) =>
    'defaultUnspecified' in m && m.defaultUnspecified ? { ...m, description: `${m.description ?? ''} Has a default (${NOT_SPECIFIED.toLowerCase()}: "${m.defaultUnspecified}"); omit it to use the default.`.trim() } : m,
  );
  out.set(
    names.authConfig,
    members.length
      ? { type: 'object', title: `${c} auth_config`, ...objectSchema(members, 'param', false) }
      : { type: 'object', title: `${c} auth_config`, additionalProperties: true, description: `${NOT_SPECIFIED}: "${auth.unspecified ?? ''}"` },
  );
  const responses: JsonSchema[] = [];
  for (const entity of connector.entities) {
    if (entity.searchable) for (const [name, schema] of searchSchemas(ir, entity)) out.set(name, schema);
    for (const action of entity.actions) {
      if (action.name !== 'search') out.set(names.pair(entity.name, action.name, 'params'), paramsSchemaWithGroups(action, `${c} ${pairTitle(entity, action)}`));
      const response = responseSchema(ir, connector, entity, action);
      if (response) {
        out.set(names.pair(entity.name, action.name, 'response'), response);
        responses.push(ref(names.pair(entity.name, action.name, 'response')));
      }
      out.set(names.pair(entity.name, action.name, 'request'), requestSchema(entity, action, response !== undefined));
    }
    const pairRefs = entity.actions.map((a) => `#/components/schemas/${names.pair(entity.name, a.name, 'request')}`);
    out.set(names.entityBody(entity.name), {
      // An object schema with the entity tag, so the body-level discriminator maps to it.
      type: 'object',
      required: ['entity', 'action'],
      properties: { entity: { const: entity.name } },
      description: `An execute body for ${entity.name}: one variant per action.`,
      oneOf: pairRefs.map(($ref) => ({ $ref })),
      discriminator: { propertyName: 'action', mapping: Object.fromEntries(entity.actions.map((a, i) => [a.name, pairRefs[i]])) },
    });
  }
  const entityRefs = connector.entities.map((e) => `#/components/schemas/${names.entityBody(e.name)}`);
  out.set(names.body, {
    description: `The execute body on a ${connector.title} source: one of its ${connector.entities.length} entities, then one of that entity's actions.`,
    oneOf: entityRefs.map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'entity', mapping: Object.fromEntries(connector.entities.map((e, i) => [e.name, entityRefs[i]])) },
  });
  if (responses.length) {
    out.set(names.result, {
      description: `The JSON result of an execute call on a ${connector.title} source: the result of one of its entity–action pairs, in the envelope. Which one is not in the response: it is the pair the request named (each request variant names its response under ${RESPONSE_EXTENSION}). anyOf, not oneOf: several pairs answer the same shape.`,
      anyOf: responses,
    });
  }
  return out;
}

/** The execute operation of one connector. */
export function executeOperation(ir: SpecIR, connector: ConnectorIR, errorResponses: Record<string, JsonSchema>): JsonSchema {
  const pairs = connector.entities.flatMap((e) => e.actions.map((a) => ({ e, a })));
  const downloads = pairs.filter(({ a }) => a.result.shape === 'binary');
  const content: JsonSchema = {};
  if (downloads.length < pairs.length) content['application/json'] = { schema: ref(names.result) };
  if (downloads.length) content[BYTES_MEDIA_TYPE] = { schema: BYTES };
  const responses: JsonSchema = { '200': { description: `The action's result: JSON in the envelope${downloads.length ? `, or the bytes of a download (${downloads.map(({ e, a }) => pairTitle(e, a)).join(', ')}) with Content-Type and Content-Disposition` : ''}.`, content } };
  const ranged = downloads.filter(({ a }) => a.rangeParam);
  if (ranged.length) {
    responses['206'] = {
      description: `Partial content of a download given a range: ${ranged.map(({ e, a }) => `${pairTitle(e, a)} (${a.rangeParam})`).join(', ')}.`,
      headers: { 'Content-Range': { required: true, description: 'The bytes sent and the full length: bytes <first>-<last>/<length>.', schema: { type: 'string' } } },
      content: { [BYTES_MEDIA_TYPE]: { schema: BYTES } },
    };
  }
  Object.assign(responses, errorResponses);
  return {
    operationId: 'execute',
    tags: [connector.id],
    summary: `Run an action on a ${connector.title} source`,
    description: `${ir.service.execute.description ?? ''} The source (source_id) is a ${connector.title} source, so the body names one of its ${pairs.length} entity–action pairs.`.trim(),
    parameters: [{ $ref: '#/components/parameters/source_id' }],
    requestBody: { required: true, content: { 'application/json': { schema: ref(names.body) } } },
    responses,
  };
}
