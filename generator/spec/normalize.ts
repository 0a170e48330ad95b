/**
 * Phase 2 — normalize: raw spec data → IR. Resolves `common` params, defaults and references, sorts every
 * list, and reports what cannot be resolved (unknown action, write not allowed, unknown reference, bad type
 * expression, duplicate names). Each IR node remembers where it came from (`Origins`) so checks.ts can point
 * at the exact key.
 */
import type { Diagnostic, DiagnosticCode, DiagnosticSubject } from './diagnostics.js';
import { actionRank, type Literal } from '../ir.js';
import type {
  ActionIR,
  ActionName,
  AssumptionIR,
  AuthIR,
  ConnectorIR,
  ConnectorOutline,
  EntityIR,
  IdFormat,
  InvariantIR,
  LimitIR,
  OrderingIR,
  PaginationIR,
  PropertyIR,
  SchemaIR,
  ServiceIR,
  ShapeIR,
  SortElementIR,
  SourceLocation,
  SpecIR,
} from '../ir.js';
import type { LoadedSpec } from './load.js';
import type { CachedEntry } from '../cache/ir-cache.js';
import { DEFAULT_PACKAGES } from '../config/config.js';
import { applyPackaging } from '../config/packaging.js';
import type { RawAction, RawConnector, RawField, RawInvariant, RawOrdering, RawPagination, RawParam, RawService, RawShape } from './raw.js';
import { buildRules, resolveKeyParam, ruleDocs } from './normalize-rules.js';
import { parseTypeExpr, type BaseType } from './type-expr.js';
import { didYouMean } from '../lib/suggest.js';
import { diagnosticAt, keyLocation, span, specStem, type DataPath, type SourceFile } from './yaml-source.js';

/** Where each IR node was written: lets later checks locate a node or one of its keys. */
export class Origins {
  private readonly map = new WeakMap<object, { source: SourceFile; path: DataPath }>();
  /** Records that `node` was built from `path` in `source`. */
  set<T extends object>(node: T, source: SourceFile, path: DataPath): T {
    this.map.set(node, { source, path });
    return node;
  }
  /** A diagnostic at `node` (its key), or at one of its keys (`sub`) when that key is written; it is `about` the node. */
  diagnostic(node: object, code: DiagnosticCode, message: string, sub?: DataPath, severity?: 'error' | 'warning'): Diagnostic {
    const origin = this.map.get(node);
    if (!origin) throw new Error(`internal: no origin for ${code} ${message}`);
    return { ...diagnosticAt(origin.source, sub ? [...origin.path, ...sub] : origin.path, code, message, { severity }), about: this.subject(node)! };
  }
  /** The spec item `node` was built from, for diagnostics located elsewhere that are about it (see collapseDiagnostics). */
  subject(node: object): DiagnosticSubject | undefined {
    const origin = this.map.get(node);
    if (!origin) return undefined;
    return { key: `${origin.source.file}#${origin.path.join('/')}`, file: origin.source.file, lines: span(origin.source, origin.path) };
  }
}

/** What normalization produced. */
export interface NormalizeResult {
  /** The IR; absent when service.yaml itself is unusable. */
  ir?: SpecIR;
  /** Problems found while resolving. */
  diagnostics: Diagnostic[];
  /** Origins of IR nodes (of the connectors normalized here: not of those from the IR cache). */
  origins: Origins;
  /** The connectors normalized here (not from the IR cache), with what the IR cache keeps of them. */
  fresh: Map<ConnectorIR, NormalizedConnector>;
}

/** A connector normalized in this run: its file, and what its file alone gave besides its IR. */
export interface NormalizedConnector {
  /** Its spec file. */
  source: SourceFile;
  /** What normalizing it reported (checks.ts adds what checking it reports). */
  diagnostics: Diagnostic[];
  /** Its assumptions, sorted, as they join the spec-wide list. */
  assumptions: AssumptionIR[];
  /** Every location in its IR (made by FileContext.loc), in the order made. */
  locations: SourceLocation[];
}

/**
 * A connector's IR as the IR cache (cache/ir-cache.ts) gives it back when its nodes are read: what normalizing its file
 * gave before. Its diagnostics and assumptions come with the entry's head (CachedHead).
 */
export interface CachedConnector {
  /** Its IR, before packaging. */
  connector: Omit<ConnectorIR, 'package'>;
  /** Every location in its IR, in the order its build made them (NormalizedConnector.locations), without their lines. */
  locations: SourceLocation[];
}

/** The IR cache's answer for a connector's file, when it has one. */
export type CachedConnectors = (source: SourceFile) => CachedEntry | undefined;

const LIST_LIKE: readonly string[] = ['list', 'api_search'];
const DEFAULT_SHAPE: Record<ActionName, ActionIR['result']['shape']> = {
  list: 'list',
  api_search: 'list',
  get: 'single',
  create: 'single',
  update: 'single',
  delete: 'single',
  search: 'hits',
  download: 'binary',
};

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Builds IR nodes from one file, reporting into a shared list. */
export class FileContext {
  /** The connector's default identifier format for fixtures (defaults.idFormat). */
  defaultIdFormat: IdFormat | undefined;
  constructor(
    readonly source: SourceFile,
    readonly origins: Origins,
    readonly diagnostics: Diagnostic[],
    readonly assumptions: AssumptionIR[],
    readonly assumptionPrefix: string,
    /** Every location made through `loc`, in order (the IR cache keeps them: see normalize). */
    readonly locations: SourceLocation[] = [],
  ) {}

  report(path: DataPath, code: DiagnosticCode, message: string, severity?: 'error' | 'warning'): void {
    this.diagnostics.push(diagnosticAt(this.source, path, code, message, { severity }));
  }

  /** The same context building from another file (a connector's part of service.yaml): reports and locations go there. */
  in(source: SourceFile): FileContext {
    const ctx = new FileContext(source, this.origins, this.diagnostics, this.assumptions, this.assumptionPrefix, this.locations);
    ctx.defaultIdFormat = this.defaultIdFormat;
    return ctx;
  }

