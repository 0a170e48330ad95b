/**
 * The view model of a connector's reference page (templates/reference-connector.md.hbs): strings built from
 * the IR — paragraphs that are absent when the spec says nothing (the template prints them unconditionally;
 * empty ones leave blank lines that rendering collapses), tables built by `table`, examples. Links to the
 * common contract and target-specific parts are placeholders (links.ts).
 */
import { parentScope, type ActionIR, type ConnectorIR, type EntityIR, type PaginationIR, type PropertyIR, type ShapeIR, type SpecIR } from '../../ir.js';
import { clientClassName } from '../clients/client-names.js';
import { camelCase } from '../naming.js';
import { actionExample, authExample, clientVariable, paginationExample } from './examples.js';
import { serviceLink, slot } from './links.js';
import { allowedValues, anchor, code, describeCell, flatten, limitsText, literal, NOT_SPECIFIED, prose, table, text, typeText } from './markdown.js';
import { operatorsFor } from './search-operators.js';
import { assumptionTable, limitTable } from './service-view.js';
import { actionRuleLines, invariantText, parentText } from '../rules-text.js';

const recordAnchor = (name: string) => anchor('record', name);
const metaAnchor = (name: string) => anchor('meta', name);
const schemeAnchor = (name: string) => anchor('pagination', name);
/** Anchor of an entity's section. */
export const entityAnchor = (name: string) => anchor('entity', name);
/** Anchor of one entity–action pair's section. */
export const actionAnchor = (entity: string, action: string) => anchor('action', entity, action);

const FIELD_HEADER = ['field', 'type', 'nullable', 'enum / literal', 'description'];
const PARAM_HEADER = ['param', 'type', 'required', 'default', 'limits', 'enum / literal', 'description'];

/** Text with a prefix, or undefined when there is no text. */
const labelled = (label: string, value: string | undefined) => (value ? `${label}${text(value)}` : undefined);
const linkTo = (label: string, target: string) => `[${label}](#${target})`;
const pairLink = (entity: string, action: string) => linkTo(`${code(entity)} · ${code(action)}`, actionAnchor(entity, action));

/** A field table (records, meta): nested fields by path. */
function fieldTable(props: PropertyIR[], first = 'field'): string {
  return table(
    [first, ...FIELD_HEADER.slice(1)],
    flatten(props).map(({ path, prop }) => [code(path), code(typeText(prop)), prop.nullable ? 'yes' : 'no', allowedValues(prop), describeCell(prop)]),
  );
}

/** A parameter table: nested params by path. */
export function paramTable(props: PropertyIR[]): string {
  return table(
    PARAM_HEADER,
    flatten(props).map(({ path, prop }) => [
      code(path),
      code(typeText(prop) + (prop.nullable ? '|null' : '')),
      prop.required ? 'yes' : 'no',
      prop.default !== undefined ? literal(prop.default) : '',
      limitsText(prop),
      allowedValues(prop),
      describeCell(prop),
    ]),
  );
}

/** The contract's silence on a shape: only some fields shown (open), or none. */
function shapeSilence(shape: ShapeIR, what: string): string | undefined {
  if (!shape.unspecified) return undefined;
  const quote = `Not specified by the contract: "${prose(shape.unspecified)}"`;
  return shape.properties.length ? `Only some ${what} are shown; others may be present. ${quote}` : `${quote} The client types it as an open object.`;
}

/** A record's key and invariants, as a list (absent when it states none). */
function shapeRules(shape: ShapeIR): string | undefined {
  const lines: string[] = [];
  if (shape.key) lines.push(`- Identified by ${code(shape.key)} (the value get, update, delete and download take).`);
  for (const inv of shape.invariants ?? []) {
    const labels = [inv.description, inv.assumption && `Assumption: ${inv.assumption}`, inv.provenance && `Provenance: ${inv.provenance}`].filter(Boolean).join(' ');
    lines.push(`- ${text(invariantText(inv))}${labels ? ` ${text(labels)}` : ''}`);
  }
  return lines.length ? `Rules every record holds (the mock keeps them; the contract tests check them):\n\n${lines.join('\n')}` : undefined;
}

