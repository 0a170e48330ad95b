/**
 * `src/client.ts` of a connector package: one resource interface per entity (a method per action, with JSDoc
 * and an example), and the client class that wires each method to the runtime with data, never with
 * connector-specific code.
 */
import { parentScope, type ActionIR, type ConnectorIR, type EntityIR, type PaginationIR, type SpecIR } from '../../ir.js';
import { generatedHeader } from '../header.js';
import { camelCase } from '../naming.js';
import { actionRuleLines, alternateKeysText, parentText } from '../rules-text.js';
import { hardline, indent, join, printDoc, type Doc } from '../ts/doc.js';
import { classDecl, code, constDecl, fileDoc, functionDecl, importDecl, interfaceDecl, literal, str, t, type LiteralValue, type Param, type TypeMember, type TypeNode } from '../ts/syntax.js';
import { clientClassName, methodExample, resourceTypeName } from './client-names.js';
import { paramsSchemaHolders, paramsSchemaName } from './params-file.js';
import { paginationDescriptor } from './paging.js';
import { OPEN_OBJECT } from './ts-types.js';
import { AUTH_CONFIG_TYPE, metaTypeName, paramsRequired, paramsTypeName, recordTypeName, searchFieldsTypeName } from './types-file.js';

export { clientClassName, methodExample, resourceTypeName } from './client-names.js';

/** Members of the runtime's ConnectorClient that an entity property must not shadow. */
const RESERVED_MEMBERS = new Set(['execute', 'createSource', 'constructor']);

/** Name of the constant holding a paging scheme's descriptor. */
const pagingConstant = (scheme: string) => `${camelCase(scheme)}Paging`;

/** `T.Name`: a type of the package's types.ts. */
const local = (name: string) => t.name(`T.${name}`);

function recordType(connector: ConnectorIR, action: ActionIR): TypeNode {
  const record = connector.records.find((r) => r.name === action.result.record);
  return record ? local(recordTypeName(record.name)) : OPEN_OBJECT;
}

function metaType(connector: ConnectorIR, action: ActionIR): TypeNode {
  const meta = connector.meta.find((m) => m.name === action.result.meta);
  return meta ? local(metaTypeName(meta.name)) : OPEN_OBJECT;
}