  /** Where `path` is written (its line located only when read). */
  loc(path: DataPath): SourceLocation {
    const location = keyLocation(this.source, path);
    this.locations.push(location);
    return location;
  }

  /** Collects an `assumption:` written on any node into the spec-wide list. */
  noteAssumption(path: DataPath, text: string | undefined, provenance?: string): void {
    if (!text) return;
    this.assumptions.push({
      id: `${this.assumptionPrefix}/${path.join('/')}`,
      contract: 'Not shown by the contract.',
      source: provenance ?? 'Assumption written in the spec.',
      value: text,
      location: this.loc(path),
    });
  }

  /** Enum values, each once: a repeated value is reported (SPEC012) and dropped. */
  enumValues(values: Literal[], path: DataPath): Literal[] {
    const seen = new Map<Literal, number>();
    values.forEach((v, i) => {
      const first = seen.get(v);
      if (first === undefined) seen.set(v, i);
      else this.report([...path, i], 'SPEC012', `duplicate enum value ${JSON.stringify(v)} (also item ${first} of the enum)`);
    });
    return [...seen.keys()];
  }

  /** A type expression → base types, nullability and element shape; reports SPEC019. */
  typeOf(expr: string, path: DataPath): Pick<SchemaIR, 'types' | 'nullable' | 'items'> {
    const parsed = parseTypeExpr(expr);
    if ('error' in parsed) {
      this.report(path, 'SPEC019', `${parsed.error} at ${path.join('.')}`);
      return { types: ['any'], nullable: false };
    }
    const toSchema = (p: typeof parsed): Pick<SchemaIR, 'types' | 'nullable' | 'items'> => ({
      types: p.types,
      nullable: p.nullable,
      ...(p.items ? { items: toSchema(p.items) as SchemaIR } : {}),
    });
    return toSchema(parsed);
  }

  /** A record field, meta key or searchable field. */
  field(name: string, raw: RawField, path: DataPath): PropertyIR {
    const obj = typeof raw === 'string' ? { type: raw } : raw;
    const typePath = typeof raw === 'string' ? path : [...path, 'type'];
    const t = this.typeOf(obj.type, typePath);
    const prop: PropertyIR = { name, required: true, source: this.loc(path), ...t };
    copyDocs(prop, obj);
    if (obj.enum) prop.enum = this.enumValues(obj.enum, typeof raw === 'string' ? path : [...path, 'enum']);
    if (obj.const !== undefined) prop.const = obj.const;
    if (obj.items !== undefined) {
      const inner = this.field('items', obj.items, [...path, 'items']);
      const { name: _n, required: _r, source: _s, ...schema } = inner;
      prop.items = schema;
    }
    if (obj.fields) prop.properties = this.fields(obj.fields, [...path, 'fields']);
    if (obj.format) prop.format = obj.format;
    if (obj.derive) prop.derive = { ...(obj.derive.from !== undefined ? { from: obj.derive.from } : {}), ...(obj.derive.value !== undefined ? { value: obj.derive.value } : {}) };
    if (obj.unspecified) {
      prop.unspecified = obj.unspecified;
      if (!obj.fields) this.report([...path, 'unspecified'], 'SPEC030', `'unspecified' of field '${name}' says which inner fields are not shown; give the ones that are under 'fields'`);
    }
    this.noteAssumption(path, obj.assumption, obj.provenance);
    return this.origins.set(prop, this.source, path);
  }

  fields(raw: Record<string, RawField>, path: DataPath): PropertyIR[] {
    return Object.entries(raw)
      .map(([n, f]) => this.field(n, f, [...path, n]))
      .sort(byName);
  }

  shape(name: string, raw: RawShape, path: DataPath): ShapeIR {
    const shape: ShapeIR = { name, properties: raw.fields ? this.fields(raw.fields, [...path, 'fields']) : [], source: this.loc(path) };
    if (raw.description) shape.description = raw.description;
    if (raw.unspecified) shape.unspecified = raw.unspecified;
    if (raw.note) shape.note = raw.note;
    if (raw.assumption) shape.assumption = raw.assumption;
    if (raw.idPrefix) shape.idPrefix = raw.idPrefix;
    if (raw.idFormat ?? this.defaultIdFormat) shape.idFormat = raw.idFormat ?? this.defaultIdFormat;
    if (raw.key) shape.key = raw.key;
    if (raw.invariants) shape.invariants = raw.invariants.flatMap((inv, i) => this.invariant(inv, [...path, 'invariants', i]) ?? []);
    this.noteAssumption(path, raw.assumption, raw.provenance);
    return this.origins.set(shape, this.source, path);
  }

  /** One invariant; reports (SPEC030) the keys its kind needs but lacks, or carries but does not use. */
  invariant(raw: RawInvariant, path: DataPath): InvariantIR | undefined {
    const needs: Record<RawInvariant['kind'], (keyof RawInvariant)[]> = { iff: ['field', 'left', 'op', 'right'], compare: ['left', 'op', 'right'], accountOnly: ['account', 'fields'] };
    const own = needs[raw.kind];
    const missing = own.filter((k) => raw[k] === undefined);
    const extra = (['field', 'left', 'op', 'right', 'account', 'fields'] as const).filter((k) => raw[k] !== undefined && !own.includes(k));
    if (missing.length || extra.length) {
      this.report(path, 'SPEC030', `invariant of kind '${raw.kind}' ${missing.length ? `needs ${missing.join(', ')}` : ''}${missing.length && extra.length ? ' and ' : ''}${extra.length ? `does not take ${extra.join(', ')}` : ''}`);
      return undefined;
    }
    this.noteAssumption(path, raw.assumption, raw.provenance);
    const docs = { ...(raw.description ? { description: raw.description } : {}), ...ruleDocs(raw) };
    const invariant: InvariantIR =
      raw.kind === 'iff'
        ? { kind: 'iff', field: raw.field!, left: raw.left!, op: raw.op!, right: raw.right!, ...docs }
        : raw.kind === 'compare'
          ? { kind: 'compare', left: raw.left!, op: raw.op!, right: raw.right!, ...docs }
          : { kind: 'accountOnly', account: raw.account!, fields: [...raw.fields!].sort(), ...docs };
    return this.origins.set(invariant, this.source, path);
  }

