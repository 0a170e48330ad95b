/**
 * The execute operation of one connector: its request body is a union over the connector's entity–action
 * pairs — discriminated by `entity`, then by `action` — each with its params schema; its responses are the
 * pairs' results in the envelope, the binary content of downloads, and the service's errors.
 */
import { camelCase } from '../naming.js';
import type { ActionIR, ConnectorIR, EntityIR, SpecIR } from '../../ir.js';
import { NOT_SPECIFIED, paramsRequired, paramsSchema, ref, shapeSchema, valueSchema, type JsonSchema } from './schemas.js';
import { searchNames, searchSchemas } from './search.js';

/** Component names of a connector's schemas. Second segments are fixed words, so names never collide. */
export const names = {
  record: (c: string, record: string) => `${c}.record.${record}`,
  meta: (c: string, meta: string) => `${c}.meta.${meta}`,
  body: (c: string) => `${c}.execute`,
  entityBody: (c: string, entity: string) => `${c}.entity.${entity}.execute`,
  pair: (c: string, entity: string, action: string, part: 'params' | 'request' | 'response') => `${c}.pair.${entity}.${action}.${part}`,
  authConfig: (c: string) => `${c}.auth_config`,
};

/** The path key of a connector's execute operation: the execute path, with the connector as its fragment. */
export function executePathKey(ir: SpecIR, connector: ConnectorIR): string {
  return `${ir.service.execute.path}#${connector.id}`;
}

function responseSchema(ir: SpecIR, connector: ConnectorIR, entity: EntityIR, action: ActionIR): JsonSchema | undefined {
  const { records, meta } = ir.service.envelope;
  const record = connector.records.some((r) => r.name === action.result.record) ? ref(names.record(connector.id, action.result.record!)) : { type: 'object', description: `The record: ${NOT_SPECIFIED}.` };
  const label = `${connector.id} ${entity.name} ${action.name}`;
  switch (action.result.shape) {
    case 'list': {
      const metaSchema = connector.meta.some((m) => m.name === action.result.meta) ? ref(names.meta(connector.id, action.result.meta!)) : { type: 'object', description: `Meta: ${NOT_SPECIFIED}.` };
      return { type: 'object', title: label, description: `Result of ${label}: a page of records and its meta.`, required: [records], properties: { [records]: { type: 'array', items: record }, [meta]: metaSchema } };
    }
    case 'single':
      return { type: 'object', title: label, description: `Result of ${label}: one record.`, required: [records], properties: { [records]: record } };
    case 'hits':
      return { type: 'object', title: label, description: `Result of ${label}: one page of search hits.`, required: [records], properties: { [records]: ref(searchNames(connector.id, entity.name).result) } };
    case 'binary':
      return undefined;
  }
}

function requestSchema(connector: ConnectorIR, entity: EntityIR, action: ActionIR, hasResponse: boolean): JsonSchema {
  const params = action.name === 'search' ? ref(searchNames(connector.id, entity.name).params) : ref(names.pair(connector.id, entity.name, action.name, 'params'));
  const response = hasResponse ? `#/components/schemas/${names.pair(connector.id, entity.name, action.name, 'response')}` : 'binary content (application/octet-stream)';
  return {
    type: 'object',
    title: `${connector.id} ${entity.name} ${action.name}`,
    description: `${action.description} (${action.kind}) Response: ${response}.`,
    required: ['entity', 'action', ...(action.name === 'search' || paramsRequired(action) ? ['params'] : [])],
    properties: { entity: { const: entity.name }, action: { const: action.name }, params },
    additionalProperties: false,
    ...(action.deprecated ? { deprecated: true } : {}),
  };
}

