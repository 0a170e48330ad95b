/**
 * `src/client.ts` of a connector package: one resource interface per entity (a method per action, with JSDoc
 * and an example), and the client class that wires each method to the runtime with data, never with
 * connector-specific code.
 */
import type { ClassDeclarationStructure, InterfaceDeclarationStructure, StatementStructures, VariableStatementStructure } from 'ts-morph';
import type { ActionIR, ConnectorIR, EntityIR, SpecIR } from '../../ir.js';
import { camelCase, stringLiteral } from '../naming.js';
import { clientClassName, methodExample, resourceTypeName } from './client-names.js';

export { clientClassName, methodExample, resourceTypeName } from './client-names.js';
import { printTsFile, Scope, StructureKind, VariableDeclarationKind } from './ts-file.js';
import { paramsSchemaName } from './params-file.js';
import { paginationDescriptor } from './paging.js';
import { AUTH_CONFIG_TYPE, metaTypeName, paramsRequired, paramsTypeName, recordTypeName, searchFieldsTypeName } from './types-file.js';

/** Members of the runtime's ConnectorClient that an entity property must not shadow. */
const RESERVED_MEMBERS = new Set(['execute', 'createSource', 'constructor']);

/** Name of the constant holding a paging scheme's descriptor. */
const pagingConstant = (scheme: string) => `${camelCase(scheme)}Paging`;


function recordType(connector: ConnectorIR, action: ActionIR): string {
  const record = connector.records.find((r) => r.name === action.result.record);
  return record ? `T.${recordTypeName(record.name)}` : 'Record<string, unknown>';
}

function metaType(connector: ConnectorIR, action: ActionIR): string {
  const meta = connector.meta.find((m) => m.name === action.result.meta);
  return meta ? `T.${metaTypeName(meta.name)}` : 'Record<string, unknown>';
}

/** Parameter list and return type of one method. */
function signature(connector: ConnectorIR, entity: EntityIR, action: ActionIR) {
  if (action.name === 'search') {
    const fields = `T.${searchFieldsTypeName(entity.name)}`;
    return {
      typeParameters: [{ name: 'K', constraint: `keyof ${fields}`, default: `keyof ${fields}` }],
      parameters: [
        { name: 'params', type: `SearchRequest<${fields}, K>` },
        { name: 'options', type: 'PageOptions', hasQuestionToken: true },
      ],
      returnType: `PagePromise<SearchHit<${fields}, K>, SearchResult<${fields}, K>>`,
    };
  }
  const params = { name: 'params', type: `T.${paramsTypeName(entity.name, action.name)}`, hasQuestionToken: !paramsRequired(action) };
  switch (action.result.shape) {
    case 'list': {
      const record = recordType(connector, action);
      return {
        typeParameters: [],
        parameters: [params, { name: 'options', type: 'PageOptions', hasQuestionToken: true }],
        returnType: `PagePromise<${record}, Page<${record}, ${metaType(connector, action)}>>`,
      };
    }
    case 'binary':
      return { typeParameters: [], parameters: [params, { name: 'options', type: 'RequestOptions', hasQuestionToken: true }], returnType: 'Promise<DownloadResponse>' };
    default:
      return {
        typeParameters: [],
        parameters: [params, { name: 'options', type: 'RequestOptions', hasQuestionToken: true }],
        returnType: `Promise<${recordType(connector, action)}>`,
      };
  }
}