function shapeView(shape: ShapeIR, anchorId: string, heading: string, what: string, first: string) {
  return {
    anchor: anchorId,
    heading: `${heading} ${code(shape.name)}`,
    description: text(shape.description),
    silence: shapeSilence(shape, what),
    note: labelled('Note: ', shape.note),
    assumption: labelled('Assumption: ', shape.assumption),
    rules: shapeRules(shape),
    table: fieldTable(shape.properties, first),
  };
}

function recordLink(connector: ConnectorIR, name: string | undefined): string {
  if (name && connector.records.some((r) => r.name === name)) return linkTo(code(name), recordAnchor(name));
  return `a record (${NOT_SPECIFIED})`;
}

/** What an action returns, in words, with links to its record, meta and the envelope. */
function returnsText(connector: ConnectorIR, action: ActionIR, ir: SpecIR): string {
  const { records, meta } = ir.service.envelope;
  const envelope = `[envelope](${serviceLink('envelope')})`;
  switch (action.result.shape) {
    case 'list': {
      const metaName = action.result.meta;
      const metaText = metaName && connector.meta.some((m) => m.name === metaName) ? `meta ${linkTo(code(metaName), metaAnchor(metaName))}` : `meta (${NOT_SPECIFIED})`;
      return `A page: an array of ${recordLink(connector, action.result.record)} records under ${code(records)} and ${metaText} under ${code(meta)} (${envelope}).`;
    }
    case 'single':
      return `One ${recordLink(connector, action.result.record)} record under ${code(records)} (${envelope}).`;
    case 'hits':
      return `Search hits under ${code(records)}: \`hits\` (each \`{ id, score, data }\`, data holding the searchable fields above), \`next_cursor\`, \`took_ms\` ([uniform search](${serviceLink('search')})).`;
    case 'binary': {
      const parts = ['Binary content: the raw bytes (status 200; 206 for a partial range), streamed as `DownloadResponse.body`.'];
      if (action.rangeParam) parts.push(`Partial content: pass a range in ${code(action.rangeParam)}.`);
      if (action.maxBytes) parts.push(`At most ${action.maxBytes} bytes (${Math.round(action.maxBytes / 1048576)} MB).`);
      return parts.join(' ');
    }
  }
}

/** How an action pages, in words. */
function pagingText(action: ActionIR, ir: SpecIR): string | undefined {
  if (action.result.shape === 'hits') {
    const p = ir.service.search.pagination;
    return `With ${code(p.param)} / ${code(p.next.path ?? '')} (the [uniform search](${serviceLink('search')})'s cursor); the iterator walks every page.`;
  }
  if (action.result.shape !== 'list') return undefined;
  if (action.pagination === 'none') return 'One page (the action does not page).';
  if (action.pagination === 'unspecified') return `How it pages is ${NOT_SPECIFIED}: awaiting gives the page, iteration yields that page only.`;
  return `With the ${linkTo(code(action.pagination), schemeAnchor(action.pagination))} scheme; the iterator walks every page.`;
}

function shortReturns(action: ActionIR): string {
  const record = action.result.record ? code(action.result.record) : undefined;
  switch (action.result.shape) {
    case 'list':
      return `page of ${record ?? 'records'}`;
    case 'single':
      return record ?? 'one record';
    case 'hits':
      return 'search hits';
    case 'binary':
      return 'bytes';
  }
}

/** What the page says about an action's params: a table, "none", or the contract's silence. */
function paramsText(action: ActionIR): string | undefined {
  if (action.paramsUnspecified) {
    const quote = `${NOT_SPECIFIED} ("${prose(action.paramsUnspecified)}")`;
    return action.params.length ? `Further params: ${quote}; the client accepts others.` : `Params: ${quote}; the client accepts any object.`;
  }
  return action.params.length ? undefined : 'Params: none.';
}

