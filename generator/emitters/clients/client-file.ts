/**
 * `src/client.ts` of a connector package: one resource interface per entity (a method per action, with JSDoc
 * and an example), and the client class that wires each method to the runtime with data, never with
 * connector-specific code.
 */
import type { ClassDeclarationStructure, InterfaceDeclarationStructure, StatementStructures, VariableStatementStructure } from 'ts-morph';
import type { ActionIR, ConnectorIR, EntityIR, PaginationIR, SpecIR } from '../../ir.js';
import { actionRuleLines } from '../rules-text.js';
import { camelCase, stringLiteral } from '../naming.js';
import { clientClassName, methodExample, resourceTypeName } from './client-names.js';

export { clientClassName, methodExample, resourceTypeName } from './client-names.js';
import { printTsFile, Scope, StructureKind, VariableDeclarationKind } from './ts-file.js';
import { paramsSchemaHolders, paramsSchemaName } from './params-file.js';
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
      return { typeParameters: [], parameters: [params, { name: 'options', type: 'RequestOptions', hasQuestionToken: true }], returnType: 'APIPromise<DownloadResponse>' };
    default:
      return {
        typeParameters: [],
        parameters: [params, { name: 'options', type: 'RequestOptions', hasQuestionToken: true }],
        returnType: `APIPromise<${recordType(connector, action)}>`,
      };
  }
}