/** Type parameters, parameters and return type of one method. */
function signature(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Pick<Extract<TypeMember, { kind: 'method' }>, 'typeParams' | 'params' | 'returnType'> {
  if (action.name === 'search') {
    const fields = local(searchFieldsTypeName(entity.name));
    const k = t.name('K');
    return {
      typeParams: [{ name: 'K', constraint: t.keyof(fields), default: t.keyof(fields) }],
      params: [
        { name: 'params', type: t.name('SearchRequest', fields, k) },
        { name: 'options', optional: true, type: t.name('PageOptions') },
      ],
      returnType: t.name('PagePromise', t.name('SearchHit', fields, k), t.name('SearchResult', fields, k)),
    };
  }
  const params: Param = { name: 'params', optional: !paramsRequired(action), type: local(paramsTypeName(entity.name, action.name)) };
  switch (action.result.shape) {
    case 'list': {
      const record = recordType(connector, action);
      return {
        params: [params, { name: 'options', optional: true, type: t.name('PageOptions') }],
        returnType: t.name('PagePromise', record, t.name('Page', record, metaType(connector, action))),
      };
    }
    case 'binary':
      return { params: [params, { name: 'options', optional: true, type: t.name('RequestOptions') }], returnType: t.name('APIPromise', t.name('DownloadResponse')) };
    default:
      return { params: [params, { name: 'options', optional: true, type: t.name('RequestOptions') }], returnType: t.name('APIPromise', recordType(connector, action)) };
  }
}

function methodDocs(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string[] {
  const lines = [action.description];
  if (action.note) lines.push(`Note: ${action.note}`);
  lines.push(...actionRuleLines(action));
  if (action.keyParam && action.alternateKeys) lines.push(alternateKeysText(action.keyParam, action.alternateKeys));
  if (entity.recordsFrom) lines.push(`Works on the records of \`${entity.recordsFrom}\`.`);
  const parent = parentScope(connector, entity, action);
  if (parent) lines.push(parentText(parent));
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
  return lines;
}

function resourceInterface(connector: ConnectorIR, entity: EntityIR): Doc {
  return interfaceDecl({
    name: resourceTypeName(entity),
    exported: true,
    docs: [entity.description ?? `The ${entity.name} entity.`, entity.note ? `Note: ${entity.note}` : ''].filter(Boolean),
    members: entity.actions.map((action) => ({ kind: 'method', name: camelCase(action.name), docs: methodDocs(connector, entity, action), ...signature(connector, entity, action) })),
  });
}

/** What the runtime derives from a name (`apiSearch` → `api_search`); a descriptor states the name where this misses. */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** Whether the runtime's derivation from the property or method name gives `name` back (else the descriptor states it). */
const derivable = (name: string) => snakeCase(camelCase(name)) === name;

/**
 * One method as data for the runtime: what it sends and how its result is read, left out where the runtime derives
 * it (the action from the method name, the entity from the property name, a list result from `paging`, else
 * single). `holders`: the params export that holds each schema (paramsSchemaHolders), referred to instead of its
 * aliases.
 */
function methodDescriptor(connector: ConnectorIR, entity: EntityIR, action: ActionIR, holders: ReadonlyMap<string, string>): LiteralValue {
  const name = paramsSchemaName(connector, entity, action);
  const params = name && (holders.get(name) ?? name);
  const paging = action.result.shape === 'list' && action.pagination !== 'none' && action.pagination !== 'unspecified' ? pagingConstant(action.pagination) : undefined;
  const result = action.result.shape === 'binary' ? code('callDownload') : action.result.shape;
  return {
    ...(derivable(entity.name) ? {} : { entity: entity.name }),
    ...(derivable(action.name) ? {} : { action: action.name }),
    ...(result === (paging ? 'list' : 'single') ? {} : { result }),
    ...(params ? { params: code(`P.${params}`) } : {}),
    ...(paging ? { paging: code(paging) } : {}),
  };
}

/**
 * The resource table the client passes to the runtime's constructor: property name → method name → descriptor, one
 * entity and one method per line (as it reads best; prettier keeps objects written open so).
 */
function resourceTable(connector: ConnectorIR, holders: ReadonlyMap<string, string>): Doc {
  const entities = connector.entities.map((e) => {
    const methods = Object.fromEntries(e.actions.map((a) => [camelCase(a.name), methodDescriptor(connector, e, a, holders)]));
    return [camelCase(e.name), ': ', literal(methods, true)];
  });
  return ['{', indent([hardline, join([',', hardline], entities)]), ',', hardline, '}'];
}

/** The descriptor of a paging scheme as a literal; a next value given as a URL is read by the runtime's `nextFromUrl`. */
function pagingLiteral(scheme: PaginationIR, connector: ConnectorIR): LiteralValue {
  const descriptor = paginationDescriptor(scheme, connector);
  return scheme.next.queryParam === undefined ? descriptor : { ...descriptor, read: code('nextFromUrl') };
}

/** Emits src/client.ts for one connector. */
export function clientFile(ir: SpecIR, connector: ConnectorIR): string {
  const className = clientClassName(connector);
  const holders = paramsSchemaHolders(ir, connector);
  for (const e of connector.entities) {
    if (RESERVED_MEMBERS.has(camelCase(e.name))) throw new Error(`entity '${e.name}' of ${connector.id} would shadow the client member '${camelCase(e.name)}'`);
  }
  const client = camelCase(connector.id);
  const service: LiteralValue = {
    executePath: ir.service.execute.path,
    sourcesPath: ir.service.createSource.path,
    envelope: ir.service.envelope,
    search: paginationDescriptor(ir.service.search.pagination, undefined),
    reads: ir.service.actions.filter((a) => a.kind === 'read').map((a) => a.name),
    ...(ir.service.requestIdHeader ? { requestIdHeader: ir.service.requestIdHeader } : {}),
  };
  const constants: Doc[] = [
    constDecl({ docs: ['Service facts from spec/service.yaml.'], name: 'SERVICE', type: 'ServiceDescriptor', value: literal(service) }),
    ...connector.pagination.map((scheme) =>
      constDecl({
        docs: [
          `Paging scheme '${scheme.name}' of the ${connector.id} connector, as data for the runtime's iterator.`,
          scheme.description ?? '',
          scheme.next.queryParam === undefined ? '' : `${scheme.next.path ?? 'The next value'} is a URL: \`nextFromUrl\` reads \`${scheme.next.queryParam}\` out of it.`,
        ],
        name: pagingConstant(scheme.name),
        type: 'PaginationDescriptor',
        value: literal(pagingLiteral(scheme, connector)),
      }),
    ),
  ];
  const clientClass = classDecl({
    name: className,
    exported: true,
    // The auth_config type is what createSource takes.
    extends: `ConnectorClient<T.${AUTH_CONFIG_TYPE}>`,
    docs: [
      `Client of the ${connector.title} connector (${connector.entities.length} entities).`,
      connector.description,
      '@example',
      `const ${client} = new ${className}({ baseUrl: 'https://…', token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>' });`,
    ],
    groups: [
      // Assigned by the runtime's constructor from the resource table; `declare` keeps the compiled class free of empty field definitions.
      connector.entities.map((e) => ({ kind: 'property', modifiers: 'declare readonly ', name: camelCase(e.name), type: t.name(resourceTypeName(e)), docs: [e.description ?? `The ${e.name} entity.`] })),
      [
        {
          kind: 'constructor',
          docs: ['Creates a client for one source; `sourceId` selects the source every call runs on.'],
          params: [{ name: 'options', type: t.name('ClientOptions') }],
          body: [
            "// Each entity's methods as data. Unless a method says otherwise, the entity and action sent are the",
            '// snake_case forms of the property and method names.',
            [`super(options, SERVICE, ${str(connector.id)}, `, resourceTable(connector, holders), ');'],
          ],
        },
      ],
    ],
  });
  const usesParams = connector.entities.some((e) => e.actions.some((a) => paramsSchemaName(connector, e, a)));
  const runtime = ir.packaging.runtime.name;
  const imports: Doc[] = [
    importDecl({
      names: [
        ...(connector.entities.some((e) => e.actions.some((a) => a.result.shape === 'binary')) ? ['callDownload'] : []),
        'ConnectorClient',
        // Only clients with a scheme whose next value is a URL bundle its reader.
        ...(connector.pagination.some((s) => s.next.queryParam !== undefined) ? ['nextFromUrl'] : []),
      ],
      from: runtime,
    }),
    importDecl({
      typeOnly: true,
      names: ['APIPromise', 'ClientOptions', 'DownloadResponse', 'Page', 'PageOptions', 'PagePromise', 'PaginationDescriptor', 'RequestOptions', 'SearchHit', 'SearchRequest', 'SearchResult', 'ServiceDescriptor'],
      from: runtime,
    }),
    importDecl({ typeOnly: true, namespace: 'T', from: './types.js' }),
    ...(usesParams ? [importDecl({ namespace: 'P', from: './params.js' })] : []),
  ];
  const factory = functionDecl({
    name: `create${className}`,
    exported: true,
    docs: [`Creates a {@link ${className}}; the same as \`new ${className}(options)\`.`],
    params: [{ name: 'options', type: t.name('ClientOptions') }],
    returnType: t.name(className),
    body: [`return new ${className}(options);`],
  });
  const sections: Doc[][] = [imports, ...constants.map((c) => [c]), ...connector.entities.map((e) => [resourceInterface(connector, e)]), [clientClass], [factory]];
  return printDoc(fileDoc(generatedHeader(connector.file), sections));
}
