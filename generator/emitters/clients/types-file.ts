/**
 * `src/types.ts` of a connector package: record, meta, params, searchable-field and auth_config types.
 * Unspecified shapes become open objects with the contract's words in their JSDoc.
 */
import type { InterfaceDeclarationStructure, TypeAliasDeclarationStructure } from 'ts-morph';
import { authConfigFields, type ActionIR, type ConnectorIR, type EntityIR, type PropertyIR, type ShapeIR } from '../../ir.js';
import { propertyKey } from '../naming.js';
import { AUTH_CONFIG_TYPE, metaTypeName, paramsTypeName, recordTypeName, searchFieldsTypeName } from './type-names.js';

export { AUTH_CONFIG_TYPE, metaTypeName, paramsRequired, paramsTypeName, recordTypeName, searchFieldsTypeName } from './type-names.js';
import { memberDoc, objectType, OPEN_OBJECT, schemaType } from './ts-types.js';
import { printTsFile, StructureKind } from './ts-file.js';

type Declaration = InterfaceDeclarationStructure | TypeAliasDeclarationStructure;

const NOT_SPECIFIED = 'Not specified by the contract';

function interfaceOf(name: string, docs: string[], props: PropertyIR[], mode: 'read' | 'param', open: boolean): Declaration {
  return {
    kind: StructureKind.Interface,
    name,
    isExported: true,
    docs: [docs.join('\n')],
    properties: props.map((p) => ({
      name: propertyKey(p.name),
      type: schemaType(p, mode),
      hasQuestionToken: mode === 'param' && !p.required,
      docs: [memberDoc(p).join('\n')],
    })),
    indexSignatures: open ? [{ keyName: 'key', keyType: 'string', returnType: 'unknown', docs: ['The contract does not list every field; others may be present.'] }] : [],
  };
}

function aliasOf(name: string, docs: string[], type: string): Declaration {
  return { kind: StructureKind.TypeAlias, name, isExported: true, docs: [docs.join('\n')], type };
}

/** A record or meta shape: an interface, open when the contract leaves fields out; an open alias when it shows none. */
function shapeDeclaration(name: string, shape: ShapeIR, what: string): Declaration {
  const docs = [shape.description ?? what];
  if (shape.unspecified) docs.push(`${NOT_SPECIFIED}: "${shape.unspecified}"`);
  if (shape.note) docs.push(`Note: ${shape.note}`);
  if (shape.assumption) docs.push(`Assumption: ${shape.assumption}`);
  if (shape.properties.length === 0) return aliasOf(name, docs, OPEN_OBJECT);
  return interfaceOf(name, docs, shape.properties, 'read', shape.unspecified !== undefined);
}

function paramsDeclaration(entity: EntityIR, action: ActionIR): Declaration {
  const name = paramsTypeName(entity.name, action.name);
  const docs = [`Params of ${entity.name} ${action.name}.`];
  if (action.paramsUnspecified) docs.push(`${NOT_SPECIFIED}: "${action.paramsUnspecified}"`);
  if (action.params.length === 0) return aliasOf(name, docs, action.paramsUnspecified ? OPEN_OBJECT : 'Record<string, never>');
  return interfaceOf(name, docs, action.params, 'param', action.paramsUnspecified !== undefined);
}

function searchFieldsDeclaration(entity: EntityIR): Declaration {
  const name = searchFieldsTypeName(entity.name);
  const searchable = entity.searchable!;
  const docs = [`Searchable fields of ${entity.name} (action search).`];
  if (searchable.unspecified) docs.push(`${NOT_SPECIFIED}: "${searchable.unspecified}"`);
  if (searchable.properties.length === 0) return aliasOf(name, docs, OPEN_OBJECT);
  return interfaceOf(name, docs, searchable.properties, 'read', false);
}


/** The JSDoc of a configuration variable: what it does, its default, and that it is a variable. */
function variableDoc(v: ConnectorIR['auth']['variables'][number]): string {
  const parts = [v.description ?? `The \`${v.name}\` configuration variable.`];
  if (v.default !== undefined) parts.push(`Default: ${JSON.stringify(v.default)}.`);
  else if (v.defaultUnspecified) parts.push(`Has a default; ${NOT_SPECIFIED.toLowerCase()}: "${v.defaultUnspecified}" Omit it to use the default.`);
  return parts.join(' ');
}

/** Emits src/types.ts for one connector. */
export function typesFile(connector: ConnectorIR): string {
  const statements: Declaration[] = [];
  for (const r of connector.records) statements.push(shapeDeclaration(recordTypeName(r.name), r, `The ${r.name} record.`));
  for (const m of connector.meta) statements.push(shapeDeclaration(metaTypeName(m.name), m, `Meta of ${m.name} results.`));
  for (const e of connector.entities) {
    if (e.searchable) statements.push(searchFieldsDeclaration(e));
    for (const a of e.actions) if (a.name !== 'search') statements.push(paramsDeclaration(e, a));
  }
  const auth = connector.auth;
  const authDocs = [`auth_config of a ${connector.id} source (credentials stored with the source).`];
  if (auth.unspecified) authDocs.push(`${NOT_SPECIFIED}: "${auth.unspecified}"`);
  // Fields and the configuration variables supplied in auth_config (one with a default may be left out).
  const members = authConfigFields(auth).map((m) => ('suppliedIn' in m ? { ...m, description: variableDoc(m) } : m));
  // A type alias, not an interface: object type aliases are assignable to the runtime's Record<string, unknown>.
  statements.push(aliasOf(AUTH_CONFIG_TYPE, authDocs, members.length ? objectType(members, 'param', false) : OPEN_OBJECT));
  return printTsFile('types.ts', connector.file, { statements });
}
