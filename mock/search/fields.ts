/**
 * The searchable fields of an entity as the search validates them: which operators apply to a field and which
 * operands it takes, from the catalogue's type expression or — when the contract does not show the fields —
 * from the values in the data.
 */
import { isInertKey, isJsonValue, isPlainObject } from './values.js';

/** A base type of a field; `any` stands for a type the search cannot check (unknown names, all-null data). */
export type FieldKind = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'any';

/** A searchable field, ready for checks. */
export interface FieldModel {
  name: string;
  /** The field's type as written (`integer`, `object|string`), for messages. */
  type: string;
  kinds: ReadonlySet<FieldKind>;
  /** Allowed values, when the catalogue gives them. */
  enum?: readonly (string | number | boolean)[];
}

/** Operators that compare one field with an operand. */
export const FIELD_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword'] as const;
/** An operator of FIELD_OPERATORS. */
export type FieldOperator = (typeof FIELD_OPERATORS)[number];
/** Operators that combine filters. */
export const LOGICAL_OPERATORS = ['and', 'or', 'not'] as const;

const KNOWN_KINDS = new Set<string>(['string', 'integer', 'number', 'boolean', 'object', 'array', 'any']);

/** The kinds of a catalogue type expression (`object|string`); `null` is dropped, unknown names become `any`. */
export function parseFieldType(type: string): Set<FieldKind> {
  const kinds = new Set<FieldKind>();
  for (const part of type.split('|').map((p) => p.trim())) {
    if (part === 'null' || part === '') continue;
    kinds.add(KNOWN_KINDS.has(part) ? (part as FieldKind) : 'any');
  }
  if (kinds.size === 0) kinds.add('any');
  return kinds;
}

/** Field models from the catalogue's searchable fields (inert names left out: they stay unknown). */
export function declaredFields(fields: readonly { name: string; type: string; enum?: (string | number | boolean)[] }[]): Map<string, FieldModel> {
  const models = new Map<string, FieldModel>();
  for (const f of fields) {
    if (isInertKey(f.name)) continue;
    models.set(f.name, { name: f.name, type: f.type, kinds: parseFieldType(f.type), ...(f.enum ? { enum: f.enum } : {}) });
  }
  return models;
}

/**
 * Field models inferred from data: every own key of any record (inert names aside), typed by the kinds of its
 * non-null values. Numbers infer `number` (never `integer`: a fractional operand is still a fair question).
 * A field whose values are all null is `any`.
 */
export function inferredFields(datas: Iterable<Record<string, unknown>>): Map<string, FieldModel> {
  const kindsByName = new Map<string, Set<FieldKind>>();
  for (const data of datas) {
    for (const name of Object.keys(data)) {
      if (isInertKey(name)) continue;
      let kinds = kindsByName.get(name);
      if (!kinds) kindsByName.set(name, (kinds = new Set()));
      const kind = kindOfValue(data[name]);
      if (kind) kinds.add(kind);
    }
  }
  const models = new Map<string, FieldModel>();
  for (const name of [...kindsByName.keys()].sort()) {
    const kinds = kindsByName.get(name)!;
    if (kinds.size === 0) kinds.add('any');
    models.set(name, { name, type: [...kinds].sort().join('|'), kinds });
  }
  return models;
}

function kindOfValue(value: unknown): FieldKind | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return undefined;
}

/** Kinds on which an operator is defined. */
const APPLIES_TO: Record<FieldOperator, readonly FieldKind[]> = {
  eq: ['string', 'integer', 'number', 'boolean', 'object', 'array', 'any'],
  neq: ['string', 'integer', 'number', 'boolean', 'object', 'array', 'any'],
  in: ['string', 'integer', 'number', 'boolean', 'array', 'any'],
  gt: ['string', 'integer', 'number', 'any'],
  gte: ['string', 'integer', 'number', 'any'],
  lt: ['string', 'integer', 'number', 'any'],
  lte: ['string', 'integer', 'number', 'any'],
  like: ['string', 'any'],
  fuzzy: ['string', 'any'],
  keyword: ['string', 'any'],
};

/** Kinds `sort` can order (objects and arrays cannot). */
const SORTABLE: readonly FieldKind[] = ['string', 'integer', 'number', 'boolean', 'any'];

/** The kinds of `field` an operator applies to (empty: the operator does not apply to the field). */
export function applicableKinds(field: FieldModel, op: FieldOperator): FieldKind[] {
  return APPLIES_TO[op].filter((k) => field.kinds.has(k));
}

/** Whether `sort` may order by the field. */
export function isSortable(field: FieldModel): boolean {
  return SORTABLE.some((k) => field.kinds.has(k));
}

/**
 * Whether a single value fits one of `kinds` for an operator: `element` for eq/neq/in (the equality operand,
 * an element of an array field), `ordered` for comparisons (numbers and strings only).
 */
export function fitsKinds(value: unknown, kinds: readonly FieldKind[], use: 'element' | 'ordered'): boolean {
  return kinds.some((kind) => {
    switch (kind) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'object':
        return isPlainObject(value) && isJsonValue(value);
      case 'array':
        return isJsonValue(value);
      case 'any':
        return use === 'ordered' ? typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) : isJsonValue(value);
    }
  });
}

/** What operands `kinds` take, for messages ("a string or an integer"). */
export function describeKinds(kinds: readonly FieldKind[], use: 'element' | 'ordered'): string {
  const words = kinds.map((k) =>
    k === 'integer' ? 'an integer' : k === 'number' ? 'a number' : k === 'string' ? 'a string' : k === 'boolean' ? 'a boolean' : k === 'object' ? 'an object' : k === 'array' ? 'an array element' : use === 'ordered' ? 'a number or a string' : 'any JSON value',
  );
  return [...new Set(words)].join(' or ');
}
