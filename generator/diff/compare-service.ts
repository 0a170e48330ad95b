/**
 * The common contract in the diff (service.yaml): what every generated client embeds — the endpoints (method,
 * path and its placeholders, version segment, headers, body), the bearer header, the execute and source-creation
 * bodies, the envelope, the error body and statuses, the action vocabulary, the uniform search (params, operators,
 * sort element, hit, paging) and the assumptions the runtime is built on. Each change reaches every connector
 * whose package embeds the item (`affects`).
 */
import type { ConnectorIR, EndpointIR, LimitIR, PropertyIR, SourceLocation, SpecIR } from '../ir.js';
import { compareScheme } from './compare-pagination.js';
import { compareProperties } from './compare-schema.js';
import { show, type ChangeSink, type Scope } from './sink.js';

const hasSearch = (c: ConnectorIR) => c.entities.some((e) => e.actions.some((a) => a.name === 'search'));

/** Assumptions the runtime reads responses by; their other checks (envelope, errors, sort) are elsewhere. */
const TRANSPORT_ASSUMPTIONS = new Set(['download', 'requestIdHeader', 'searchResponse', 'sourceCreationResponse']);
const CLASSIFIED_ASSUMPTIONS = new Set(['envelope', 'errorBody', 'errorStatuses', 'sortElement']);

/** Compares the common contract of `base` and `head`. */
export function compareService(sink: ChangeSink, base: SpecIR, head: SpecIR): void {
  const connectors = [...base.connectors, ...head.connectors];
  const all: Scope = { affects: [...new Set(connectors.map((c) => c.id))] };
  const [b, h] = [base.service, head.service];
  const serviceLocation = assumptionLocation(head, 'envelope') ?? h.search.pagination.source;
  const at = h.sources['service'] ?? { file: serviceLocation.file, line: 1 };

  sink.docs(all, 'service', b, h, ['title', 'description', 'seed', 'events'], at, 'response');
  if (b.envelope.records !== h.envelope.records || b.envelope.meta !== h.envelope.meta) {
    sink.add('envelope-changed', all, 'response envelope', `response envelope changed from records '${b.envelope.records}', meta '${b.envelope.meta}' to records '${h.envelope.records}', meta '${h.envelope.meta}'`, serviceLocation, { before: b.envelope, after: h.envelope });
  }
  compareTransport(sink, all, base, head, at);
  compareVocabulary(sink, base, head, h.sources['actions'] ?? at);
  compareProperties(sink, { kind: 'param', scope: all, label: 'execute body field' }, b.executeBody, h.executeBody);
  compareProperties(sink, { kind: 'param', scope: all, label: 'source-creation body field' }, creationParams(b.sourceCreation), creationParams(h.sourceCreation), '', h.sources['sourceCreation']);
  sink.docs(all, 'source-creation body', b.sourceCreation, h.sourceCreation, ['description', 'note', 'assumption', ...(b.sourceCreation.unspecified !== undefined && h.sourceCreation.unspecified !== undefined ? ['unspecified'] : [])], h.sourceCreation.source, 'request');
  compareLimitWords(sink, base, head, h.sources['limits'] ?? at);
  compareErrors(sink, all, base, head);
  compareSearch(sink, base, head);
  compareAssumptions(sink, all, base, head);
}

/**
 * The Limits table's words (its constraints are the params' bounds, compared there), in any row order. A row's words
 * are printed in the reference of the connectors whose params it constrains, so a changed row reaches those packages
 * only: a search row the connectors with search, a row that names no param every connector.
 */
function compareLimitWords(sink: ChangeSink, base: SpecIR, head: SpecIR, at: SourceLocation): void {
  const words = (l: LimitIR) => show([l.where, l.limit, l.unspecified ?? null]);
  const [before, after] = [new Set(base.service.limits.map(words)), new Set(head.service.limits.map(words))];
  const changed = [...base.service.limits.filter((l) => !after.has(words(l))), ...head.service.limits.filter((l) => !before.has(words(l)))];
  if (changed.length === 0) return;
  const connectors = [...base.connectors, ...head.connectors];
  const reached = new Set<string>();
  for (const row of changed) {
    const owners = row.appliesTo.map((target) => target.split('/')[0]!);
    for (const c of connectors) if (owners.length === 0 || owners.includes(c.id) || (owners.includes('search') && hasSearch(c))) reached.add(c.id);
  }
  sink.add('docs-changed', { affects: [...reached].sort() }, 'Limits table', 'words of the Limits table changed', at, { direction: 'request' });
}