  /** An ordering as written (action's own, or the connector default). */
  ordering(raw: RawOrdering, path: DataPath): OrderingIR[] {
    return raw.map((o, i) => this.origins.set({ field: o.field, direction: o.direction }, this.source, [...path, i]));
  }

  /** A param; `common` resolves against the connector-level params. */
  param(name: string, raw: RawParam, path: DataPath, common: Record<string, RawParam> | undefined, commonPath: DataPath): PropertyIR {
    if (raw === 'common') {
      const shared = common?.[name];
      if (shared === undefined || shared === 'common') {
        this.report(path, 'SPEC018', `param '${name}' is marked common but the file's params define no '${name}'${didYouMean(name, Object.keys(common ?? {}))}`);
        return this.origins.set({ name, required: false, types: ['any'], nullable: false, source: this.loc(path) }, this.source, path);
      }
      // Located at the shared definition: that is where its constraints are written.
      const resolved = this.param(name, shared, [...commonPath, name], undefined, commonPath);
      return this.origins.set({ ...resolved, source: this.loc(path), common: this.loc([...commonPath, name]) }, this.source, [...commonPath, name]);
    }
    const obj = typeof raw === 'string' ? { type: raw } : raw;
    const typePath = typeof raw === 'string' ? path : [...path, 'type'];
    const t = this.typeOf(obj.type, typePath);
    if (t.types.length !== 1 || t.nullable || t.types[0] === 'any') {
      this.report(typePath, 'SPEC019', `param '${name}' takes one base type (string, integer, number, boolean, object, array), not '${obj.type}'`);
    }
    const prop: PropertyIR = { name, required: obj.required ?? false, source: this.loc(path), types: [t.types[0] ?? 'any'], nullable: false };
    if (t.items) prop.items = t.items;
    copyDocs(prop, obj);
    if (obj.enum) prop.enum = this.enumValues(obj.enum, [...path, 'enum']);
    for (const key of ['const', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'separator', 'queryLanguage'] as const) {
      if (obj[key] !== undefined) (prop as unknown as Record<string, unknown>)[key] = obj[key];
    }
    if (obj.items !== undefined) {
      const inner = this.param('items', obj.items, [...path, 'items'], undefined, commonPath);
      const { name: _n, required: _r, source: _s, ...schema } = inner;
      prop.items = schema;
    }
    if (obj.properties) prop.properties = this.params(obj.properties, [...path, 'properties'], undefined, commonPath);
    if (obj.format) prop.format = obj.format;
    if (obj.rangeOf) prop.rangeOf = obj.rangeOf;
    if (obj.bound) prop.bound = { side: obj.bound.side, inclusive: obj.bound.inclusive, ...(obj.bound.inclusiveParam ? { inclusiveParam: obj.bound.inclusiveParam } : {}) };
    if (obj.matches) {
      prop.matches = { fields: [...obj.matches.fields].sort(), mode: obj.matches.mode, caseSensitive: obj.matches.caseSensitive, ...ruleDocs(obj.matches) };
      this.noteAssumption([...path, 'matches'], obj.matches.assumption, obj.matches.provenance);
    }
    if (obj.excludes) {
      const x = obj.excludes;
      const values = [...x.values].sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
      prop.excludes = this.origins.set({ field: x.field, values, ...ruleDocs(x) }, this.source, [...path, 'excludes']);
      this.noteAssumption([...path, 'excludes'], x.assumption, x.provenance);
    }
    if (obj.sortBy) {
      const s = obj.sortBy;
      const fields = Object.entries(s.fields).map(([value, field]) => ({ value, field })).sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
      prop.sortBy = this.origins.set(
        { fields, syntax: s.syntax ?? 'plain', ...(s.directionParam ? { directionParam: s.directionParam } : {}), ...(s.descending ? { descending: [...s.descending] } : {}), defaultDirection: s.defaultDirection ?? 'asc', ...ruleDocs(s) },
        this.source,
        [...path, 'sortBy'],
      );
      this.noteAssumption([...path, 'sortBy'], s.assumption, s.provenance);
    }
    this.noteAssumption(path, obj.assumption, obj.provenance);
    return this.origins.set(prop, this.source, path);
  }

  params(raw: Record<string, RawParam>, path: DataPath, common: Record<string, RawParam> | undefined, commonPath: DataPath): PropertyIR[] {
    return Object.entries(raw)
      .map(([n, p]) => this.param(n, p, [...path, n], common, commonPath))
      .sort(byName);
  }

  pagination(name: string, raw: RawPagination, path: DataPath): PaginationIR {
    const scheme: PaginationIR = {
      name,
      style: raw.style,
      param: raw.param,
      // Built key by key (not spread) so the IR's key order never follows the YAML's.
      next: {
        from: raw.next.from,
        ...(raw.next.path !== undefined ? { path: raw.next.path } : {}),
        ...(raw.next.queryParam !== undefined ? { queryParam: raw.next.queryParam } : {}),
        ...(raw.next.start !== undefined ? { start: raw.next.start } : {}),
      },
      stop: raw.stop.map((s) => ({ when: s.when, ...(s.key !== undefined ? { key: s.key } : {}) })),
      source: this.loc(path),
    };
    if (raw.sizeParam) scheme.sizeParam = raw.sizeParam;
    if (raw.previousParam) scheme.previousParam = raw.previousParam;
    if (raw.description) scheme.description = raw.description;
    if (raw.assumption) scheme.assumption = raw.assumption;
    if (raw.provenance) scheme.provenance = raw.provenance;
    this.noteAssumption(path, raw.assumption, raw.provenance);
    return this.origins.set(scheme, this.source, path);
  }
}

