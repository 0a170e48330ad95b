/** Names and examples of generated clients (docs, READMEs and tests use them too). */
import type { ActionIR, ConnectorIR, EntityIR } from '../../ir.js';
import { camelCase, pascalCase, stringLiteral } from '../naming.js';
import { exampleParams } from '../example-params.js';

/** Class name of a connector's client. */
export const clientClassName = (connector: ConnectorIR) => `${pascalCase(connector.id)}Client`;

/** Resource interface name of an entity. */
export const resourceTypeName = (entity: EntityIR) => `${pascalCase(entity.name)}Resource`;

/** A value of the param's type for examples: its literal, first enum value, lower bound or a placeholder. */
export function exampleValue(p: ActionIR['params'][number]): string {
  if (p.const !== undefined) return typeof p.const === 'string' ? stringLiteral(p.const) : String(p.const);
  if (p.enum?.length && !p.separator && p.types[0] !== 'array') return typeof p.enum[0] === 'string' ? stringLiteral(p.enum[0]) : String(p.enum[0]);
  switch (p.types[0]) {
    case 'integer':
    case 'number':
      return String(p.minimum ?? 1);
    case 'boolean':
      return 'true';
    case 'array':
      return '[]';
    case 'object':
      return '{}';
    default:
      return stringLiteral(`<${p.name}>`);
  }
}

/** The `@example` of a method: a call with its required params (and a param group's), in the way a user writes it. */
export function methodExample(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const client = camelCase(connector.id);
  const call = `${client}.${camelCase(entity.name)}.${camelCase(action.name)}`;
  const required = exampleParams(action);
  const args = required.length ? `{ ${required.map((p) => `${/^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : stringLiteral(p.name)}: ${exampleValue(p)}`).join(', ')} }` : '';
  switch (action.result.shape) {
    case 'list':
      return `for await (const record of ${call}(${args})) {\n  console.log(record);\n}`;
    case 'hits': {
      const field = entity.searchable?.properties.find((p) => p.types[0] === 'string');
      const filter = field ? `{ eq: { ${field.name}: '<value>' } }` : '';
      return `const { hits } = await ${call}({ query: { ${filter ? `filter: ${filter}` : ''} } });`.replace('{  }', '{}');
    }
    case 'binary':
      return `const file = await ${call}(${args});\nfor await (const chunk of file.body) process.stdout.write(chunk);`;
    default:
      return `const record = await ${call}(${args});`;
  }
}