/** What an action's rules say, one line each: ordering, default filter, groups, update semantics, key, labels. */
function actionRules(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  const lines = actionRuleLines(action).map((l) => `- ${text(l)}`);
  const parent = parentScope(connector, entity, action);
  const alternates = (action.alternateKeys?.fields ?? []).map((f) => ` or its ${code(f)}`).join('');
  if (action.keyParam) lines.push(`- The record is found by ${code(action.keyParam)}, which takes its key${alternates}.`);
  if (entity.recordsFrom) lines.push(`- Works on the records of ${linkTo(code(entity.recordsFrom), entityAnchor(entity.recordsFrom))}.`);
  if (parent) lines.push(`- ${text(parentText(parent))}`);
  const labelled = [...(action.paramGroups ?? []), ...(action.alternateKeys ? [action.alternateKeys] : [])];
  const labels = [(action.defaultFilter?.provenance ?? '') && `Provenance: ${action.defaultFilter!.provenance}`, ...labelled.flatMap((g) => [g.assumption && `Assumption: ${g.assumption}`, g.provenance && `Provenance: ${g.provenance}`])].filter(Boolean) as string[];
  for (const l of labels) lines.push(`- ${text(l)}`);
  return lines.length ? `Rules:\n\n${lines.join('\n')}` : undefined;
}

function actionView(ir: SpecIR, connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string) {
  const call = `${method}.${camelCase(action.name)}`;
  const args = action.params.some((p) => p.required) ? 'params' : 'params?';
  return {
    anchor: actionAnchor(entity.name, action.name),
    heading: `${code(entity.name)} · ${code(action.name)}`,
    description: text(action.description),
    deprecated: labelled('**Deprecated:** ', action.deprecated),
    note: labelled('Note: ', action.note),
    rules: actionRules(connector, entity, action),
    method: `Method ${code(`${call}(${args}, options?)`)} · ${action.kind}${action.kind === 'write' ? ' (never retried automatically)' : ''}.`,
    params: paramTable(action.params),
    paramsText: paramsText(action),
    returns: `Returns: ${returnsText(connector, action, ir)}`,
    paging: labelled('Paging: ', pagingText(action, ir)),
    example: actionExample(connector, entity, action),
    summary: [linkTo(code(action.name), actionAnchor(entity.name, action.name)), action.kind, code(`${call}()`), shortReturns(action)],
  };
}

function searchableText(entity: EntityIR, ir: SpecIR): string | undefined {
  if (!entity.searchable) return undefined;
  const intro = `Searchable fields (action \`search\`; the operators that apply to each field's type, with the [uniform search semantics](${serviceLink('searchSemantics')})):`;
  const silence = entity.searchable.unspecified && `Not specified by the contract: "${prose(entity.searchable.unspecified)}" The client types the fields as an open object.`;
  const rows = entity.searchable.properties.map((p) => [
    code(p.name),
    code(typeText(p) + (p.nullable ? '|null' : '')),
    operatorsFor(p, ir.service.search.operators)
      .map((op) => code(op.name))
      .join(' '),
    describeCell(p),
  ]);
  return [intro, silence, table(['field', 'type', 'operators', 'description'], rows)].filter(Boolean).join('\n\n');
}

function entityView(ir: SpecIR, connector: ConnectorIR, entity: EntityIR) {
  const method = `${clientVariable(connector)}.${camelCase(entity.name)}`;
  const actions = entity.actions.map((a) => actionView(ir, connector, entity, a, method));
  const facts = [`Client property ${code(method)}`];
  if (entity.record) facts.push(`record ${recordLink(connector, entity.record)}`);
  if (entity.actions.some((a) => a.kind === 'write')) facts.push('writable');
  if (entity.recordsFrom) facts.push(`works on the records of ${linkTo(code(entity.recordsFrom), entityAnchor(entity.recordsFrom))}`);
  if (entity.parent) facts.push(`each record belongs to one ${linkTo(code(entity.parent.entity), entityAnchor(entity.parent.entity))} record`);
  return {
    anchor: entityAnchor(entity.name),
    heading: code(entity.name),
    description: text(entity.description),
    note: labelled('Note: ', entity.note),
    assumption: labelled('Assumption: ', entity.assumption),
    facts: `${facts.join('; ')}.`,
    actionTable: table(
      ['action', 'kind', 'method', 'returns'],
      actions.map((a) => a.summary),
    ),
    searchable: searchableText(entity, ir),
    actions,
  };
}

