/**
 * The semantic diff: walks two IRs side by side — the common contract (compare-service.ts), then each
 * connector's auth_config, paging schemes, record and meta shapes, entities, actions, params, searchable fields
 * and rule data — and reports every change with a check id from checks.ts. Both IRs come from readSpec, so key
 * order and formatting never show up as changes; only line numbers of locations differ.
 */
import type { ActionIR, AuthIR, ConnectorIR, EntityIR, PropertyIR, ShapeIR, SourceLocation, SpecIR } from '../ir.js';
import { checkInfo, type Direction, type Severity } from './checks.js';
import { compareActionPaging, compareScheme, pagingPlaces, type SchemeLookup } from './compare-pagination.js';
import { compareActionRules, compareEntityRules, compareShapeRules, compareVariableRules, ruleKeys } from './compare-rules.js';
import { compareProperties, UNSHOWN_DEFAULT } from './compare-schema.js';
import { compareService } from './compare-service.js';
import { sortChanges, type Change, type Place } from './model.js';
import { ChangeSink, show, type CompareOptions, type Scope } from './sink.js';

/** Options of a comparison: the deprecation policy, package versions, and severity overrides of the config. */
export interface DiffOptions extends CompareOptions {
  /** Check id → the severity the config gives it (`diff.severity`). */
  severity?: Record<string, Severity>;
}

/** Every semantic change from `base` to `head`, sorted; severities overridden as the options say. */
export function compareSpecs(base: SpecIR, head: SpecIR, options: DiffOptions = {}): Change[] {
  const sink = new ChangeSink(options);
  compareService(sink, base, head);
  const headById = new Map(head.connectors.map((c) => [c.id, c]));
  const baseById = new Map(base.connectors.map((c) => [c.id, c]));
  const vocabulary = (ir: SpecIR) => new Map(ir.service.actions.map((a) => [a.name as string, a.description]));
  const descriptions = { base: vocabulary(base), head: vocabulary(head) };
  for (const b of base.connectors) {
    const h = headById.get(b.id);
    if (h) compareConnector(sink, b, h, descriptions);
    else sink.add('connector-removed', { connector: b.id, affects: [b.id] }, `connector \`${b.id}\``, `connector \`${b.id}\` was removed`, { file: b.file, line: 1 });
  }
  for (const h of head.connectors) {
    if (!baseById.has(h.id)) sink.add('connector-added', { connector: h.id, affects: [h.id] }, `connector \`${h.id}\``, `connector \`${h.id}\` was added`, { file: h.file, line: 1 });
  }
  return sortChanges(overrideSeverities(sink.changes(), options.severity ?? {}));
}

/**
 * Applies the config's severity overrides. The bump follows the severity: a check made breaking asks for a major
 * bump, a breaking check made lower for a minor one; otherwise the table's bump stays.
 */
export function overrideSeverities(changes: Change[], overrides: Record<string, Severity>): Change[] {
  return changes.map((c) => {
    const severity = overrides[c.id];
    if (severity === undefined || severity === c.severity) return c;
    const bump = severity === 'breaking' ? 'major' : c.bump === 'major' ? 'minor' : c.bump;
    return { ...c, severity, defaultSeverity: checkInfo(c.id).severity, bump };
  });
}

/** Matches two name-sorted lists by name: calls back for removed, common and added items. */
function byName<T extends { name: string }>(base: readonly T[], head: readonly T[], on: { removed(b: T): void; both(b: T, h: T): void; added(h: T): void }): void {
  const headByName = new Map(head.map((x) => [x.name, x]));
  const baseNames = new Set(base.map((x) => x.name));
  for (const b of base) {
    const h = headByName.get(b.name);
    if (h) on.both(b, h);
    else on.removed(b);
  }
  for (const h of head) if (!baseNames.has(h.name)) on.added(h);
}

/** Keys that only steer the mock's fixtures (fixtures-changed). */
const FIXTURE_KEYS = ['idPrefix', 'idFormat'];

/**
 * Keys of an IR node that differ and that the walk does not compare itself: fixtures-changed for fixture hints,
 * else attribute-changed, to be reviewed.
 */