/** The source-creation fields as the params clients send: optional while the spec does not show which are required. */
function creationParams(shape: SpecIR['service']['sourceCreation']): PropertyIR[] {
  return shape.unspecified === undefined ? shape.properties : shape.properties.map((p) => ({ ...p, required: false }));
}

function assumptionLocation(ir: SpecIR, id: string): SourceLocation | undefined {
  return ir.service.assumptions.find((a) => a.id === id)?.location;
}

/** `{source_id}` → `{}`: the path as the wire sees it. */
const wirePath = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
const placeholders = (path: string) => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]!);

function compareTransport(sink: ChangeSink, all: Scope, base: SpecIR, head: SpecIR, at: SourceLocation): void {

  const [b, h] = [base.service, head.service];
  const segmentChanged = b.versioning.pathSegment !== h.versioning.pathSegment;
  const versioning = h.sources['versioning'] ?? at;
  if (segmentChanged) {
    sink.add('version-segment-changed', all, 'version segment', `the version segment of the service paths changed from ${b.versioning.pathSegment} to ${h.versioning.pathSegment}`, versioning, { before: b.versioning.pathSegment, after: h.versioning.pathSegment });
  }
  sink.docs(all, 'versioning', b.versioning, h.versioning, ['description', 'unspecified'], versioning, 'request');
  for (const [name, be, he] of [['execute', b.execute, h.execute], ['createSource', b.createSource, h.createSource]] as const) {
    compareEndpoint(sink, all, name, be, he, segmentChanged ? [b.versioning.pathSegment, h.versioning.pathSegment] : undefined, h.sources[`endpoints.${name}`] ?? at);
  }
  const auth = h.sources['authentication'] ?? at;
  const [ba, ha] = [b.authentication, h.authentication];
  if (ba.header.toLowerCase() !== ha.header.toLowerCase() || ba.scheme.toLowerCase() !== ha.scheme.toLowerCase()) {
    sink.add('auth-scheme-changed', all, 'authentication', `the bearer token is sent as '${ha.header}: ${ha.scheme} …' instead of '${ba.header}: ${ba.scheme} …'`, auth, { before: `${ba.header}: ${ba.scheme}`, after: `${ha.header}: ${ha.scheme}` });
  }
  sink.docs(all, 'authentication', ba, ha, ['description', 'unspecified', 'placeholders'], auth, 'request');
}