/** Every component schema of one connector: records, meta, auth_config, pairs, entity and connector unions. */
export function connectorSchemas(ir: SpecIR, connector: ConnectorIR): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  const c = connector.id;
  for (const r of connector.records) out.set(names.record(c, r.name), shapeSchema(r));
  for (const m of connector.meta) out.set(names.meta(c, m.name), shapeSchema(m));
  const auth = connector.auth;
  out.set(
    names.authConfig(c),
    auth.fields.length
      ? { type: 'object', title: `${c} auth_config`, properties: Object.fromEntries(auth.fields.map((f) => [f.name, valueSchema(f, 'param')])), required: auth.fields.filter((f) => f.required).map((f) => f.name), additionalProperties: false }
      : { type: 'object', title: `${c} auth_config`, additionalProperties: true, description: `${NOT_SPECIFIED}: "${auth.unspecified ?? ''}"` },
  );
  for (const entity of connector.entities) {
    if (entity.searchable) for (const [name, schema] of searchSchemas(ir, c, entity)) out.set(name, schema);
    for (const action of entity.actions) {
      if (action.name !== 'search') out.set(names.pair(c, entity.name, action.name, 'params'), paramsSchema(action, `${c} ${entity.name} ${action.name}`));
      const response = responseSchema(ir, connector, entity, action);
      if (response) out.set(names.pair(c, entity.name, action.name, 'response'), response);
      out.set(names.pair(c, entity.name, action.name, 'request'), requestSchema(connector, entity, action, response !== undefined));
    }
    const pairRefs = entity.actions.map((a) => `#/components/schemas/${names.pair(c, entity.name, a.name, 'request')}`);
    out.set(names.entityBody(c, entity.name), {
      // An object schema with the entity tag, so the connector-level discriminator maps to it.
      type: 'object',
      required: ['entity', 'action'],
      properties: { entity: { const: entity.name } },
      description: `An execute body for ${c} ${entity.name}: one variant per action.`,
      oneOf: pairRefs.map(($ref) => ({ $ref })),
      discriminator: { propertyName: 'action', mapping: Object.fromEntries(entity.actions.map((a, i) => [a.name, pairRefs[i]])) },
    });
  }
  const entityRefs = connector.entities.map((e) => `#/components/schemas/${names.entityBody(c, e.name)}`);
  out.set(names.body(c), {
    description: `The execute body on a ${connector.title} source: one of its ${connector.entities.length} entities, then one of that entity's actions.`,
    oneOf: entityRefs.map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'entity', mapping: Object.fromEntries(connector.entities.map((e, i) => [e.name, entityRefs[i]])) },
  });
  return out;
}

/** The execute operation of one connector. */
export function executeOperation(ir: SpecIR, connector: ConnectorIR, errorResponses: Record<string, JsonSchema>): JsonSchema {
  const c = connector.id;
  const pairs = connector.entities.flatMap((e) => e.actions.map((a) => ({ e, a })));
  const json = pairs.filter(({ a }) => a.result.shape !== 'binary').map(({ e, a }) => ref(names.pair(c, e.name, a.name, 'response')));
  const downloads = pairs.filter(({ a }) => a.result.shape === 'binary');
  const binary = { schema: { type: 'string', contentMediaType: 'application/octet-stream' } };
  const content: JsonSchema = {};
  if (json.length) content['application/json'] = { schema: { anyOf: json } };
  if (downloads.length) content['application/octet-stream'] = binary;
  const responses: JsonSchema = { '200': { description: `The action's result: JSON in the envelope${downloads.length ? ', or the raw bytes of a download' : ''}.`, content } };
  if (downloads.some(({ a }) => a.rangeParam)) {
    const ranged = downloads.filter(({ a }) => a.rangeParam).map(({ e, a }) => `${e.name} ${a.name} (${a.rangeParam})`);
    responses['206'] = { description: `Partial content of a download given a range: ${ranged.join(', ')}.`, content: { 'application/octet-stream': binary } };
  }
  Object.assign(responses, errorResponses);
  return {
    operationId: camelCase(`execute_${c}`),
    tags: [c],
    summary: `Run an action on a ${connector.title} source`,
    description: `${ir.service.execute.description ?? ''} The source (source_id) is a ${connector.title} source, so the body names one of its ${pairs.length} entity–action pairs. The path's fragment (#${c}) only keeps the connectors' operations apart; it is not sent.`.trim(),
    parameters: [{ $ref: '#/components/parameters/source_id' }],
    requestBody: { required: true, content: { 'application/json': { schema: ref(names.body(c)) } } },
    responses,
  };
}