function copyDocs(target: SchemaIR, raw: { description?: string; deprecated?: string; deprecatedSince?: string; note?: string; provenance?: string; assumption?: string }) {
  if (raw.description) target.description = raw.description;
  Object.assign(target, deprecation(raw));
  if (raw.note) target.note = raw.note;
  if (raw.provenance) target.provenance = raw.provenance;
  if (raw.assumption) target.assumption = raw.assumption;
}

/** `deprecated` and `deprecatedSince` of an item; a stated release alone deprecates it too. */
function deprecation(raw: { deprecated?: string; deprecatedSince?: string }): { deprecated?: string; deprecatedSince?: string } {
  if (raw.deprecatedSince) return { deprecated: raw.deprecated || `Deprecated since ${raw.deprecatedSince}.`, deprecatedSince: raw.deprecatedSince };
  return raw.deprecated ? { deprecated: raw.deprecated } : {};
}

/**
 * The error body sketch of assumptions.errorBody (`message: string`, `errors: [{ field: string }]`) as typed
 * fields: a string is a type expression (any other string is a string field), an array of one element an array
 * of that element, a map an object with those fields, a number or boolean a field of its type.
 */
function sketchFields(value: unknown, ctx: FileContext, path: DataPath): PropertyIR[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>)
    .map(([name, v]) => ({ name, required: true, source: ctx.loc([...path, name]), ...sketchSchema(v, ctx, [...path, name]) }))
    .sort(byName);
}

function sketchSchema(value: unknown, ctx: FileContext, path: DataPath): SchemaIR {
  if (Array.isArray(value)) return { types: ['array'], nullable: false, ...(value.length ? { items: sketchSchema(value[0], ctx, [...path, 0]) } : {}) };
  if (value && typeof value === 'object') return { types: ['object'], nullable: false, properties: sketchFields(value, ctx, path) };
  if (value === null || value === undefined) return { types: ['any'], nullable: true };
  if (typeof value === 'number') return { types: [Number.isInteger(value) ? 'integer' : 'number'], nullable: false };
  if (typeof value === 'boolean') return { types: ['boolean'], nullable: false };
  const parsed = parseTypeExpr(String(value));
  if ('error' in parsed) return { types: ['string'], nullable: false };
  const toSchema = (p: typeof parsed): SchemaIR => ({ types: p.types, nullable: p.nullable, ...(p.items ? { items: toSchema(p.items) } : {}) });
  return toSchema(parsed);
}

/** The errorStatuses assumption as status → meaning (a value of another form holds no statuses). */
function statusMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([status, meaning]) => [status, typeof meaning === 'string' ? meaning : JSON.stringify(meaning)]));
}

/** The sort element assumption, normalized: whitespace-free text and, for `{ "<key>": "a" | "b" }`, key and values (sorted). */
export function sortElement(value: unknown): SortElementIR {
  const text = (typeof value === 'string' ? value : JSON.stringify(value ?? null)).replace(/\s+/g, '');
  const match = /^\{"([^"]*)":((?:"[^"]*"\|)*"[^"]*")\}$/.exec(text);
  if (!match) return { text };
  const directions = [...new Set(match[2]!.split('|').map((d) => d.slice(1, -1)))].sort();
  // The alternatives are a set: written in any order, the element is the same.
  return { text: `{"${match[1]}":${directions.map((d) => `"${d}"`).join('|')}}`, key: match[1]!, directions };
}

const DUPLICATE_KIND: Record<string, string> = {
  entities: 'entity',
  actions: 'action',
  params: 'param',
  properties: 'param',
  fields: 'field',
  records: 'record',
  meta: 'meta',
  pagination: 'pagination scheme',
};

function reportDuplicates(ctx: FileContext): void {
  for (const dup of ctx.source.duplicates) {
    const parent = dup.mapPath[dup.mapPath.length - 1];
    const kind = (typeof parent === 'string' && DUPLICATE_KIND[parent]) || 'key';
    ctx.diagnostics.push({
      file: ctx.source.file,
      line: dup.line,
      col: dup.col,
      severity: 'error',
      code: 'SPEC012',
      message: `duplicate ${kind} '${dup.key}' (first defined at line ${dup.firstLine})`,
      hint: 'Each name may appear once in its map; merge or rename the duplicate.',
    });
  }
}

/**
 * Phase 2 entry point. With `cached`, a connector file the IR cache knows is not normalized: its IR, diagnostics and
 * assumptions come from there (the IR depends on its file and service.yaml alone, which key the entry).
 */