function methodDocs(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const lines = [action.description];
  if (action.note) lines.push(`Note: ${action.note}`);
  lines.push(...actionRuleLines(action));
  if (entity.recordsFrom) lines.push(`Works on the records of \`${entity.recordsFrom}\`.`);
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

/** What the runtime derives from a name (`apiSearch` → `api_search`); a descriptor states the name where this misses. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * One method as data for the runtime: what it sends and how its result is read, left out where the runtime derives
 * it (the action from the method name, the entity from the property name, a list result from `paging`, else
 * single). `holders`: the params export that holds each schema (paramsSchemaHolders), referred to instead of its
 * aliases.
 */
function methodDescriptor(connector: ConnectorIR, entity: EntityIR, action: ActionIR, holders: ReadonlyMap<string, string>): string {
  const name = paramsSchemaName(connector, entity, action);
  const params = name && (holders.get(name) ?? name);
  const paging = action.result.shape === 'list' && action.pagination !== 'none' && action.pagination !== 'unspecified' ? pagingConstant(action.pagination) : undefined;
  const result = { list: `'list'`, single: `'single'`, hits: `'hits'`, binary: 'callDownload' }[action.result.shape];
  const fields = [
    ...(snakeCase(camelCase(entity.name)) !== entity.name ? [`entity: ${stringLiteral(entity.name)}`] : []),
    ...(snakeCase(camelCase(action.name)) !== action.name ? [`action: ${stringLiteral(action.name)}`] : []),
    ...(result !== (paging ? `'list'` : `'single'`) ? [`result: ${result}`] : []),
    ...(params ? [`params: P.${params}`] : []),
    ...(paging ? [`paging: ${paging}`] : []),
  ];
  return fields.length ? `{ ${fields.join(', ')} }` : '{}';
}

function paginationDescriptor(scheme: PaginationIR, connector: ConnectorIR | undefined): string {
  const sizeDefaults = new Set<number>();
  const paramTypes = new Set<string>();
  for (const a of connector?.entities.flatMap((e) => e.actions) ?? []) {
    if (a.pagination !== scheme.name) continue;
    const size = a.params.find((p) => p.name === scheme.sizeParam)?.default;
    if (typeof size === 'number') sizeDefaults.add(size);
    const type = a.params.find((p) => p.name === scheme.param)?.types[0];
    if (type) paramTypes.add(type);
  }
  // The page size and its default matter only to a shortPage stop: elsewhere the walker never reads them.
  const shortPage = scheme.stop.some((s) => s.when === 'shortPage');
  const descriptor = {
    param: scheme.param,
    ...(scheme.sizeParam && shortPage ? { sizeParam: scheme.sizeParam } : {}),
    // One default page size when every action of the scheme agrees on it.
    ...(sizeDefaults.size === 1 && shortPage ? { defaultSize: [...sizeDefaults][0] } : {}),
    // The cursor param's declared type, when every action of the scheme agrees on it (only a value read from a URL is converted).
    ...(paramTypes.size === 1 && scheme.next.queryParam !== undefined ? { paramType: [...paramTypes][0] } : {}),
    next: scheme.next,
    stop: scheme.stop,
  };
  return JSON.stringify(descriptor);
}

/**
 * A descriptor literal whose next value is a URL gets the runtime's `nextFromUrl` as `read` (imported only then,
 * so clients without such a scheme do not bundle it).
 */
function withUrlReader(scheme: PaginationIR, literal: string): string {
  if (scheme.next.queryParam === undefined) return literal;
  return `${literal.replace(/\n\}$/, '')},\n  // ${scheme.next.path ?? 'The next value'} is a URL: nextFromUrl reads ${scheme.next.queryParam} out of it.\n  "read": nextFromUrl\n}`;
}

/** Emits src/client.ts for one connector. */
export function clientFile(ir: SpecIR, connector: ConnectorIR): string {
  const className = clientClassName(connector);
  const holders = paramsSchemaHolders(ir, connector);
  for (const e of connector.entities) {
    if (RESERVED_MEMBERS.has(camelCase(e.name))) throw new Error(`entity '${e.name}' of ${connector.id} would shadow the client member '${camelCase(e.name)}'`);
  }
  const service = {
    executePath: ir.service.execute.path,
    sourcesPath: ir.service.createSource.path,
    envelope: ir.service.envelope,
    search: JSON.parse(paginationDescriptor(ir.service.search.pagination, undefined)),
    reads: ir.service.actions.filter((a) => a.kind === 'read').map((a) => a.name),
    ...(ir.service.requestIdHeader ? { requestIdHeader: ir.service.requestIdHeader } : {}),
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
        declarations: [{ name: pagingConstant(scheme.name), type: 'PaginationDescriptor', initializer: withUrlReader(scheme, JSON.stringify(JSON.parse(paginationDescriptor(scheme, connector)), null, 2)) }],
      }),
    ),
  ];
  const clientClass: ClassDeclarationStructure = {
    kind: StructureKind.Class,
    name: className,
    isExported: true,
    // The auth_config type is what createSource takes.
    extends: `ConnectorClient<T.${AUTH_CONFIG_TYPE}>`,
    docs: [`Client of the ${connector.title} connector (${connector.entities.length} entities).\n${connector.description}\n@example\nconst ${camelCase(connector.id)} = new ${className}({ baseUrl: 'https://…', token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>' });`],
    properties: connector.entities.map((e) => ({
      name: camelCase(e.name),
      type: resourceTypeName(e),
      isReadonly: true,
      // Assigned by the runtime's constructor from the resource table; `declare` keeps the compiled class free of empty field definitions.
      hasDeclareKeyword: true,
      docs: [e.description ?? `The ${e.name} entity.`],
    })),
    ctors: [
      {
        parameters: [{ name: 'options', type: 'ClientOptions' }],
        docs: ['Creates a client for one source; `sourceId` selects the source every call runs on.'],
        statements: [
          '// Each entity\'s methods as data. Unless a method says otherwise, the entity and action sent are the snake_case of the property and method names.',
          `super(options, SERVICE, ${stringLiteral(connector.id)}, {\n${connector.entities
            .map((e) => `  ${camelCase(e.name)}: {\n${e.actions.map((a) => `    ${camelCase(a.name)}: ${methodDescriptor(connector, e, a, holders)},`).join('\n')}\n  },`)
            .join('\n')}\n});`,
        ],
      },
    ],
  };
  const usesParams = connector.entities.some((e) => e.actions.some((a) => paramsSchemaName(connector, e, a)));
  const statements: (string | StatementStructures)[] = [
    {
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: ir.packaging.runtime.name,
      namedImports: [
        ...(connector.entities.some((e) => e.actions.some((a) => a.result.shape === 'binary')) ? ['callDownload'] : []),
        'ConnectorClient',
        ...(connector.pagination.some((s) => s.next.queryParam !== undefined) ? ['nextFromUrl'] : []),
      ],
    },
    {
      kind: StructureKind.ImportDeclaration,
      isTypeOnly: true,
      moduleSpecifier: ir.packaging.runtime.name,
      namedImports: ['APIPromise', 'ClientOptions', 'DownloadResponse', 'Page', 'PageOptions', 'PagePromise', 'PaginationDescriptor', 'RequestOptions', 'SearchHit', 'SearchRequest', 'SearchResult', 'ServiceDescriptor'],
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