function methodDocs(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const lines = [action.description];
  if (action.note) lines.push(`Note: ${action.note}`);
  if (action.paramsUnspecified) lines.push(`Params not specified by the contract: "${action.paramsUnspecified}"`);
  if (action.pagination !== 'none' && action.pagination !== 'unspecified' && action.result.shape === 'list') {
    lines.push('Await it for the first page; iterate it (`for await`) to walk every record of every page; `.pages()` walks pages.');
  } else if (action.pagination === 'unspecified') {
    lines.push('How this action pages is not specified by the contract: iteration yields the first page only.');
  }
  if (action.result.shape === 'hits') {
    lines.push(`Filters and sorts take the searchable fields (\`${searchFieldsTypeName(entity.name)}\`). Await it for the first page of hits; iterate it (\`for await\`) to walk every hit of every page.`);
  }
  if (action.result.shape === 'binary') {
    lines.push(`Streams the bytes as \`body\`${action.rangeParam ? `; pass a range in \`${action.rangeParam}\` for partial content (206)` : ''}${action.maxBytes ? `; at most ${action.maxBytes} bytes` : ''}.`);
  }
  if (action.kind === 'write') lines.push('A write: never retried automatically.');
  if (action.deprecated) lines.push(`@deprecated ${action.deprecated}`);
  lines.push(`@example\n${methodExample(connector, entity, action)}`);
  return lines.join('\n');
}

function resourceInterface(connector: ConnectorIR, entity: EntityIR): InterfaceDeclarationStructure {
  return {
    kind: StructureKind.Interface,
    name: resourceTypeName(entity),
    isExported: true,
    docs: [[entity.description ?? `The ${entity.name} entity.`, entity.note ? `Note: ${entity.note}` : ''].filter(Boolean).join('\n')],
    methods: entity.actions.map((action) => ({ name: camelCase(action.name), docs: [methodDocs(connector, entity, action)], ...signature(connector, entity, action) })),
  };
}

/** One method as data for the runtime's `resource()`: what it sends and how its result is read. */
function methodDescriptor(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const params = paramsSchemaName(connector, entity, action);
  const paging = action.result.shape === 'list' && action.pagination !== 'none' && action.pagination !== 'unspecified' ? pagingConstant(action.pagination) : undefined;
  const result = { list: `'list'`, single: `'single'`, hits: `'hits'`, binary: 'callDownload' }[action.result.shape];
  const fields = [
    `action: ${stringLiteral(action.name)}`,
    `result: ${result}`,
    ...(params ? [`params: P.${params}`] : []),
    ...(paging ? [`paging: ${paging}`] : []),
  ];
  return `{ ${fields.join(', ')} }`;
}

/** Emits src/client.ts for one connector. */
export function clientFile(ir: SpecIR, connector: ConnectorIR): string {
  const className = clientClassName(connector);
  for (const e of connector.entities) {
    if (RESERVED_MEMBERS.has(camelCase(e.name))) throw new Error(`entity '${e.name}' of ${connector.id} would shadow the client member '${camelCase(e.name)}'`);
  }
  const service = {
    executePath: ir.service.execute.path,
    sourcesPath: ir.service.createSource.path,
    envelope: ir.service.envelope,
    search: JSON.parse(paginationDescriptor(ir.service.search.pagination, undefined)),
    reads: ir.service.actions.filter((a) => a.kind === 'read').map((a) => a.name),
  };
  const constants: VariableStatementStructure[] = [
    {
      kind: StructureKind.VariableStatement,
      declarationKind: VariableDeclarationKind.Const,
      docs: ['Service facts from spec/service.yaml.'],
      declarations: [{ name: 'SERVICE', type: 'ServiceDescriptor', initializer: JSON.stringify(service, null, 2) }],
    },
    ...connector.pagination.map(
      (scheme): VariableStatementStructure => ({
        kind: StructureKind.VariableStatement,
        declarationKind: VariableDeclarationKind.Const,
        docs: [`Paging scheme '${scheme.name}' of the ${connector.id} connector, as data for the runtime's iterator.${scheme.description ? `\n${scheme.description}` : ''}`],
        declarations: [{ name: pagingConstant(scheme.name), type: 'PaginationDescriptor', initializer: JSON.stringify(JSON.parse(paginationDescriptor(scheme, connector)), null, 2) }],
      }),
    ),
  ];
  const clientClass: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    extends: 'ConnectorClient',
    docs: [`Client of the ${connector.title} connector (${connector.entities.length} entities).\n${connector.description}\n@example\nconst ${camelCase(connector.id)} = new ${className}({ baseUrl: 'https://…', token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>' });`],
    properties: connector.entities.map((e) => ({
      name: camelCase(e.name),
      type: resourceTypeName(e),
      isReadonly: true,
      // Assigned in the constructor; `declare` keeps the compiled class free of empty field definitions.
      hasDeclareKeyword: true,
      docs: [e.description ?? `The ${e.name} entity.`],
    })),
    ctors: [
      {
        parameters: [{ name: 'options', type: 'ClientOptions' }],
        docs: ['Creates a client for one source; `sourceId` selects the source every call runs on.'],
        statements: [
          'super(options, SERVICE);',
          ...connector.entities.map(
            (e) =>
              `this.${camelCase(e.name)} = this.resource<${resourceTypeName(e)}>(${stringLiteral(e.name)}, {\n${e.actions.map((a) => `${camelCase(a.name)}: ${methodDescriptor(connector, e, a)},`).join('\n')}\n});`,
          ),
        ],
      },
    ],
    methods: [
      {
        name: 'createSource',
        hasOverrideKeyword: true,
        docs: [`Creates a ${connector.id} source; auth_config is typed by the connector's authentication.\n@example\nconst source = await ${camelCase(connector.id)}.createSource({ workspace_id: '<workspace>', source_template_id: ${stringLiteral(connector.id)}, name: 'My source', auth_config: {} });`],
        parameters: [
          { name: 'body', type: `CreateSourceBody<T.${AUTH_CONFIG_TYPE}>` },
          { name: 'options', type: 'RequestOptions', hasQuestionToken: true },
        ],
        returnType: 'Promise<Source>',
        statements: ['return super.createSource(body, options);'],
      },
    ],
  };
  const usesParams = connector.entities.some((e) => e.actions.some((a) => paramsSchemaName(connector, e, a)));
  const statements: (string | StatementStructures)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: ir.packaging.runtime.name,
      namedImports: connector.entities.some((e) => e.actions.some((a) => a.result.shape === 'binary')) ? ['callDownload', 'ConnectorClient'] : ['ConnectorClient'],
    },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: ir.packaging.runtime.name,
      namedImports: ['ClientOptions', 'CreateSourceBody', 'DownloadResponse', 'Page', 'PageOptions', 'PagePromise', 'PaginationDescriptor', 'RequestOptions', 'SearchHit', 'SearchRequest', 'SearchResult', 'ServiceDescriptor', 'Source'],
    },
    { kind: StructureKind.ImportDeclaration, isTypeOnly: true, moduleSpecifier: './types.js', namespaceImport: 'T' },
    ...(usesParams ? [{ kind: StructureKind.ImportDeclaration, moduleSpecifier: './params.js', namespaceImport: 'P' } as const] : []),
    ...constants,
    ...connector.entities.map((e) => resourceInterface(connector, e)),
    clientClass,
    {
      kind: StructureKind.Function,
      name: `create${className}`,
      isExported: true,
      docs: [`Creates a {@link ${className}}; the same as \`new ${className}(options)\`.`],
      parameters: [{ name: 'options', type: 'ClientOptions' }],
      returnType: className,
      statements: [`return new ${className}(options);`],
    },
  ];
  return printTsFile('client.ts', connector.file, { statements });
}