export function normalize(loaded: LoadedSpec, cached?: CachedConnectors): NormalizeResult {
  const origins = new Origins();
  const fresh = new Map<ConnectorIR, NormalizedConnector>();
  const diagnostics: Diagnostic[] = [];
  const assumptions: AssumptionIR[] = [];
  const serviceCtx = new FileContext(loaded.service, origins, diagnostics, assumptions, 'service');
  for (const c of [loaded.service, ...loaded.connectors]) {
    if (c.syntaxErrors.length === 0) reportDuplicates(new FileContext(c, origins, diagnostics, assumptions, ''));
  }
  if (!loaded.valid.has(loaded.service)) return { diagnostics, origins, fresh };

  const service = buildService(loaded.service.data as RawService, serviceCtx);
  const vocabulary = new Map(service.actions.map((a) => [a.name as string, a]));
  const writes = new Set(service.writeActions);
  const rawService = loaded.service.data as RawService;

  /** One connector file → its IR, and what building it gave (`into`: the origins its nodes are recorded in). */
  const build = (source: SourceFile, into: Origins): [Omit<ConnectorIR, 'package'>, NormalizedConnector] => {
    const raw = source.data as RawConnector;
    const own: NormalizedConnector = { source, diagnostics: [], assumptions: [], locations: [] };
    const ctx = new FileContext(source, into, own.diagnostics, own.assumptions, raw.id, own.locations);
    ctx.defaultIdFormat = raw.defaults?.idFormat;
    const fileName = source.file.replace(/^.*[\\/]/, '');
    const expectedId = specStem(fileName) ?? fileName;
    if (raw.id !== expectedId) ctx.report(['id'], 'SPEC020', `connector id '${raw.id}' does not match its file name '${fileName}'`);
    if (!service.connectorIds.includes(raw.id)) {
      ctx.report(['id'], 'SPEC025', `connector '${raw.id}' is not listed in service.yaml connectors`);
    }
    const connector = buildConnector(raw, ctx, vocabulary, writes, rawService, loaded.service, service.search.params);
    own.assumptions.sort((a, b) => (a.id < b.id ? -1 : 1));
    return [connector, own];
  };
  const connectors: Omit<ConnectorIR, 'package'>[] = [];
  for (const source of loaded.connectors) {
    if (!loaded.valid.has(source)) continue;
    const hit = cached?.(source);
    if (hit) {
      connectors.push(fromCache(hit, service, () => build(source, new Origins())));
      diagnostics.push(...hit.head.diagnostics);
      assumptions.push(...hit.head.assumptions);
      continue;
    }
    const [connector, own] = build(source, origins);
    connectors.push(connector);
    diagnostics.push(...own.diagnostics);
    assumptions.push(...own.assumptions);
    fresh.set(connector as ConnectorIR, own);
  }

  // Cross-file: every listed connector has a file; every write the contract allows is in the spec.
  const present = new Map(connectors.map((c) => [c.id, c]));
  const parsedIds = new Set(loaded.connectors.map((s) => specStem(s.file.replace(/^.*[\\/]/, '')) ?? s.file));
  service.connectorIds.forEach((id, i) => {
    if (!parsedIds.has(id)) serviceCtx.report(['connectors', i], 'SPEC026', `connector '${id}' has no file spec/connectors/${id}.yaml`);
  });
  for (const [connectorId, entities] of Object.entries(rawService.writeActions)) {
    if (!service.connectorIds.includes(connectorId)) {
      serviceCtx.report(['writeActions', connectorId], 'SPEC025', `writeActions names unknown connector '${connectorId}'`);
      continue;
    }
    const connector = present.get(connectorId);
    if (!connector) continue;
    for (const [entityName, actions] of Object.entries(entities)) {
      actions.forEach((action, i) => {
        const entity = connector.outline.entities.find((e) => e.name === entityName);
        if (!entity?.actions.some((a) => a.name === action)) {
          serviceCtx.report(['writeActions', connectorId, entityName, i], 'SPEC024', `the contract allows ${connectorId} ${entityName} ${action}, but the connector file has no such action`);
        }
      });
    }
  }
  for (const id of Object.keys(rawService.authentication.connectors)) {
    if (!service.connectorIds.includes(id)) serviceCtx.report(['authentication', 'connectors', id], 'SPEC025', `authentication names unknown connector '${id}'`);
  }
  const order = new Map(service.connectorIds.map((id, i) => [id, i]));
  connectors.sort((a, b) => (order.get(a.id) ?? 1e9) - (order.get(b.id) ?? 1e9) || (a.id < b.id ? -1 : 1));
  service.assumptions = assumptions;
  return { ir: applyPackaging({ service, connectors }, DEFAULT_PACKAGES), diagnostics, origins, fresh };
}

/** The nodes of a connector: what the IR cache deserializes only when the run reads them (cache/ir-cache.ts). */
const NODE_FIELDS = ['auth', 'pagination', 'meta', 'records', 'entities', 'docSources'] as const;

/**
 * A connector of the IR cache as this run's IR: the fields of its entry's head at once; its nodes (NODE_FIELDS) from the
 * whole entry when first read, or built again from its file (`build`, once) when that part is damaged. A one-connector
 * edit reads only the other connectors' outlines, so their nodes are never deserialized. Fields keep a fresh build's
 * order (JSON of the IR is the same either way). Lines are located only when asked, as KeyLocation does: the file is
 * then built again, and its locations, made in the same order, give theirs.
 */
function fromCache(hit: CachedEntry, service: ServiceIR, build: () => [Omit<ConnectorIR, 'package'>, NormalizedConnector]): Omit<ConnectorIR, 'package'> {
  let rebuilt: ReturnType<typeof build> | undefined;
  const rebuild = () => (rebuilt ??= build());
  let lines: readonly number[] | undefined;
  const lineAt = (i: number) => (lines ??= rebuild()[1].locations.map((l) => l.line))[i]!;
  hit.head.assumptions.forEach((a, k) => lazyLine(a.location, () => lineAt(hit.head.assumptionLocations[k]!)));
  const { transitionsUnspecified, ...fields } = hit.head.connector;
  const connector = { ...fields } as Omit<ConnectorIR, 'package'>;
  let loaded = false;
  const load = () => {
    if (loaded) return;
    loaded = true;
    const whole = hit.whole();
    whole?.locations.forEach((location, i) => lazyLine(location, () => lineAt(i)));
    const nodes = withServiceParams(whole ? whole.connector : rebuild()[0], service);
    for (const key of NODE_FIELDS) Object.defineProperty(connector, key, { value: nodes[key], writable: true, enumerable: true, configurable: true });
  };
  for (const key of NODE_FIELDS) {
    Object.defineProperty(connector, key, {
      get: () => (load(), connector[key]),
      set: (value) => (load(), ((connector as Record<string, unknown>)[key] = value)),
      enumerable: true,
      configurable: true,
    });
  }
  if (transitionsUnspecified !== undefined) connector.transitionsUnspecified = transitionsUnspecified;
  return connector;
}