function compareEndpoint(sink: ChangeSink, all: Scope, name: string, b: EndpointIR, h: EndpointIR, segment: [string, string] | undefined, at: SourceLocation): void {
  const target = `endpoint \`${name}\``;
  if (b.method.toUpperCase() !== h.method.toUpperCase()) sink.add('endpoint-method-changed', all, target, `${target} is called with ${h.method} instead of ${b.method}`, at, { before: b.method, after: h.method });
  // A path change that is exactly the version segment's change is reported once, as version-segment-changed.
  const explained = segment !== undefined && b.path.replace(segment[0], segment[1]) === h.path;
  if (wirePath(b.path) !== wirePath(h.path) && !explained) {
    sink.add('endpoint-path-changed', all, target, `${target} moved from ${b.path} to ${h.path}`, at, { before: b.path, after: h.path });
  } else if (b.path !== h.path && !explained) {
    sink.add('endpoint-path-param-renamed', all, target, `${target} names its path placeholders ${placeholders(h.path).map((p) => `{${p}}`).join(', ')} instead of ${placeholders(b.path).map((p) => `{${p}}`).join(', ')}`, at, { before: b.path, after: h.path });
  }
  if (b.body !== h.body) sink.add('endpoint-body-changed', all, target, `${target} takes the ${h.body} instead of the ${b.body}`, at, { before: b.body, after: h.body });
  // Header names are case-insensitive in HTTP; in values, a placeholder (<AUTH_TOKEN>) is not sent as written.
  const headers = (e: EndpointIR) => new Map(Object.entries(e.headers).map(([k, v]) => [k.toLowerCase(), { name: k, value: v }]));
  const wire = (value: string) => value.replace(/<[^>]*>/g, '<>').trim();
  const [bh, hh] = [headers(b), headers(h)];
  for (const [key, { name: header, value }] of [...bh].sort()) {
    const now = hh.get(key);
    if (!now) sink.add('endpoint-header-removed', all, target, `${target} no longer requires header ${header}`, at, { before: value });
    else if (wire(now.value) !== wire(value)) sink.add('endpoint-header-changed', all, target, `header ${header} of ${target} must now be '${now.value}' instead of '${value}'`, at, { before: value, after: now.value });
  }
  for (const [key, { name: header, value }] of [...hh].sort()) {
    if (!bh.has(key)) sink.add('endpoint-header-added', all, target, `${target} now requires header ${header}: ${value}`, at, { after: value });
  }
  sink.docs(all, target, b, h, ['description', 'response', 'pathParams'], at, 'request');
}

/** Action vocabulary: a read that becomes a write (or back) changes whether installed clients retry it. */
function compareVocabulary(sink: ChangeSink, base: SpecIR, head: SpecIR, at: SourceLocation): void {
  const headActions = new Map(head.service.actions.map((a) => [a.name, a]));
  for (const b of base.service.actions) {
    const h = headActions.get(b.name);
    if (!h) continue; // an action no connector uses (any use would not validate)
    const affects = [...new Set([...base.connectors, ...head.connectors].filter((c) => c.entities.some((e) => e.actions.some((a) => a.name === b.name))).map((c) => c.id))];
    const scope: Scope = { affects, action: b.name };
    const target = `action vocabulary \`${b.name}\``;
    if (b.kind !== h.kind) sink.add(h.kind === 'write' ? 'action-became-write' : 'action-became-read', scope, target, `\`${b.name}\` is a ${h.kind} action now (was a ${b.kind})`, at, { before: b.kind, after: h.kind });
    sink.docs(scope, target, b, h, ['description'], at, 'request');
  }
}

function compareErrors(sink: ChangeSink, all: Scope, base: SpecIR, head: SpecIR): void {
  const [b, h] = [base.service.errors, head.service.errors];
  compareProperties(sink, { kind: 'response-field', scope: all, label: 'error body field' }, b.fields, h.fields);
  const at = assumptionLocation(head, 'errorStatuses') ?? assumptionLocation(head, 'envelope')!;
  const before = assumptionLocation(base, 'errorStatuses') ?? at;
  const normalized = (text: string) => text.replace(/\s+/g, ' ').trim();
  for (const status of Object.keys(b.statuses).sort()) {
    if (!(status in h.statuses)) sink.add('error-status-removed', all, `error status ${status}`, `error status ${status} (${b.statuses[status]}) is no longer used`, before, { before: b.statuses[status] });
    else if (normalized(b.statuses[status]!) !== normalized(h.statuses[status]!)) {
      sink.add('error-status-changed', all, `error status ${status}`, `error status ${status} now means "${h.statuses[status]}" (was "${b.statuses[status]}")`, at, { before: b.statuses[status], after: h.statuses[status] });
    }
  }
  for (const status of Object.keys(h.statuses).sort()) {
    if (!(status in b.statuses)) sink.add('error-status-added', all, `error status ${status}`, `the service may answer with error status ${status} (${h.statuses[status]})`, at, { after: h.statuses[status] });
  }
}

