/**
 * `connector-codegen describe`: the whole spec as one machine-readable catalogue (the inventory that tools
 * and agents read), and a short human summary. Field types use the seeds' vocabulary.
 */
import type { ActionIR, BoundIR, ConnectorIR, DeriveIR, ExcludesIR, InvariantIR, MatchIR, PaginationIR, PropertyIR, SchemaIR, ShapeIR, SortByIR, SpecIR, ValueFormat } from '../../ir.js';

/** A record field, meta key, searchable field or hit field in the catalogue. */
export interface CatalogueField {
  /** Field name. */
  name: string;
  /** Base types joined by `|` in the seeds' vocabulary (`string`, `object|any`, `array`). */
  type: string;
  /** Whether null is allowed. */
  nullable: boolean;
  /** Element type expression of arrays, when known (`string`, `object|null`). */
  items?: string;
  /** Allowed values. */
  enum?: (string | number | boolean)[];
  /** Literal value. */
  const?: string | number | boolean;
  /** Description. */
  description?: string;
  /** Deprecation note. */
  deprecated?: string;
  /** Inner fields of objects or of array elements, when known. */
  fields?: CatalogueField[];
  /** Value format. */
  format?: ValueFormat;
  /** How the value follows from the stored record. */
  derive?: DeriveIR;
}

/** A param in the catalogue. */
export interface CatalogueParam {
  /** Param name. */
  name: string;
  /** Base type in the seeds' vocabulary. */
  type: string;
  /** Whether the caller must give it. */
  required: boolean;
  /** Element type of arrays. */
  items?: string;
  /** Allowed values (for separated lists: allowed entries). */
  enum?: (string | number | boolean)[];
  /** Literal value the param must take. */
  const?: string | number | boolean;
  /** Default. */
  default?: string | number | boolean;
  /** Inclusive minimum. */
  minimum?: number;
  /** Inclusive maximum. */
  maximum?: number;
  /** Minimum length. */
  minLength?: number;
  /** Maximum length. */
  maxLength?: number;
  /** Pattern. */
  pattern?: string;
  /** Minimum entries. */
  minItems?: number;
  /** Maximum entries. */
  maxItems?: number;
  /** Separator of a list held in a string. */
  separator?: string;
  /** Query language of the param's value. */
  queryLanguage?: string;
  /** Description. */
  description?: string;
  /** Deprecation note. */
  deprecated?: string;
  /** Inner params of object params. */
  properties?: CatalogueParam[];
  /** Value format. */
  format?: ValueFormat;
  /** What the param (a flag) leaves out of list results when true. */
  excludes?: ExcludesIR;
  /** How the param sorts list results. */
  sortBy?: SortByIR;
  /** How the param filters list results. */
  matches?: MatchIR;
  /** The record field an interval param constrains. */
  rangeOf?: string;
  /** The interval bound the param sets. */
  bound?: BoundIR;
}

/** Formats a schema's type as an expression in the seeds' notation, including array element types. */
export function typeExpression(s: Pick<SchemaIR, 'types' | 'nullable' | 'items'>): string {
  const base = s.types.map((t) => (t === 'array' && s.items ? `array<${typeExpression(s.items)}>` : t)).join('|');
  return s.nullable ? `${base}|null` : base;
}

function field(p: PropertyIR | (SchemaIR & { name: string })): CatalogueField {
  const inner = p.properties ?? p.items?.properties;
  return {
    name: p.name,
    type: p.types.join('|'),
    nullable: p.nullable,
    ...(p.items ? { items: typeExpression(p.items) } : {}),
    ...(p.enum ? { enum: p.enum } : {}),
    ...(p.const !== undefined ? { const: p.const } : {}),
    ...(p.description ? { description: p.description } : {}),
    ...(p.deprecated ? { deprecated: p.deprecated } : {}),
    ...(inner ? { fields: inner.map(field) } : {}),
    ...(p.format ? { format: p.format } : {}),
    ...(p.derive ? { derive: p.derive } : {}),
  };
}