/** Gives `location` (read back from a cache, without its line) a lazy line. */
function lazyLine(location: SourceLocation, line: () => number): void {
  // Not enumerable, as KeyLocation's getter (on its prototype) is not: JSON of the IR is the same either way.
  Object.defineProperty(location, 'line', { get: line, enumerable: false, configurable: true });
}

/**
 * A cached connector joined to this run's service IR as buildConnector joins it: the search action takes the service's
 * uniform search params (the same objects, not the cache's copy of them).
 */
function withServiceParams(connector: Omit<ConnectorIR, 'package'>, service: ServiceIR): Omit<ConnectorIR, 'package'> {
  for (const entity of connector.entities) for (const action of entity.actions) if (action.name === 'search') action.params = service.search.params;
  return connector;
}

function buildService(raw: RawService, ctx: FileContext): ServiceIR {
  const assumptionList = Object.entries(raw.assumptions)
    .map(([id, a]) => ({ id, contract: a.contract, source: a.source, value: a.value, location: ctx.loc(['assumptions', id]) }))
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  ctx.assumptions.push(...assumptionList);
  const endpoint = (e: RawService['endpoints']['execute']): ServiceIR['execute'] => ({
    method: e.method,
    path: e.path,
    pathParams: Object.fromEntries(Object.entries(e.pathParams ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ...(e.description ? { description: e.description } : {}),
    headers: e.headers,
    body: e.body,
    ...(e.response ? { response: e.response } : {}),
  });
  const writeActions = Object.entries(raw.writeActions)
    .flatMap(([c, entities]) => Object.entries(entities).flatMap(([e, actions]) => actions.map((a) => `${c}/${e}/${a}`)))
    .sort();
  const limits: LimitIR[] = raw.limits.map((l) => ({
    where: l.where,
    limit: l.limit,
    ...(l.expect ? { expect: l.expect } : {}),
    appliesTo: [],
    ...(l.unspecified ? { unspecified: l.unspecified } : {}),
  }));
  for (const [id, entry] of Object.entries(raw.authentication.connectors)) {
    for (const [name, v] of Object.entries(entry.variables ?? {})) ctx.noteAssumption(['authentication', 'connectors', id, 'variables', name], v.assumption, v.provenance);
  }
  const searchPagination = ctx.pagination('search', raw.search.pagination, ['search', 'pagination']);
  const sourceCreation = ctx.shape('sourceCreation', raw.sourceCreation, ['sourceCreation']);
  return {
    title: raw.service.title,
    seed: raw.service.seed,
    description: raw.service.description,
    execute: endpoint(raw.endpoints.execute),
    createSource: endpoint(raw.endpoints.createSource),
    envelope: { records: raw.assumptions.envelope.value.records, meta: raw.assumptions.envelope.value.meta },
    ...(raw.assumptions.requestIdHeader ? { requestIdHeader: raw.assumptions.requestIdHeader.value.toLowerCase() } : {}),
    actions: Object.entries(raw.actions)
      .map(([name, a]) => ({ name: name as ActionName, kind: a.kind, description: a.description }))
      .sort((a, b) => actionRank(a.name) - actionRank(b.name) || (a.name < b.name ? -1 : 1)),
    writeActions,
    connectorIds: [...raw.connectors],
    executeBody: ctx.params(raw.executeBody, ['executeBody'], undefined, []),
    metaKeys: raw.result.metaKeys ?? [],
    search: {
      params: ctx.params(raw.search.params, ['search', 'params'], undefined, []),
      operators: Object.entries(raw.search.operators)
        .map(([name, o]) => ({ name, operand: o.operand, ...(o.description ? { description: o.description } : {}) }))
        .sort(byName),
      hit: ctx.fields(raw.search.hit, ['search', 'hit']),
      pagination: searchPagination,
      sort: sortElement(raw.assumptions.sortElement?.value),
    },
    sourceCreation,
    authentication: {
      header: raw.authentication.header,
      scheme: raw.authentication.scheme,
      ...(raw.authentication.description ? { description: raw.authentication.description } : {}),
      ...(raw.authentication.unspecified ? { unspecified: raw.authentication.unspecified } : {}),
      placeholders: raw.authentication.placeholders ?? [],
    },
    errors: {
      body: raw.assumptions.errorBody?.value,
      fields: sketchFields(raw.assumptions.errorBody?.value, ctx, ['assumptions', 'errorBody', 'value']),
      statuses: statusMap(raw.assumptions.errorStatuses?.value),
    },
    limits,
    versioning: { ...raw.versioning },
    ...(raw.events?.unspecified ? { events: raw.events.unspecified } : {}),
    assumptions: [],
    sources: Object.fromEntries(
      ['service', 'endpoints.execute', 'endpoints.createSource', 'versioning', 'authentication', 'actions', 'executeBody', 'sourceCreation', 'search.operators', 'limits'].map((key) => [key, ctx.loc(key.split('.'))]),
    ),
  };
}

/** A connector's auth, from service.yaml: `ctx` builds in that file (what it reports and locates is there). */
function buildAuth(raw: RawService, id: string, ctx: FileContext): AuthIR {
  const entry = raw.authentication.connectors[id];
  if (!entry) {
    return { method: 'unspecified', fields: [], variables: [], unspecified: raw.authentication.unspecified ?? 'Not shown.' };
  }
  const base: DataPath = ['authentication', 'connectors', id];
  const variables = Object.entries(entry.variables ?? {})
    .map(([name, v]) => {
      const prop: AuthIR['variables'][number] = {
        name,
        required: v.required ?? false,
        types: [v.type as BaseType],
        nullable: false,
        source: ctx.loc([...base, 'variables', name]),
        ...(v.description ? { description: v.description } : {}),
        ...(v.note ? { note: v.note } : {}),
        ...(v.assumption ? { assumption: v.assumption } : {}),
        ...(v.provenance ? { provenance: v.provenance } : {}),
        ...(v.format ? { format: v.format } : {}),
        ...(v.suppliedIn ? { suppliedIn: v.suppliedIn } : {}),
        ...(v.unspecified ? { suppliedUnspecified: v.unspecified } : {}),
      };
      if (typeof v.default === 'string') prop.default = v.default;
      else if (v.default) prop.defaultUnspecified = v.default.unspecified;
      return prop;
    })
    .sort(byName);
  return {
    method: entry.method,
    ...(entry.description ? { description: entry.description } : {}),
    fields: ctx.params(entry.fields, [...base, 'fields'], undefined, []),
    variables,
  };
}

function buildConnector(
  raw: RawConnector,
  ctx: FileContext,
  vocabulary: Map<string, ServiceIR['actions'][number]>,
  writes: Set<string>,
  rawService: RawService,
  serviceSource: SourceFile,
  searchParams: PropertyIR[],
): Omit<ConnectorIR, 'package'> {
  const records = Object.entries(raw.records).map(([n, r]) => ctx.shape(n, r, ['records', n])).sort(byName);
  const meta = Object.entries(raw.meta ?? {}).map(([n, m]) => ctx.shape(n, m, ['meta', n])).sort(byName);
  const pagination = Object.entries(raw.pagination ?? {}).map(([n, p]) => ctx.pagination(n, p, ['pagination', n])).sort(byName);
  const recordNames = new Set(records.map((r) => r.name));
  const metaNames = new Set(meta.map((m) => m.name));
  const schemeNames = new Set(pagination.map((p) => p.name));
  if (raw.defaults?.pagination && !schemeNames.has(raw.defaults.pagination)) {
    ctx.report(['defaults', 'pagination'], 'SPEC018', `defaults.pagination names unknown scheme '${raw.defaults.pagination}'${didYouMean(raw.defaults.pagination, schemeNames)}`);
  }
  if (raw.defaults?.meta && !metaNames.has(raw.defaults.meta)) {
    ctx.report(['defaults', 'meta'], 'SPEC018', `defaults.meta names unknown meta '${raw.defaults.meta}'${didYouMean(raw.defaults.meta, metaNames)}`);
  }

  const entities: EntityIR[] = [];
  for (const [entityName, rawEntity] of Object.entries(raw.entities)) {
    const ePath: DataPath = ['entities', entityName];
    if (rawEntity.record && !recordNames.has(rawEntity.record)) {
      ctx.report([...ePath, 'record'], 'SPEC018', `entity '${entityName}' names unknown record '${rawEntity.record}'${didYouMean(rawEntity.record, recordNames)}`);
    }
    const actions: ActionIR[] = [];
    for (const [actionName, rawAction] of Object.entries(rawEntity.actions)) {
      const aPath: DataPath = [...ePath, 'actions', actionName];
      const vocab = vocabulary.get(actionName);
      if (!vocab) {
        ctx.report(aPath, 'SPEC010', `unknown action '${actionName}' on entity '${entityName}'${didYouMean(actionName, vocabulary.keys())}; the contract's actions are: ${[...vocabulary.keys()].join(', ')}`);
        continue;
      }
      if (vocab.kind === 'write' && !writes.has(`${raw.id}/${entityName}/${actionName}`)) {
        ctx.report(aPath, 'SPEC011', `write action '${actionName}' on ${raw.id} '${entityName}' is not allowed by the contract (service.yaml writeActions)`);
      }
      actions.push(buildAction(actionName as ActionName, vocab, rawAction ?? {}, aPath, raw, rawEntity.record, ctx, { recordNames, metaNames, schemeNames }, searchParams));
    }
    actions.sort((a, b) => actionRank(a.name) - actionRank(b.name));
    const entity: EntityIR = { name: entityName, actions, source: ctx.loc(ePath) };
    if (rawEntity.description) entity.description = rawEntity.description;
    if (rawEntity.record) entity.record = rawEntity.record;
    if (rawEntity.note) entity.note = rawEntity.note;
    if (rawEntity.recordsFrom) entity.recordsFrom = rawEntity.recordsFrom;
    if (rawEntity.parent) {
      const at: DataPath = [...ePath, 'parent'];
      const params = Object.entries(rawEntity.parent.params).map(([param, field]) => ({ param, field })).sort((a, b) => (a.param < b.param ? -1 : 1));
      entity.parent = ctx.origins.set({ entity: rawEntity.parent.entity, params, ...(rawEntity.parent.field ? { field: rawEntity.parent.field } : {}), ...ruleDocs(rawEntity.parent) }, ctx.source, at);
      ctx.noteAssumption(at, rawEntity.parent.assumption, rawEntity.parent.provenance);
    }
    if (rawEntity.assumption) entity.assumption = rawEntity.assumption;
    if (rawEntity.provenance) entity.provenance = rawEntity.provenance;
    ctx.noteAssumption(ePath, rawEntity.assumption, rawEntity.provenance);
    const hasSearch = actions.some((a) => a.name === 'search');
    if (rawEntity.searchableFields) {
      if (!hasSearch) ctx.report([...ePath, 'searchableFields'], 'SPEC023', `entity '${entityName}' lists searchableFields but has no search action`);
      entity.searchable = {
        properties: rawEntity.searchableFields.fields ? ctx.fields(rawEntity.searchableFields.fields, [...ePath, 'searchableFields', 'fields']) : [],
        ...(rawEntity.searchableFields.unspecified ? { unspecified: rawEntity.searchableFields.unspecified } : {}),
      };
      if (!rawEntity.searchableFields.fields && !rawEntity.searchableFields.unspecified) {
        ctx.report([...ePath, 'searchableFields'], 'SPEC022', `searchableFields of '${entityName}' give neither fields nor unspecified`);
      }
    } else if (hasSearch) {
      ctx.report([...ePath, 'actions', 'search'], 'SPEC022', `entity '${entityName}' has the search action but no searchableFields`);
    }
    for (const action of actions) resolveKeyParam(action, rawEntity.actions[action.name] ?? {}, entity, records, ctx, [...ePath, 'actions', action.name]);
    entities.push(ctx.origins.set(entity, ctx.source, ePath));
  }
  entities.sort(byName);
  const auth = buildAuth(rawService, raw.id, ctx.in(serviceSource));
  return {
    id: raw.id,
    title: raw.title,
    seed: raw.seed,
    file: ctx.source.specPath,
    description: raw.description,
    outline: outlineOf(auth, entities),
    auth,
    pagination,
    meta,
    records,
    entities,
    // A node (NODE_FIELDS): its locations' lines come back with the others' from the IR cache.
    docSources: {
      title: ctx.loc(['title']),
      description: ctx.loc(['description']),
      seed: ctx.loc(['seed']),
      ...(raw.transitions ? { transitionsUnspecified: ctx.loc(['transitions', 'unspecified']) } : {}),
    },
    ...(raw.transitions ? { transitionsUnspecified: raw.transitions.unspecified } : {}),
  };
}

/** ConnectorIR.outline of a connector with these auth and entities. */
function outlineOf(auth: AuthIR, entities: EntityIR[]): ConnectorOutline {
  return {
    authMethod: auth.method,
    authFields: auth.fields.map((f) => f.name),
    entities: entities.map((e) => ({ name: e.name, actions: e.actions.map((a) => ({ name: a.name, kind: a.kind, params: a.params.map((p) => p.name) })) })),
  };
}

function buildAction(
  name: ActionName,
  vocab: ServiceIR['actions'][number],
  raw: RawAction,
  path: DataPath,
  connector: RawConnector,
  entityRecord: string | undefined,
  ctx: FileContext,
  names: { recordNames: Set<string>; metaNames: Set<string>; schemeNames: Set<string> },
  searchParams: PropertyIR[],
): ActionIR {
  if (name === 'search' && (raw.params || raw.unspecifiedParams)) {
    ctx.report([...path, raw.params ? 'params' : 'unspecifiedParams'], 'SPEC027', `search takes the uniform search params of service.yaml; it lists none of its own`);
  }
  const params =
    name === 'search' ? searchParams : raw.params ? ctx.params(raw.params, [...path, 'params'], connector.params, ['params']) : [];
  const shape = raw.result?.shape ?? DEFAULT_SHAPE[name];
  if (raw.result?.shape && raw.result.shape !== DEFAULT_SHAPE[name]) {
    ctx.report([...path, 'result', 'shape'], 'SPEC027', `action '${name}' returns shape '${DEFAULT_SHAPE[name]}', not '${raw.result.shape}'`);
  }
  const result: ActionIR['result'] = { shape };
  if (shape === 'list' || shape === 'single') {
    const record = raw.result?.record ?? entityRecord;
    if (record) {
      if (!names.recordNames.has(record)) {
        if (raw.result?.record) ctx.report([...path, 'result', 'record'], 'SPEC018', `action '${name}' names unknown record '${record}'${didYouMean(record, names.recordNames)}`);
      } else result.record = record;
    }
  } else if (raw.result?.record) {
    ctx.report([...path, 'result', 'record'], 'SPEC027', `a ${shape} result has no record`);
  }
  if (shape === 'list') {
    const meta = raw.result?.meta ?? connector.defaults?.meta;
    if (meta) {
      if (names.metaNames.has(meta)) result.meta = meta;
      else if (raw.result?.meta) ctx.report([...path, 'result', 'meta'], 'SPEC018', `action '${name}' names unknown meta '${meta}'${didYouMean(meta, names.metaNames)}`);
    }
  } else if (raw.result?.meta) {
    ctx.report([...path, 'result', 'meta'], 'SPEC027', `only list results carry meta; '${name}' returns ${shape}`);
  }

  let pagination = 'none';
  if (name === 'search') pagination = 'search';
  else if (LIST_LIKE.includes(name)) {
    if (raw.pagination !== undefined) {
      pagination = raw.pagination;
      if (pagination !== 'none' && !names.schemeNames.has(pagination)) {
        ctx.report([...path, 'pagination'], 'SPEC018', `action '${name}' names unknown pagination scheme '${pagination}'${didYouMean(pagination, names.schemeNames)}`);
        pagination = 'none';
      }
    } else if (!raw.params) pagination = 'unspecified';
    else if (connector.defaults?.pagination && names.schemeNames.has(connector.defaults.pagination)) pagination = connector.defaults.pagination;
    else if (!connector.defaults?.pagination) {
      ctx.report(path, 'SPEC028', `${name} action has params but no pagination (no scheme named and no defaults.pagination)`);
    }
  } else if (raw.pagination !== undefined) {
    ctx.report([...path, 'pagination'], 'SPEC027', `only list and api_search actions page; '${name}' does not`);
  }

  const action: ActionIR = {
    name,
    kind: vocab.kind,
    description: raw.description ?? vocab.description,
    params,
    result,
    pagination,
    source: ctx.loc(path),
  };
  if (raw.unspecifiedParams) action.paramsUnspecified = raw.unspecifiedParams;
  if (raw.rangeParam) action.rangeParam = raw.rangeParam;
  if (raw.maxBytes) action.maxBytes = raw.maxBytes;
  if (raw.note) action.note = raw.note;
  Object.assign(action, deprecation(raw));
  buildRules(action, raw, path, connector, ctx);
  ctx.noteAssumption(path, raw.assumption, raw.provenance);
  if (name === 'download' && raw.rangeParam === undefined && params.some((p) => /range/i.test(p.name))) {
    ctx.report([...path, 'params'], 'SPEC018', `download has a range-like param but no rangeParam naming it`, 'warning');
  }
  return ctx.origins.set(action, ctx.source, path);
}