/** Where the next value of a scheme's param comes from, in words. */
function nextText(p: PaginationIR): string {
  const { next } = p;
  switch (next.from) {
    case 'meta':
      return `the meta key ${code(next.path ?? '')}${next.queryParam ? ` (a URL: its ${code(next.queryParam)} query parameter)` : ''}`;
    case 'last_record':
      return `the ${code(next.path ?? '')} field of the last record of the page`;
    case 'page_number':
      return `the page number plus 1 (the first page is ${next.start ?? 1})`;
    case 'offset':
      return 'the offset plus the number of records received';
  }
}

/** When a scheme's last page is reached, in words. */
function stopText(p: PaginationIR): string {
  return p.stop
    .map((s) => {
      const key = code(s.key ?? '');
      switch (s.when) {
        case 'metaFalse':
          return `meta ${key} is false`;
        case 'metaTrue':
          return `meta ${key} is true`;
        case 'metaMissing':
          return `meta ${key} is null, absent or empty`;
        case 'nextMissing':
          return 'the next value is null, absent or empty';
        case 'emptyPage':
          return 'a page has no records';
        case 'shortPage':
          return 'a page has fewer records than the page size asked for';
        case 'totalReached':
          return `the offset plus the records received reaches meta ${key}`;
      }
    })
    .join('; or ');
}

function schemeView(connector: ConnectorIR, scheme: PaginationIR) {
  const usedBy = connector.entities.flatMap((e) => e.actions.filter((a) => a.pagination === scheme.name).map((a) => pairLink(e.name, a.name)));
  const facts = [
    `- Request param: ${code(scheme.param)}${scheme.sizeParam ? `; page size: ${code(scheme.sizeParam)}` : ''}.`,
    `- Next value: ${nextText(scheme)}.`,
    ...(scheme.previousParam
      ? [
          `- Backwards: ${code(scheme.previousParam)} takes the key ${code(scheme.param)} takes, and the page holds the records just before that record. Iterating (\`for await\`, \`.pages()\`) walks forwards only: to page backwards, await one page at a time, passing the first record's key as ${code(scheme.previousParam)}.`,
        ]
      : []),
    `- Last page when ${stopText(scheme)}.`,
    ...(scheme.assumption ? [`- Assumption: ${text(scheme.assumption)}`] : []),
    ...(scheme.provenance ? [`- Provenance: ${text(scheme.provenance)}`] : []),
    `- Used by: ${usedBy.join(', ')}.`,
  ];
  return {
    anchor: schemeAnchor(scheme.name),
    heading: `Scheme ${code(scheme.name)} (${scheme.style})`,
    description: text(scheme.description),
    facts: facts.join('\n'),
    example: paginationExample(connector, scheme),
  };
}

function authView(connector: ConnectorIR) {
  const { auth } = connector;
  const method =
    auth.method === 'unspecified'
      ? `auth_config: ${NOT_SPECIFIED}${auth.unspecified ? ` ("${prose(auth.unspecified)}")` : ''}. The client types it as an open object.`
      : `auth_config method: ${code(auth.method)}${auth.description ? ` — ${text(auth.description)}` : ''}`;
  const fields = table(
    ['field', 'type', 'required', 'description'],
    auth.fields.map((f) => [code(f.name), code(typeText(f)), f.required ? 'yes' : 'no', describeCell(f)]),
  );
  const variables = table(
    ['variable', 'type', 'required', 'default', 'description'],
    auth.variables.map((v) => [
      code(v.name),
      code(typeText(v)),
      v.required ? 'yes' : 'no',
      v.default !== undefined ? literal(v.default) : v.defaultUnspecified ? prose(`${NOT_SPECIFIED}: "${v.defaultUnspecified}"`) : '',
      [describeCell(v), v.suppliedIn ? prose(`Supplied in ${'`'}${v.suppliedIn}${'`'} at source creation.`) : '', v.suppliedUnspecified ? prose(`${NOT_SPECIFIED}: "${v.suppliedUnspecified}"`) : ''].filter(Boolean).join(' '),
    ]),
  );
  return { method, fields, variables: variables && `Configuration variables:\n\n${variables}`, example: authExample(connector) };
}