function compareSearch(sink: ChangeSink, base: SpecIR, head: SpecIR): void {
  const searching = [...new Set([...base.connectors, ...head.connectors].filter(hasSearch).map((c) => c.id))];
  const scope: Scope = { affects: searching, action: 'search' };
  const [b, h] = [base.service.search, head.service.search];
  compareProperties(sink, { kind: 'param', scope, label: 'search param' }, b.params, h.params);
  compareProperties(sink, { kind: 'response-field', scope, label: 'search hit field' }, b.hit, h.hit);
  compareScheme(sink, scope, b.pagination, h.pagination, []);
  const at = head.service.sources['search.operators'] ?? h.pagination.source;
  const headOps = new Map(h.operators.map((o) => [o.name, o]));
  const baseOps = new Set(b.operators.map((o) => o.name));
  for (const op of b.operators) {
    const now = headOps.get(op.name);
    const target = `search operator \`${op.name}\``;
    if (!now) sink.add('search-operator-removed', scope, target, `${target} was removed`, at, { before: op.operand });
    else {
      if (now.operand !== op.operand) sink.add('search-operator-operand-changed', scope, target, `${target} takes ${now.operand} instead of ${op.operand}`, at, { before: op.operand, after: now.operand });
      sink.docs(scope, target, op, now, ['description'], at, 'request');
    }
  }
  for (const op of h.operators) if (!baseOps.has(op.name)) sink.add('search-operator-added', scope, `search operator \`${op.name}\``, `search operator \`${op.name}\` (${op.operand}) was added`, at, { after: op.operand });

  const sortAt = assumptionLocation(head, 'sortElement') ?? at;
  const [bs, hs] = [b.sort, h.sort];
  if (bs.text !== hs.text) {
    if (bs.key !== undefined && bs.key === hs.key && bs.directions && hs.directions) {
      for (const d of bs.directions.filter((x) => !hs.directions!.includes(x))) sink.add('sort-direction-removed', scope, 'sort element', `a sort element no longer takes "${d}"`, sortAt, { before: d });
      for (const d of hs.directions.filter((x) => !bs.directions!.includes(x))) sink.add('sort-direction-added', scope, 'sort element', `a sort element also takes "${d}"`, sortAt, { after: d });
    } else sink.add('sort-element-changed', scope, 'sort element', `a sort element is ${hs.text} instead of ${bs.text}`, sortAt, { before: bs.text, after: hs.text });
  }
}

/** The words and values of the assumptions: classified ones are compared by their own checks above. */
function compareAssumptions(sink: ChangeSink, all: Scope, base: SpecIR, head: SpecIR): void {
  const service = (ir: SpecIR) => new Map(ir.service.assumptions.filter((a) => !a.id.includes('/')).map((a) => [a.id, a]));
  const [b, h] = [service(base), service(head)];
  const words = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : show(v));
  for (const id of [...new Set([...b.keys(), ...h.keys()])].sort()) {
    const [ba, ha] = [b.get(id), h.get(id)];
    const at = (ha ?? ba)!.location;
    const target = `assumption \`${id}\``;
    if (!ha || !ba) {
      // Stated where none was: clients lose nothing. Dropped: what clients were built on is no longer said (a
      // classified assumption's removal is reported by its own checks).
      if (!ha && !CLASSIFIED_ASSUMPTIONS.has(id)) {
        const id2 = TRANSPORT_ASSUMPTIONS.has(id) ? 'transport-assumption-changed' : 'assumption-changed';
        sink.add(id2, all, target, `${target} was removed (it said: ${words(ba!.value)})`, ba!.location, { before: ba!.value, direction: 'response' });
      } else sink.add('docs-changed', all, target, `${target} was ${ba ? 'removed' : 'added'}`, at, { direction: 'response' });
      continue;
    }
    sink.docs(all, target, ba, ha, ['contract', 'source'], at, 'response');
    if (CLASSIFIED_ASSUMPTIONS.has(id) || words(ba.value) === words(ha.value)) continue;
    const id2 = TRANSPORT_ASSUMPTIONS.has(id) ? 'transport-assumption-changed' : 'assumption-changed';
    sink.add(id2, all, target, `${target} changed from ${words(ba.value)} to ${words(ha.value)}`, at, { before: ba.value, after: ha.value, direction: 'response' });
  }
}
