/** JSON data as a TypeScript literal: unquoted keys where they are identifiers, single-quoted strings. */
import { propertyKey, stringLiteral } from '../naming.js';

/** `value` as a one-line TypeScript expression (the formatter wraps long lines). */
export function tsLiteral(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(tsLiteral).join(', ')}]`;
  switch (typeof value) {
    case 'string':
      return stringLiteral(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'object': {
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      return entries.length ? `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${tsLiteral(v)}`).join(', ')} }` : '{}';
    }
    default:
      throw new Error(`internal: ${typeof value} is not JSON data`);
  }
}