function otherKeys(sink: ChangeSink, scope: Scope, target: string, b: object, h: object, handled: readonly string[], location: SourceLocation, direction: Direction): void {
  const bb = b as Record<string, unknown>;
  const hh = h as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(bb), ...Object.keys(hh)])].sort()) {
    if (handled.includes(key) || show(bb[key]) === show(hh[key])) continue;
    sink.add(FIXTURE_KEYS.includes(key) ? 'fixtures-changed' : 'attribute-changed', scope, target, `${key} of ${target} changed from ${show(bb[key] ?? null)} to ${show(hh[key] ?? null)}`, location, {
      before: bb[key] ?? null,
      after: hh[key] ?? null,
      direction,
    });
  }
}

/** What the walk of one connector needs besides the connector: its schemes, and the vocabulary's descriptions. */
interface Walk {
  /** Paging schemes of both sides. */
  schemes: SchemeLookup;
  /** Action name → the vocabulary's description, of both sides (an action without its own inherits it). */
  descriptions: { base: Map<string, string>; head: Map<string, string> };
}

function compareConnector(sink: ChangeSink, b: ConnectorIR, h: ConnectorIR, descriptions: Walk['descriptions']): void {
  const scope: Scope = { connector: h.id, affects: [h.id] };
  // Located at the first key whose words changed (the head's line of it), else the file's first line.
  const docKeys = ['title', 'description', 'seed', 'transitionsUnspecified'] as const;
  const firstChanged = docKeys.find((k) => show(b[k]) !== show(h[k]));
  const docsAt = (firstChanged && h.docSources?.[firstChanged]) || { file: h.file, line: 1 };
  sink.docs(scope, `connector \`${h.id}\``, b, h, docKeys, docsAt, 'request');
  compareAuth(sink, scope, b, h);
  byName(b.pagination, h.pagination, { removed: () => {}, added: () => {}, both: (bs, hs) => compareScheme(sink, scope, bs, hs, pagingPlaces(h.entities, hs.name)) });
  compareShapes(sink, scope, 'meta', b.meta, h.meta, { base: b, head: h });
  compareShapes(sink, scope, 'record', b.records, h.records, { base: b, head: h });
  const walk: Walk = { schemes: { base: new Map(b.pagination.map((s) => [s.name, s])), head: new Map(h.pagination.map((s) => [s.name, s])) }, descriptions };
  byName(b.entities, h.entities, {
    removed: (e) => sink.add('entity-removed', { ...scope, entity: e.name }, `entity \`${e.name}\``, `entity \`${e.name}\` was removed`, e.source),
    added: (e) => sink.add('entity-added', { ...scope, entity: e.name }, `entity \`${e.name}\``, `entity \`${e.name}\` was added`, e.source),
    both: (be, he) => compareEntity(sink, { ...scope, entity: he.name }, be, he, walk),
  });
}

function compareAuth(sink: ChangeSink, scope: Scope, connectorBase: ConnectorIR, connectorHead: ConnectorIR): void {
  const b = connectorBase.auth;
  const h = connectorHead.auth;
  // auth_config lives in service.yaml; AuthIR has no location of its own, its fields do.
  const location = [...h.fields, ...h.variables, ...b.fields, ...b.variables][0]?.source ?? { file: connectorHead.file, line: 1 };
  if (b.method !== h.method) {
    sink.add('auth-method-changed', scope, 'auth_config', `auth_config method changed from ${b.method} to ${h.method}`, location, { before: b.method, after: h.method });
  }
  sink.docs(scope, 'auth_config', b, h, ['description', 'unspecified'], location, 'request');
  compareProperties(sink, { kind: 'param', scope, label: 'auth_config field' }, b.fields, h.fields);
  compareProperties(sink, { kind: 'param', scope, label: 'auth_config variable' }, variables(b), variables(h));
  for (const v of h.variables) {
    const was = b.variables.find((x) => x.name === v.name);
    if (!was) continue;
    compareVariableRules(sink, scope, was, v);
    const words = (['defaultUnspecified', 'suppliedUnspecified'] as const).filter((k) => was[k] !== undefined && v[k] !== undefined && was[k] !== v[k]);
    if (was.suppliedUnspecified === undefined !== (v.suppliedUnspecified === undefined)) words.push('suppliedUnspecified');
    if (words.length) {
      const what = words.map((k) => (k === 'defaultUnspecified' ? 'the default' : 'where it is supplied')).join(' and ');
      sink.add('docs-changed', scope, `auth_config variable \`${v.name}\``, `the words on ${what} of auth_config variable \`${v.name}\` changed`, v.source, { direction: 'request' });
    }
  }
}

