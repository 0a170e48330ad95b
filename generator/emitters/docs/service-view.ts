/**
 * View models of the common contract page (generated/docs/service.md) and the index of connectors
 * (generated/docs/README.md), and of the common-contract parts every connector page cites.
 */
import type { AssumptionIR, LimitIR, PropertyIR, SpecIR } from '../../ir.js';
import { allowedValues, anchor, code, describeCell, flatten, inlineCode, limitsText, literal, NOT_SPECIFIED, prose, sortedJson, table, text, typeText } from './markdown.js';
import { errorClassesTable, errorFieldsTable } from './client-guide.js';
import { appliesToText, readingOrder } from './search-operators.js';
import { countsOf } from '../catalogue/describe.js';

/** The SDK error class each documented status maps to (runtime/src/errors.ts). */
const ERROR_CLASSES: Record<string, string> = {
  '400': 'InvalidRequestError',
  '401': 'AuthenticationError',
  '403': 'AuthenticationError',
  '404': 'NotFoundError',
  '422': 'InvalidRequestError',
  '429': 'RateLimitError',
  '5xx': 'ServerError',
};

const BODY_HEADER = ['type', 'required', 'default', 'limits', 'enum / literal', 'description'];

/** The limits table: where, the limit in the seed's words (or its silence), and the params it constrains. */
export function limitTable(limits: LimitIR[]): string {
  return table(
    ['where', 'limit', 'params it constrains'],
    limits.map((l) => [prose(l.where), prose(l.unspecified ? `${l.limit} (${NOT_SPECIFIED}: "${l.unspecified}")` : l.limit), l.appliesTo.length ? l.appliesTo.map(code).join(', ') : '—']),
  );
}

function valueText(value: unknown): string {
  return typeof value === 'string' ? prose(value) : code(sortedJson(value));
}

/** The assumptions table: what the contract does not show, the value assumed, its source, where it is written. */
export function assumptionTable(assumptions: AssumptionIR[]): string {
  return table(
    ['id', 'the contract says', 'assumed', 'source', 'written in'],
    // The file only: line numbers move when a spec reorders its keys, and output must not.
    assumptions.map((a) => [code(a.id), prose(a.contract), valueText(a.value), prose(a.source), code(a.location.file)]),
  );
}

/** A table of body fields or params (`first` names the first column; `requiredKnown` false: the contract does not say). */
function bodyTable(props: PropertyIR[], first = 'field', requiredKnown = true): string {
  return table(
    [first, ...BODY_HEADER],
    flatten(props).map(({ path, prop }) => [
      code(path),
      code(typeText(prop) + (prop.nullable ? '|null' : '')),
      requiredKnown ? (prop.required ? 'yes' : 'no') : NOT_SPECIFIED,
      prop.default !== undefined ? literal(prop.default) : '',
      limitsText(prop),
      allowedValues(prop),
      describeCell(prop),
    ]),
  );
}

function json(value: unknown): string {
  return sortedJson(value, 2);
}

/** The assumptions of the common contract that commonView reads. */
const COMMON_ASSUMPTIONS = ['envelope', 'searchResponse', 'download', 'sortElement'];

/** The view of commonView. */
export type CommonView = ReturnType<typeof makeCommonView>;

/** commonView's last view, with the IR parts it read (the IR is read-only to emitters). */
let lastCommon: { read: unknown[]; view: CommonView } | undefined;

/**
 * The envelope, errors and uniform search: the parts of the contract connector pages cite (partials). Every
 * connector's IR view (emitters/types.ts onlyConnector) shares these parts of the service, so the view is made once
 * per run and the same object is returned while they are the same.
 */
export function commonView(ir: SpecIR): CommonView {
  const s = ir.service;
  const read: unknown[] = [s.envelope, s.errors, s.search, s.actions, ...COMMON_ASSUMPTIONS.map((id) => s.assumptions.find((a) => a.id === id))];
  if (lastCommon?.read.every((part, i) => part === read[i])) return lastCommon.view;
  const view = makeCommonView(s);
  lastCommon = { read, view };
  return view;
}