/** The whole view of one connector page. */
export function connectorView(ir: SpecIR, connector: ConnectorIR) {
  const pairs = connector.entities.flatMap((e) => e.actions);
  const writes = pairs.filter((a) => a.kind === 'write').length;
  const writable = connector.entities.filter((e) => e.actions.some((a) => a.kind === 'write')).length;
  // The pairs that return each record shape, gathered in one pass over the pairs.
  const returning = new Map<string, string[]>();
  for (const e of connector.entities) {
    for (const a of e.actions) {
      const record = a.result.record;
      if (record !== undefined && (a.result.shape === 'list' || a.result.shape === 'single')) (returning.get(record) ?? returning.set(record, []).get(record)!).push(pairLink(e.name, a.name));
    }
  }
  const unpaged = connector.entities.flatMap((e) => e.actions.filter((a) => a.result.shape === 'list' && a.pagination === 'unspecified').map((a) => pairLink(e.name, a.name)));
  const limits = limitTable(ir.service.limits.filter((l) => l.appliesTo.some((p) => p.startsWith(`${connector.id}/`))));
  const assumptions = assumptionTable(ir.service.assumptions.filter((a) => a.id.startsWith(`${connector.id}/`)));
  const contents = [
    '- [Authentication](#authentication)',
    `- [Pagination](#pagination)${connector.meta.length ? ' and [list meta keys](#list-meta)' : ''}`,
    `- [Entities](#entities): ${connector.entities.map((e) => linkTo(code(e.name), entityAnchor(e.name))).join(', ')}`,
    '- [Records](#records)',
    ...(limits ? ['- [Limits](#limits)'] : []),
    ...(assumptions ? ['- [Assumptions](#assumptions)'] : []),
    slot('contents'),
  ];
  return {
    specFile: connector.file,
    title: connector.title,
    description: text(connector.description),
    nav: slot('nav'),
    summary: [
      `Package \`${connector.package.name}\`, client class ${code(clientClassName(connector))}; spec \`${connector.file}\` (seed \`${connector.seed}\`).`,
      `${connector.entities.length} entities, ${pairs.length} entity–action pairs, ${writes ? `${writes} of them writes on ${writable} writable entities` : 'all of them reads'}.`,
      'Every pair is one call of the execute endpoint; the client has one method per pair. Wherever the contract is silent this page says "not specified by the contract" and quotes it.',
      ...(connector.transitionsUnspecified ? [`State transitions: ${NOT_SPECIFIED} ("${prose(connector.transitionsUnspecified)}").`] : []),
    ].join('\n'),
    contents: contents.join('\n'),
    auth: authView(connector),
    schemes: connector.pagination.map((s) => schemeView(connector, s)),
    unpaged: unpaged.length
      ? `How these list-like actions page is ${NOT_SPECIFIED} (their params are not shown): ${unpaged.join(', ')}. Awaiting gives the page; iteration yields that page only.`
      : undefined,
    metaIntro: connector.meta.length ? `The meta of list-like results (under the envelope's meta key, see [envelope](${serviceLink('envelope')})).` : undefined,
    meta: connector.meta.map((m) => shapeView(m, metaAnchor(m.name), 'Meta', 'keys', 'key')),
    entities: connector.entities.map((e) => entityView(ir, connector, e)),
    records: connector.records.map((r) => ({ ...shapeView(r, recordAnchor(r.name), 'Record', 'fields', 'field'), returnedBy: labelled('Returned by ', returning.has(r.name) ? `${returning.get(r.name)!.join(', ')}.` : '') })),
    limits: limits && `The rows of the contract's Limits table that constrain this connector's params${slot('all-limits')}:\n\n${limits}`,
    assumptions: assumptions && `What the spec assumes for this connector where the contract is silent${slot('all-assumptions')}:\n\n${assumptions}`,
    appendix: slot('appendix'),
  };
}
