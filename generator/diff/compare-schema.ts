/**
 * Compares params and fields facet by facet: presence, required, type, nullability, enum values, literal,
 * default, bounds, pattern, separator, query language, deprecation, docs; nested properties and array items
 * recursively. One comparer serves requests and responses: a facet's severity comes from the checks table of
 * the item's kind (`param-…`, `searchable-field-…`, `response-field-…`). A param written as `name: common` is a
 * shared definition: its changes are reported once for every action that uses it (sink.ts).
 */
import type { Literal, PropertyIR, SchemaIR, SourceLocation } from '../ir.js';
import type { BaseType } from '../spec/type-expr.js';
import { FACETS, type Direction } from './checks.js';
import { compareSchemaRules, patternsOf, ruleKeys } from './compare-rules.js';
import { show, type ChangeSink, type Scope, type SharedDefinition } from './sink.js';

/** The default of an item whose default the contract says exists but does not show (auth variables' `default: { unspecified }`). */
export const UNSHOWN_DEFAULT = '(not shown by the contract)';

/** The kind of item compared: decides the check ids and whether `required` and `default` mean anything. */
export type SchemaKind = 'param' | 'searchable-field' | 'response-field';

/** What the comparer needs to know about the items being compared. */
export interface SchemaContext {
  /** Kind of item. */
  kind: SchemaKind;
  /** Connector, entity, action. */
  scope: Scope;
  /** Label before the item's name, e.g. `param`, ``record `customer` field``, `auth_config field`. */
  label: string;
  /** The shared definition the items come from (a `common` param), set by compareProperties. */
  shared?: SharedDefinition;
}

/**
 * Words of an item. `unspecified` of an object with fields (the seed's words where not all inner fields are shown) is
 * words too; where it comes or goes, a response's object field opens or closes (compareNested: shape-opened/-closed).
 */
const DOC_KEYS = ['description', 'note', 'provenance', 'assumption', 'unspecified'] as const;
/** Keys this module compares (rule keys in compare-rules.ts); any other key that differs is reported as attribute-changed. */
export const HANDLED: ReadonlySet<string> = new Set([
  'name', 'required', 'source', 'types', 'nullable', 'enum', 'const', 'default', 'minimum', 'maximum', 'minLength', 'maxLength',
  'pattern', 'minItems', 'maxItems', 'separator', 'items', 'properties', 'deprecated', 'deprecatedSince', 'queryLanguage', 'common', ...DOC_KEYS,
  ...ruleKeys('schema'),
]);
const LOWER_BOUNDS = ['minimum', 'minLength', 'minItems'] as const;
const UPPER_BOUNDS = ['maximum', 'maxLength', 'maxItems'] as const;

function directionOf(kind: SchemaKind): Direction {
  return kind === 'response-field' ? 'response' : 'request';
}

/** Emits `<kind>-<facet>`, or attribute-changed when the kind has no such facet (a key the kind never carries). */
function emit(sink: ChangeSink, ctx: SchemaContext, facet: string, target: string, message: string, location: SourceLocation, before?: unknown, after?: unknown): void {
  const id = FACETS[ctx.kind].has(facet) ? `${ctx.kind}-${facet}` : 'attribute-changed';
  sink.add(id, ctx.scope, target, message, location, { before, after, direction: directionOf(ctx.kind), ...(ctx.shared ? { shared: ctx.shared } : {}) });
}

const list = (values: readonly Literal[]) => values.map((v) => show(v)).join(', ');
const typeText = (s: SchemaIR) => `${s.types.join('|')}${s.nullable ? '|null' : ''}`;

