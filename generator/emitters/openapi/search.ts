/**
 * Schemas of the uniform search of one entity: its searchable fields, a filter (exactly one operator; the
 * operators that apply to each field's type, as the docs and the runtime's types say), sort elements, the
 * search params and the hit result. Operand maps are shared per operand kind, so the document stays small.
 */
import { appliesTo, isFieldOperator, isOrdering, type SearchOperator } from '../docs/search-operators.js';
import type { EntityIR, PropertyIR, SpecIR } from '../../ir.js';
import { objectSchema, ref, valueSchema, type JsonSchema } from './schemas.js';

/** Component names of one entity's search schemas. */
export function searchNames(entity: string) {
  const base = `entity.${entity}.search`;
  return {
    fields: `${base}.fields`,
    filter: `${base}.filter`,
    sort: `${base}.sort`,
    params: `${base}.params`,
    result: `${base}.result`,
    operand: (kind: string) => `${base}.operand.${kind}`,
  };
}

/** Operators sharing an operand schema: compared values, ordered values, lists of values, text. */
function operandKind(op: SearchOperator): string {
  if (op.operand === 'values') return 'values';
  if (op.operand === 'text') return 'text';
  return isOrdering(op) ? 'ordered' : 'value';
}

/** The operand of one field: its element (array fields: an element), a list of them, or text. */
function operandSchema(field: PropertyIR, kind: string): JsonSchema {
  const element = field.types.includes('array') ? (field.items ? valueSchema(field.items, 'read', false) : {}) : valueSchema({ ...field, description: undefined }, 'read', false);
  if (kind === 'values') return { type: 'array', items: element };
  if (kind === 'text') return { type: 'string' };
  return element;
}

/**
 * Every search schema of one entity, by component name. `refTo` says how one refers to another: a component `$ref`
 * here; agent tools (emitters/tools) gather them under `$defs` of one self-contained schema.
 */
export function searchSchemas(ir: SpecIR, entity: EntityIR, refTo: (name: string) => JsonSchema = ref): Map<string, JsonSchema> {
  const names = searchNames(entity.name);
  const fields = entity.searchable?.properties ?? [];
  const open = fields.length === 0;
  const operators = ir.service.search.operators;
  const out = new Map<string, JsonSchema>();

  // Hit data: the searchable fields, each absent or null when the record has no value.
  const fieldsSchema = open
    ? { type: 'object', additionalProperties: true, description: `Searchable fields of ${entity.name}: not specified by the contract ("${entity.searchable?.unspecified ?? ''}").` }
    : { type: 'object', description: `Searchable fields of ${entity.name}.`, properties: Object.fromEntries(fields.map((f) => [f.name, valueSchema({ ...f, nullable: true }, 'read')])) };
  out.set(names.fields, fieldsSchema);

  const filterProps: Record<string, JsonSchema> = {};
  for (const op of operators) {
    if (op.operand === 'filter') filterProps[op.name] = { ...refTo(names.filter), description: op.description };
    else if (op.operand === 'filters') filterProps[op.name] = { type: 'array', minItems: 1, items: refTo(names.filter), description: op.description };
    else if (isFieldOperator(op)) {
      const kind = operandKind(op);
      const applicable = fields.filter((f) => appliesTo(op, f));
      if (!open && applicable.length === 0) continue;
      if (!out.has(names.operand(kind))) {
        out.set(
          names.operand(kind),
          open
            ? { type: 'object', minProperties: 1, description: 'Searchable field names mapped to operands (the fields are not specified by the contract).' }
            : { type: 'object', minProperties: 1, additionalProperties: false, description: 'Searchable field names mapped to operands; several fields: all must hold.', properties: Object.fromEntries(applicable.map((f) => [f.name, operandSchema(f, kind)])) },
        );
      }
      filterProps[op.name] = { ...refTo(names.operand(kind)), description: op.description };
    }
  }
  out.set(names.filter, { type: 'object', description: 'A filter: an object with exactly one key, an operator.', minProperties: 1, maxProperties: 1, additionalProperties: false, properties: filterProps });

  const direction = { enum: ['asc', 'desc'] };
  out.set(
    names.sort,
    open
      ? { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: direction, description: 'A sort element: one searchable field and a direction.' }
      : { type: 'object', minProperties: 1, maxProperties: 1, additionalProperties: false, description: 'A sort element: one searchable field and a direction.', properties: Object.fromEntries(fields.map((f) => [f.name, direction])) },
  );

  // Params: the service's search params, with the filter, sort and field names of this entity.
  const params = objectSchema(ir.service.search.params, 'param', false) as { properties: Record<string, JsonSchema> };
  const query = params.properties['query'] as { properties?: Record<string, JsonSchema> } | undefined;
  if (query?.properties?.['filter']) query.properties['filter'] = { ...refTo(names.filter), description: query.properties['filter']['description'] };
  if (query?.properties?.['sort']) query.properties['sort'] = { type: 'array', items: refTo(names.sort), description: query.properties['sort']['description'] };
  const fieldList = params.properties['fields'];
  if (fieldList && !open) params.properties['fields'] = { ...fieldList, items: { enum: fields.map((f) => f.name) } };
  out.set(names.params, { ...params, description: `Params of ${entity.name} search (the uniform search).` });

  // Result: the service's hit shape, with data typed by this entity's searchable fields.
  const result = objectSchema(ir.service.search.hit, 'read', false) as { properties: Record<string, JsonSchema> };
  for (const value of Object.values(result.properties)) {
    const items = value['items'] as { properties?: Record<string, JsonSchema> } | undefined;
    if (items?.properties?.['data']) items.properties['data'] = { ...refTo(names.fields), description: items.properties['data']['description'] };
  }
  out.set(names.result, { ...result, description: `One page of ${entity.name} search hits.` });
  return out;
}