function makeCommonView(s: SpecIR['service']) {
  const { records, meta } = s.envelope;
  const searchLimit = s.search.params.find((p) => p.name === 'limit')?.default;
  return {
    envelope: {
      records: code(records),
      meta: code(meta),
      assumption: text(s.assumptions.find((a) => a.id === 'envelope')?.contract),
      // Built here in a fixed key order (records first); spec values go through sortedJson.
      listExample: JSON.stringify({ [records]: [{ id: '<id>' }], [meta]: { has_more: true } }, null, 2),
      singleExample: JSON.stringify({ [records]: { id: '<id>' } }, null, 2),
      searchExample: JSON.stringify({ [records]: { hits: [{ id: '<id>', score: 1, data: {} }], next_cursor: null, took_ms: 3 } }, null, 2),
      searchAssumption: text(String(s.assumptions.find((a) => a.id === 'searchResponse')?.value ?? '') || undefined),
      download: text(String(s.assumptions.find((a) => a.id === 'download')?.value ?? '') || undefined),
    },
    errors: {
      statuses: table(
        ['status', 'meaning', 'SDK error'],
        Object.entries(s.errors.statuses)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([status, meaning]) => [code(status), prose(meaning), code(ERROR_CLASSES[status] ?? 'ApiError')]),
      ),
      body: json(s.errors.body),
      classes: errorClassesTable(),
      fields: errorFieldsTable(),
    },
    search: {
      description: text(s.actions.find((a) => a.name === 'search')?.description),
      params: bodyTable(s.search.params, 'param'),
      operators: table(
        ['operator', 'operand', 'applies to', 'description'],
        readingOrder(s.search.operators).map((op) => [code(op.name), op.operand, appliesToText(op), prose(op.description)]),
      ),
      hit: bodyTable(s.search.hit),
      limit: searchLimit,
      sortElement: inlineCode(String(s.assumptions.find((a) => a.id === 'sortElement')?.value ?? NOT_SPECIFIED)),
      cursorParam: code(s.search.pagination.param),
      cursorKey: code(s.search.pagination.next.path ?? ''),
    },
  };
}

/** The common contract page. */
export function serviceView(ir: SpecIR) {
  const s = ir.service;
  const endpoint = (e: typeof s.execute) => ({
    method: e.method,
    path: code(e.path),
    description: text(e.description),
    headers: table(
      ['header', 'value'],
      Object.entries(e.headers)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([name, value]) => [code(name), code(value)]),
    ),
  });
  const writes = new Map<string, string[]>();
  for (const w of s.writeActions) {
    const [connector, entity, action] = w.split('/');
    const key = `${connector}/${entity}`;
    writes.set(key, [...(writes.get(key) ?? []), action!]);
  }
  return {
    title: s.title,
    description: text(s.description),
    seed: s.seed,
    endpoints: [endpoint(s.execute), endpoint(s.createSource)],
    executeBody: bodyTable(s.executeBody),
    sourceCreation: { table: bodyTable(s.sourceCreation.properties, 'field', s.sourceCreation.unspecified === undefined), unspecified: s.sourceCreation.unspecified && prose(s.sourceCreation.unspecified) },
    authentication: {
      header: code(s.authentication.header),
      scheme: code(s.authentication.scheme),
      description: text(s.authentication.description),
      unspecified: text(s.authentication.unspecified),
      connectors: table(
        ['connector', 'method', 'auth_config fields'],
        ir.connectors.map((c) => [`[${c.title}](connectors/${c.id}.md#authentication)`, c.outline.authMethod === 'unspecified' ? NOT_SPECIFIED : code(c.outline.authMethod), c.outline.authFields.map((f) => code(f)).join(', ') || '—']),
      ),
    },
    actions: table(
      ['action', 'kind', 'meaning'],
      s.actions.map((a) => [code(a.name), a.kind, prose(a.description)]),
    ),
    writes: table(
      ['connector', 'entity', 'write actions'],
      [...writes].map(([key, actions]) => {
        const [connector, entity] = key.split('/') as [string, string];
        return [`[${connector}](connectors/${connector}.md)`, `[${code(entity)}](connectors/${connector}.md#${anchor('entity', entity)})`, actions.map(code).join(', ')];
      }),
    ),
    metaKeys: s.metaKeys.map(code).join(', '),
    limits: limitTable(s.limits),
    versioning: { description: text(s.versioning.description), unspecified: text(s.versioning.unspecified) },
    events: text(s.events),
    assumptions: assumptionTable(s.assumptions),
  };
}

/** The index of connectors. */
export function indexView(ir: SpecIR) {
  const counts = ir.connectors.map((c) => {
    const { entities, pairs, writablePairs, writableEntities } = countsOf(c);
    return [entities, pairs, writablePairs, writableEntities];
  });
  const rows = ir.connectors.map((c, i) => [
    `[${c.title}](connectors/${c.id}.md)`,
    code(c.id),
    `[${code(c.package.name)}](../${c.id}/README.md)`,
    ...counts[i]!.map(String),
    c.outline.authMethod === 'unspecified' ? NOT_SPECIFIED : code(c.outline.authMethod),
  ]);
  const total = (column: number) => String(counts.reduce((n, row) => n + row[column]!, 0));
  rows.push([`**total** (${ir.connectors.length})`, '', '', total(0), total(1), total(2), total(3), '']);
  return {
    title: ir.service.title,
    description: text(ir.service.description),
    connectors: table(['connector', 'id', 'package', 'entities', 'entity–action pairs', 'writes', 'writable entities', 'auth_config'], rows),
    assumptionCount: ir.service.assumptions.length,
  };
}