/** Whether a value of type `t` is accepted by a schema of `types` (`any` takes everything, number takes integers). */
function covers(types: readonly BaseType[], t: BaseType): boolean {
  return types.includes('any') || types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** How the head's base types relate to the base's. */
function typeRelation(base: readonly BaseType[], head: readonly BaseType[]): 'same' | 'wider' | 'narrower' | 'other' {
  const headTakesBase = base.every((t) => covers(head, t));
  const baseTakesHead = head.every((t) => covers(base, t));
  if (headTakesBase && baseTakesHead) return 'same';
  if (headTakesBase) return 'wider';
  if (baseTakesHead) return 'narrower';
  return 'other';
}

/** The TypeScript types of base types (integer and number are both `number`). */
const tsTypes = (types: readonly BaseType[]) => new Set(types.map((t) => (t === 'integer' ? 'number' : t)));

/**
 * Reports a type that became wider or narrower: safe to widen a request, safe to narrow a response. A searchable field
 * is both: filters take it, and search hits carry it (typed by the searchable fields), so it widens safely only where
 * its TypeScript type stays the same (integer → number).
 */
function emitTypeShift(sink: ChangeSink, ctx: SchemaContext, shift: 'wider' | 'narrower' | 'other', target: string, location: SourceLocation, before: string, after: string, types?: { base: readonly BaseType[]; head: readonly BaseType[] }): void {
  const request = directionOf(ctx.kind) === 'request';
  // Without base types (an array's items or an object's fields became unknown) the hits' type widens too.
  const hitsWiden = ctx.kind === 'searchable-field' && (types === undefined || [...tsTypes(types.head)].some((t) => !tsTypes(types.base).has(t)));
  if (shift === 'wider' && request && !hitsWiden) emit(sink, ctx, 'type-widened', target, `${target} widened from ${before} to ${after}`, location, before, after);
  else if (shift === 'narrower' && !request) emit(sink, ctx, 'type-narrowed', target, `${target} narrowed from ${before} to ${after}`, location, before, after);
  else emit(sink, ctx, 'type-changed', target, `${target} changed type from ${before} to ${after}`, location, before, after);
}

/**
 * The shared definition a top-level param pair comes from: a change reaches every action using the definition
 * when both sides use it (an edit of the definition), or when the side it exists on does (added, removed).
 */
function sharedOf(ctx: SchemaContext, name: string, b: PropertyIR | undefined, h: PropertyIR | undefined): SchemaContext {
  if (ctx.shared || ctx.kind !== 'param') return ctx;
  const definition = b && h ? (b.common && h.common ? h.common : undefined) : (h?.common ?? b?.common);
  return definition ? { ...ctx, shared: { key: `param ${name}`, location: definition } } : ctx;
}

/** Compares two lists of named items (params, fields) by name. `prefix` is the dotted path of their parent. */
export function compareProperties(sink: ChangeSink, ctx: SchemaContext, base: readonly PropertyIR[], head: readonly PropertyIR[], prefix = '', parentLocation?: SourceLocation): void {
  const headByName = new Map(head.map((p) => [p.name, p]));
  const baseByName = new Map(base.map((p) => [p.name, p]));
  const hasRequired = ctx.kind === 'param';
  for (const b of base) {
    const h = headByName.get(b.name);
    const here = sharedOf(ctx, b.name, b, h);
    const target = `${ctx.label} \`${prefix}${b.name}\``;
    if (h) compareProperty(sink, here, b, h, `${prefix}${b.name}`, hasRequired);
    else if (sink.deprecatedRemoval(b, ctx.scope)) {
      emit(sink, here, 'removed-after-deprecation', target, `${target} was removed (deprecated${b.deprecatedSince ? ` since ${b.deprecatedSince}` : ''}: ${b.deprecated})`, b.source ?? parentLocation);
    } else emit(sink, here, 'removed', target, `${target} was removed`, b.source ?? parentLocation);
  }
  for (const h of head) {
    if (baseByName.has(h.name)) continue;
    const here = sharedOf(ctx, h.name, undefined, h);
    const target = `${ctx.label} \`${prefix}${h.name}\``;
    if (hasRequired && h.required) emit(sink, here, 'required-added', target, `${target} was added as required`, h.source ?? parentLocation);
    else emit(sink, here, 'added', target, `${target} was added${hasRequired ? ' (optional)' : ''}`, h.source ?? parentLocation);
  }
}

function compareProperty(sink: ChangeSink, ctx: SchemaContext, b: PropertyIR, h: PropertyIR, path: string, hasRequired: boolean): void {
  const target = `${ctx.label} \`${path}\``;
  if (hasRequired && b.required !== h.required) {
    if (h.required) emit(sink, ctx, 'became-required', target, `${target} became required`, h.source);
    else emit(sink, ctx, 'became-optional', target, `${target} became optional`, h.source);
  }
  compareSchema(sink, ctx, b, h, path, h.source);
}

/** Compares every facet of one schema (and its items and properties, recursively). */
export function compareSchema(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, path: string, location: SourceLocation): void {
  const target = `${ctx.label} \`${path}\``;
  const shift = typeRelation(b.types, h.types);
  if (shift !== 'same') emitTypeShift(sink, ctx, shift, target, location, b.types.join('|'), h.types.join('|'), { base: b.types, head: h.types });

  if (b.nullable !== h.nullable) {
    if (h.nullable) emit(sink, ctx, 'became-nullable', target, `${target} may now be null`, location, typeText(b), typeText(h));
    else emit(sink, ctx, 'became-non-nullable', target, `${target} is no longer nullable`, location, typeText(b), typeText(h));
  }

  // Values, defaults and bounds of another type are that type change, reported once above.
  if (shift !== 'other') comparePredicates(sink, ctx, b, h, target, location);
  compareSchemaRules(
    {
      facet: (facet, message, before, after) => emit(sink, ctx, facet, target, message, location, before, after),
      words: (message) => sink.add('docs-changed', ctx.scope, target, message, location, { direction: directionOf(ctx.kind), ...(ctx.shared ? { shared: ctx.shared } : {}) }),
    },
    target,
    b,
    h,
  );
  if (b.deprecated === undefined && h.deprecated !== undefined) emit(sink, ctx, 'deprecated', target, `${target} was deprecated: ${h.deprecated}`, location);
  sink.docs(ctx.scope, target, b, h, [...DOC_KEYS, ...(b.deprecated !== undefined ? ['deprecated', 'deprecatedSince'] : [])], location, directionOf(ctx.kind), ctx.shared);

  for (const key of new Set([...Object.keys(b), ...Object.keys(h)])) {
    if (HANDLED.has(key)) continue;
    const before = (b as unknown as Record<string, unknown>)[key];
    const after = (h as unknown as Record<string, unknown>)[key];
    if (show(before) !== show(after)) emit(sink, ctx, `attribute:${key}`, target, `${key} of ${target} changed from ${show(before ?? null)} to ${show(after ?? null)}`, location, before ?? null, after ?? null);
  }

  // Nested shapes: only where the outer type still allows them (a retyped item was reported above).
  if (shift !== 'other') compareNested(sink, ctx, b, h, path, target, location);
}

/** What values an item takes beyond its type: enum, literal, default, bounds, pattern, separator, query language. */
function comparePredicates(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, target: string, location: SourceLocation): void {
  compareEnum(sink, ctx, b, h, target, location);
  compareConst(sink, ctx, b, h, target, location);
  if (show(b.default) !== show(h.default)) {
    // A default the contract did not show, now stated: the service applies it as before; now clients know it.
    if (b.default === UNSHOWN_DEFAULT && h.default !== undefined) emit(sink, ctx, 'default-added', target, `${target} now states its default: ${show(h.default)} (the contract did not show it)`, location, undefined, h.default);
    else if (b.default === undefined) emit(sink, ctx, 'default-added', target, `${target} now defaults to ${show(h.default)}`, location, undefined, h.default);
    else if (h.default === undefined) emit(sink, ctx, 'default-removed', target, `${target} no longer defaults to ${show(b.default)}`, location, b.default);
    else emit(sink, ctx, 'default-changed', target, `default of ${target} changed from ${show(b.default)} to ${show(h.default)}`, location, b.default, h.default);
  }
  compareBounds(sink, ctx, b, h, target, location);
  if (b.separator !== h.separator) {
    emit(sink, ctx, 'separator-changed', target, `separator of ${target} changed from ${show(b.separator ?? null)} to ${show(h.separator ?? null)}`, location, b.separator ?? null, h.separator ?? null);
  }
  if (b.queryLanguage !== h.queryLanguage) {
    const facet = b.queryLanguage && h.queryLanguage ? 'query-language-changed' : 'query-language-set';
    emit(sink, ctx, facet, target, `query language of ${target} changed from ${show(b.queryLanguage ?? null)} to ${show(h.queryLanguage ?? null)}`, location, b.queryLanguage ?? null, h.queryLanguage ?? null);
  }
}

function compareNested(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, path: string, target: string, location: SourceLocation): void {
  if (b.items && h.items) compareSchema(sink, ctx, b.items, h.items, `${path}[]`, location);
  else if (b.items || h.items) {
    // array<T> is narrower than array: the element type became known (or unknown).
    const shift = h.items ? 'narrower' : 'wider';
    emitTypeShift(sink, ctx, shift, target, location, b.items ? `array<${typeText(b.items)}>` : 'array', h.items ? `array<${typeText(h.items)}>` : 'array');
  }
  // A response's object field is typed open (a record of unknown values, or an index signature beside the listed
  // fields: unspecified) or closed: closing it breaks reads of other keys.
  const typedOpen = (s: SchemaIR) => !s.properties || s.unspecified !== undefined;
  const closes = ctx.kind === 'response-field' && typedOpen(b) && !typedOpen(h);
  if (closes) emit(sink, ctx, 'shape-closed', target, `${target} now carries only the fields listed (${h.properties!.map((p) => p.name).join(', ')})`, location);
  else if (ctx.kind === 'response-field' && b.properties && h.properties && !typedOpen(b) && typedOpen(h)) {
    emit(sink, ctx, 'shape-opened', target, `${target} may now carry fields beyond those listed`, location);
  }
  if (b.properties && h.properties) compareProperties(sink, ctx, b.properties, h.properties, `${path}.`, location);
  else if (closes) return; // the fields became listed: reported above
  else if (b.properties || h.properties) {
    // An object whose fields became known is narrower than an open object.
    const shift = h.properties ? 'narrower' : 'wider';
    const fields = (s: SchemaIR) => (s.properties ? `object{${s.properties.map((p) => p.name).join(',')}}` : 'object');
    emitTypeShift(sink, ctx, shift, target, location, fields(b), fields(h));
  }
}

function compareEnum(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, target: string, location: SourceLocation): void {
  if (!b.enum && !h.enum) return;
  if (!b.enum) return emit(sink, ctx, 'enum-added', target, `${target} is now restricted to ${list(h.enum!)}`, location, undefined, h.enum);
  if (!h.enum) return emit(sink, ctx, 'enum-removed', target, `${target} is no longer restricted to ${list(b.enum)}`, location, b.enum);
  const before = new Set(b.enum.map((v) => show(v)));
  const after = new Set(h.enum.map((v) => show(v)));
  for (const v of b.enum) if (!after.has(show(v))) emit(sink, ctx, 'enum-value-removed', target, `${target} lost enum value ${show(v)}`, location, v);
  for (const v of h.enum) if (!before.has(show(v))) emit(sink, ctx, 'enum-value-added', target, `${target} gained enum value ${show(v)}`, location, undefined, v);
}

function compareConst(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, target: string, location: SourceLocation): void {
  if (show(b.const) === show(h.const)) return;
  if (b.const === undefined) emit(sink, ctx, 'const-added', target, `${target} is now always ${show(h.const)}`, location, undefined, h.const);
  else if (h.const === undefined) emit(sink, ctx, 'const-removed', target, `${target} is no longer always ${show(b.const)}`, location, b.const);
  else emit(sink, ctx, 'const-changed', target, `literal value of ${target} changed from ${show(b.const)} to ${show(h.const)}`, location, b.const, h.const);
}

function compareBounds(sink: ChangeSink, ctx: SchemaContext, b: SchemaIR, h: SchemaIR, target: string, location: SourceLocation): void {
  for (const key of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const before = b[key];
    const after = h[key];
    if (before === after) continue;
    const lower = (LOWER_BOUNDS as readonly string[]).includes(key);
    // A bound added, or moved inwards, accepts fewer values.
    const tightened = before === undefined || (after !== undefined && (lower ? after > before : after < before));
    const what = before === undefined ? `now has ${key} ${after}` : after === undefined ? `no longer has ${key} ${before}` : `${key} moved from ${before} to ${after}`;
    emit(sink, ctx, tightened ? 'limit-tightened' : 'limit-loosened', target, `${target} ${what}`, location, before ?? null, after ?? null);
  }
  if (b.pattern !== h.pattern && show(patternsOf(b)) !== show(patternsOf(h))) {
    if (b.pattern === undefined) emit(sink, ctx, 'limit-tightened', target, `${target} must now match ${show(h.pattern)}`, location, null, h.pattern);
    else if (h.pattern === undefined) emit(sink, ctx, 'limit-loosened', target, `${target} no longer must match ${show(b.pattern)}`, location, b.pattern, null);
    else emit(sink, ctx, 'pattern-changed', target, `pattern of ${target} changed from ${show(b.pattern)} to ${show(h.pattern)}`, location, b.pattern, h.pattern);
  }
}