/**
 * Auth variables as params: a default the contract does not show counts as a default; where the variable is
 * supplied (suppliedIn, compareVariableRules) and the words on it are compared above.
 */
function variables(auth: AuthIR): PropertyIR[] {
  return auth.variables.map(({ defaultUnspecified, suppliedIn: _in, suppliedUnspecified: _words, ...v }) => (defaultUnspecified !== undefined && v.default === undefined ? { ...v, default: UNSHOWN_DEFAULT } : v));
}

/** Actions of `connector` whose result is the shape `name` of `kind`, as places. */
function shapePlaces(connector: ConnectorIR, kind: 'record' | 'meta', name: string): Place[] {
  return connector.entities.flatMap((e) =>
    e.actions.filter((a) => a.result[kind] === name).map((a) => ({ entity: e.name, action: a.name, location: { file: a.source.file, line: a.source.line } })),
  );
}

function compareShapes(sink: ChangeSink, scope: Scope, kind: 'record' | 'meta', base: readonly ShapeIR[], head: readonly ShapeIR[], sides: { base: ConnectorIR; head: ConnectorIR }): void {
  byName(base, head, {
    removed: (s) => sink.add('shape-removed', scope, `${kind} \`${s.name}\``, `${kind} \`${s.name}\` was removed`, s.source),
    added: (s) => sink.add('shape-added', scope, `${kind} \`${s.name}\``, `${kind} \`${s.name}\` was added`, s.source),
    both: (b, h) => {
      const target = `${kind} \`${h.name}\``;
      const places = shapePlaces(sides.head, kind, h.name);
      // Changes to a shape reach every action returning it: compared once, listed with them.
      const shapeSink = sink.withPlaces(places);
      if (b.unspecified === undefined && h.unspecified !== undefined) shapeSink.add('shape-opened', scope, target, `${target} may now carry fields beyond those listed`, h.source);
      else if (b.unspecified !== undefined && h.unspecified === undefined) shapeSink.add('shape-closed', scope, target, `${target} now carries only the fields listed`, h.source);
      const docKeys = ['description', 'note', 'assumption', ...(b.unspecified !== undefined && h.unspecified !== undefined ? ['unspecified'] : [])];
      shapeSink.docs(scope, target, b, h, docKeys, h.source, 'response');
      compareShapeRules(shapeSink, scope, target, b, h, sides);
      otherKeys(shapeSink, scope, target, b, h, ['name', 'properties', 'source', 'unspecified', 'description', 'note', 'assumption', 'provenance', ...ruleKeys('shape')], h.source, 'response');
      compareProperties(shapeSink, { kind: 'response-field', scope, label: `${target} field` }, b.properties, h.properties);
    },
  });
}

function compareEntity(sink: ChangeSink, scope: Scope, b: EntityIR, h: EntityIR, walk: Walk): void {
  const target = `entity \`${h.name}\``;
  sink.docs(scope, target, b, h, ['description', 'note', 'assumption', 'provenance'], h.source, 'request');
  compareEntityRules(sink, scope, target, b, h);
  otherKeys(sink, scope, target, b, h, ['name', 'description', 'note', 'assumption', 'provenance', 'record', 'searchable', 'actions', 'source', ...ruleKeys('entity')], h.source, 'request');
  if (b.searchable && h.searchable) {
    if (b.searchable.unspecified === undefined && h.searchable.unspecified !== undefined) {
      sink.add('searchable-fields-opened', scope, target, `${target} may be searched by fields beyond those listed`, h.source);
    } else if (b.searchable.unspecified !== undefined && h.searchable.unspecified === undefined) {
      sink.add('searchable-fields-closed', scope, target, `${target} may be searched only by the fields listed`, h.source);
    }
    compareProperties(sink, { kind: 'searchable-field', scope, label: 'searchable field' }, b.searchable.properties, h.searchable.properties);
  }
  byName(b.actions, h.actions, {
    removed: (a) => {
      const here = { ...scope, action: a.name };
      if (sink.deprecatedRemoval(a, here)) sink.add('action-removed-after-deprecation', here, `action \`${a.name}\``, `action \`${a.name}\` of ${target} was removed (deprecated${a.deprecatedSince ? ` since ${a.deprecatedSince}` : ''}: ${a.deprecated})`, a.source);
      else sink.add('action-removed', here, `action \`${a.name}\``, `action \`${a.name}\` of ${target} was removed`, a.source);
    },
    added: (a) => sink.add('action-added', { ...scope, action: a.name }, `action \`${a.name}\``, `action \`${a.name}\` was added to ${target}`, a.source),
    both: (ba, ha) => compareAction(sink, { ...scope, action: ha.name }, ba, ha, walk),
  });
}