function param(p: PropertyIR): CatalogueParam {
  const out: CatalogueParam = { name: p.name, type: p.types[0]!, required: p.required };
  if (p.items) out.items = typeExpression(p.items);
  for (const key of ['enum', 'const', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'separator', 'queryLanguage', 'description', 'deprecated', 'format', 'matches', 'excludes', 'sortBy', 'rangeOf', 'bound'] as const) {
    if (p[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = p[key];
  }
  const inner = p.properties ?? p.items?.properties;
  if (inner) out.properties = inner.map(param);
  return out;
}

function shape(s: ShapeIR | undefined) {
  return {
    fields: (s?.properties ?? []).map(field),
    unspecified: s === undefined || s.unspecified !== undefined,
    ...(s?.unspecified ? { unspecifiedReason: s.unspecified } : {}),
    ...(s?.key ? { key: s.key } : {}),
    ...(s?.invariants ? { invariants: s.invariants.map(ruleOnly) } : {}),
  };
}

/** An invariant without its prose (the catalogue lists rules; the reference explains them). */
function ruleOnly(inv: InvariantIR) {
  const { description: _d, note: _n, provenance: _p, assumption: _a, ...rule } = inv;
  return rule;
}

function scheme(p: PaginationIR) {
  return {
    name: p.name,
    style: p.style,
    param: p.param,
    ...(p.sizeParam ? { sizeParam: p.sizeParam } : {}),
    next: p.next,
    stop: p.stop,
    ...(p.description ? { description: p.description } : {}),
    ...(p.assumption ? { assumption: p.assumption } : {}),
    ...(p.provenance ? { provenance: p.provenance } : {}),
  };
}

function action(connector: ConnectorIR, a: ActionIR, ir: SpecIR) {
  const record = connector.records.find((r) => r.name === a.result.record);
  const meta = connector.meta.find((m) => m.name === a.result.meta);
  let result;
  if (a.result.shape === 'hits') result = { shape: 'hits', fields: ir.service.search.hit.map(field), unspecified: false };
  else if (a.result.shape === 'binary') result = { shape: 'binary', fields: [], unspecified: false };
  else {
    result = {
      shape: a.result.shape,
      ...(a.result.record ? { record: a.result.record } : {}),
      ...shape(record),
      ...(a.result.shape === 'list' ? { meta: { ...(meta ? { name: meta.name } : {}), ...shape(meta) } } : {}),
    };
  }
  return {
    name: a.name,
    kind: a.kind,
    description: a.description,
    params: a.params.map(param),
    paramsUnspecified: a.paramsUnspecified !== undefined,
    ...(a.paramsUnspecified ? { paramsUnspecifiedReason: a.paramsUnspecified } : {}),
    pagination: a.pagination,
    ...(a.rangeParam ? { rangeParam: a.rangeParam } : {}),
    ...(a.maxBytes ? { maxBytes: a.maxBytes } : {}),
    ...(a.note ? { note: a.note } : {}),
    ...(a.keyParam ? { keyParam: a.keyParam } : {}),
    ...(a.alternateKeys ? { alternateKeys: a.alternateKeys.fields } : {}),
    ...(a.ordering ? { ordering: a.ordering } : {}),
    ...(a.defaultFilter ? { defaultFilter: { field: a.defaultFilter.field, exclude: a.defaultFilter.exclude, ...(a.defaultFilter.unlessParam ? { unlessParam: a.defaultFilter.unlessParam } : {}) } } : {}),
    ...(a.paramGroups ? { paramGroups: a.paramGroups.map((g) => ({ kind: g.kind, alternatives: g.alternatives })) } : {}),
    ...(a.updateSemantics ? { updateSemantics: a.updateSemantics } : {}),
    result,
  };
}

/** The catalogue printed by `describe --json`. Deterministic: the IR is sorted. */
export function buildCatalogue(ir: SpecIR) {
  return { service: catalogueService(ir), totals: catalogueTotals(ir), connectors: ir.connectors.map((c) => catalogueConnector(c, ir)) };
}

/** A connector's entry in the catalogue (`ir` gives the common contract). */
export function catalogueConnector(c: ConnectorIR, ir: SpecIR) {
  return {
    id: c.id,
    title: c.title,
    seed: c.seed,
    file: c.file,
    description: c.description,
    auth: {
      method: c.auth.method,
      ...(c.auth.unspecified ? { unspecified: c.auth.unspecified } : {}),
      fields: c.auth.fields.map(param),
      variables: c.auth.variables.map((v) => ({
        ...param(v),
        ...(v.defaultUnspecified ? { defaultUnspecified: v.defaultUnspecified } : {}),
        ...(v.suppliedIn ? { suppliedIn: v.suppliedIn } : {}),
        ...(v.suppliedUnspecified ? { suppliedUnspecified: v.suppliedUnspecified } : {}),
      })),
    },
    ...(c.transitionsUnspecified ? { transitionsUnspecified: c.transitionsUnspecified } : {}),
    pagination: c.pagination.map(scheme),
    counts: countsOf(c),
    entities: c.entities.map((e) => ({
      name: e.name,
      ...(e.description ? { description: e.description } : {}),
      ...(e.recordsFrom ? { recordsFrom: e.recordsFrom } : {}),
      ...(e.parent ? { parent: { entity: e.parent.entity, params: Object.fromEntries(e.parent.params.map((p) => [p.param, p.field])) } } : {}),
      ...(e.searchable
        ? {
            searchableFields: e.searchable.properties.map((p) => ({ name: p.name, type: p.types.join('|'), ...(p.enum ? { enum: p.enum } : {}), ...(p.deprecated ? { deprecated: p.deprecated } : {}) })),
            searchableFieldsUnspecified: e.searchable.unspecified !== undefined,
          }
        : {}),
      actions: e.actions.map((a) => action(c, a, ir)),
    })),
  };
}

/** The catalogue's common contract. */
export function catalogueService(ir: SpecIR) {
  const s = ir.service;
  return {
  title: s.title,
    executePath: s.execute.path,
    executeMethod: s.execute.method,
    sourcesPath: s.createSource.path,
    sourcesMethod: s.createSource.method,
    headers: s.execute.headers,
    envelope: s.envelope,
    actions: s.actions,
    writeActions: s.writeActions,
    executeBody: s.executeBody.map(param),
    metaKeys: s.metaKeys,
    search: {
      params: s.search.params.map(param),
      operators: s.search.operators,
      hit: s.search.hit.map(field),
      pagination: scheme(s.search.pagination),
    },
    sourceCreation: { fields: s.sourceCreation.properties.map(field), requiredUnspecified: s.sourceCreation.unspecified },
    authentication: s.authentication,
    errors: { body: s.errors.body, statuses: s.errors.statuses },
    limits: s.limits,
    versioning: s.versioning,
    assumptions: s.assumptions.map((a) => ({ id: a.id, contract: a.contract, source: a.source, value: a.value, at: a.location.file })),
  };
}

/** The catalogue's counts over every connector. */
export function catalogueTotals(ir: SpecIR) {
  const counts = ir.connectors.map(countsOf);
  return {
    connectors: counts.length,
    entities: counts.reduce((n, c) => n + c.entities, 0),
    pairs: counts.reduce((n, c) => n + c.pairs, 0),
    writablePairs: counts.reduce((n, c) => n + c.writablePairs, 0),
  };
}

/** The catalogue's type. */
export type Catalogue = ReturnType<typeof buildCatalogue>;

/** A connector's counts, from its outline (every connector's are read for the totals). */
export function countsOf(c: Pick<ConnectorIR, 'outline'>) {
  const { entities } = c.outline;
  const actions = entities.flatMap((e) => e.actions);
  return {
    entities: entities.length,
    pairs: actions.length,
    writablePairs: actions.filter((a) => a.kind === 'write').length,
    writableEntities: entities.filter((e) => e.actions.some((a) => a.kind === 'write')).length,
  };
}

/** A short human summary: one line per connector. */
export function describeText(ir: SpecIR): string {
  const cat = buildCatalogue(ir);
  const lines = cat.connectors.map(
    (c) => `${c.id.padEnd(20)} ${String(c.counts.entities).padStart(3)} entities ${String(c.counts.pairs).padStart(4)} actions ${String(c.counts.writablePairs).padStart(3)} writes  auth: ${c.auth.method}`,
  );
  lines.push(`${'total'.padEnd(20)} ${String(cat.totals.entities).padStart(3)} entities ${String(cat.totals.pairs).padStart(4)} actions ${String(cat.totals.writablePairs).padStart(3)} writes`);
  lines.push(`assumptions: ${cat.service.assumptions.length} (describe --json lists them)`);
  return lines.join('\n');
}