const resultText = (r: ActionIR['result']) => `${r.shape}${r.record ? ` of ${r.record}` : ''}${r.meta ? ` with meta ${r.meta}` : ''}`;

function compareAction(sink: ChangeSink, scope: Scope, b: ActionIR, h: ActionIR, walk: Walk): void {
  const target = `action \`${h.name}\``;
  const at = h.source;
  if (b.deprecated === undefined && h.deprecated !== undefined) sink.add('action-deprecated', scope, target, `${target} was deprecated: ${h.deprecated}`, at);
  // A description inherited from the vocabulary on both sides changed there: reported once, with the vocabulary.
  const inherited = b.description === walk.descriptions.base.get(b.name) && h.description === walk.descriptions.head.get(h.name);
  const docKeys = [...(inherited ? [] : ['description']), 'note', ...(b.deprecated !== undefined ? ['deprecated', 'deprecatedSince'] : []), ...(b.paramsUnspecified !== undefined && h.paramsUnspecified !== undefined ? ['paramsUnspecified'] : [])];
  sink.docs(scope, target, b, h, docKeys, at, 'request');
  if (show(b.result) !== show(h.result)) {
    sink.add('action-result-changed', scope, target, `${target} now returns ${resultText(h.result)} instead of ${resultText(b.result)}`, at, { before: b.result, after: h.result });
  }
  compareActionPaging(sink, scope, b, h, walk.schemes);
  if (b.paramsUnspecified === undefined && h.paramsUnspecified !== undefined) sink.add('params-opened', scope, target, `${target} accepts params beyond those listed`, at);
  else if (b.paramsUnspecified !== undefined && h.paramsUnspecified === undefined) sink.add('params-closed', scope, target, `${target} accepts only the params listed`, at);
  compareDownload(sink, scope, target, b, h);
  compareActionRules(sink, scope, target, b, h);
  const handled = ['name', 'kind', 'description', 'params', 'paramsUnspecified', 'result', 'pagination', 'rangeParam', 'maxBytes', 'note', 'deprecated', 'deprecatedSince', 'source', ...ruleKeys('action')];
  otherKeys(sink, scope, target, b, h, handled, at, 'request');
  // search takes the uniform search params of service.yaml: compared once, in compareService.
  if (h.name !== 'search') compareProperties(sink, { kind: 'param', scope, label: 'param' }, b.params, h.params);
}

/** The range param and size limit of a download. */
function compareDownload(sink: ChangeSink, scope: Scope, target: string, b: ActionIR, h: ActionIR): void {
  const at = h.source;
  if (b.rangeParam !== h.rangeParam) {
    const extra = { before: b.rangeParam ?? null, after: h.rangeParam ?? null };
    if (b.rangeParam === undefined) sink.add('download-range-param-added', scope, target, `${target} takes a partial-content range in \`${h.rangeParam}\``, at, extra);
    else if (h.rangeParam === undefined) sink.add('download-range-param-removed', scope, target, `${target} no longer takes a partial-content range (was \`${b.rangeParam}\`)`, at, extra);
    else sink.add('download-range-param-changed', scope, target, `${target} takes its range in \`${h.rangeParam}\` instead of \`${b.rangeParam}\``, at, extra);
  }
  if (b.maxBytes !== h.maxBytes) {
    const lowered = h.maxBytes !== undefined && (b.maxBytes === undefined || h.maxBytes < b.maxBytes);
    const text = (n: number | undefined) => (n === undefined ? 'no stated limit' : `${n} bytes`);
    sink.add(lowered ? 'download-max-bytes-lowered' : 'download-max-bytes-raised', scope, target, `${target} returns at most ${text(h.maxBytes)} (was ${text(b.maxBytes)})`, at, { before: b.maxBytes ?? null, after: h.maxBytes ?? null });
  }
}
