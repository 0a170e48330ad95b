/**
 * Type expressions in the seeds' notation: `string`, `object|null`, `array<string>`,
 * `array<object|null>`, `string|integer|any`.
 */

/** The seeds' base type vocabulary. `any` is the seeds' "object|any": anything goes. */
export const BASE_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'any'] as const;

/** One base type of the seeds' vocabulary. */
export type BaseType = (typeof BASE_TYPES)[number];

/** A parsed type expression. */
export interface ParsedType {
  /** Base types in the order written, without null. */
  types: BaseType[];
  /** Whether `null` is one of the alternatives. */
  nullable: boolean;
  /** Element type, when written as `array<T>`. */
  items?: ParsedType;
}

/** Parses a type expression, or returns an error message that says what is wrong. */
export function parseTypeExpr(text: string): ParsedType | { error: string } {
  let pos = 0;
  const fail = (why: string) => ({ error: `invalid type expression '${text}': ${why}` });

  const parseUnion = (): ParsedType | { error: string } => {
    const result: ParsedType = { types: [], nullable: false };
    for (;;) {
      const match = /^[a-z]+/.exec(text.slice(pos));
      if (!match) return fail(`expected a type name at position ${pos + 1}`);
      const word = match[0];
      pos += word.length;
      if (word === 'null') {
        if (result.nullable) return fail("'null' appears twice");
        result.nullable = true;
      } else if ((BASE_TYPES as readonly string[]).includes(word)) {
        if (result.types.includes(word as BaseType)) return fail(`'${word}' appears twice`);
        result.types.push(word as BaseType);
        if (word === 'array' && text[pos] === '<') {
          pos++;
          const inner = parseUnion();
          if ('error' in inner) return inner;
          if (text[pos] !== '>') return fail(`expected '>' at position ${pos + 1}`);
          pos++;
          result.items = inner;
        }
      } else {
        return fail(`unknown type '${word}' (use ${BASE_TYPES.join(', ')} or null)`);
      }
      if (text[pos] !== '|') break;
      pos++;
    }
    if (result.types.length === 0) return fail("'null' alone is not a type");
    return result;
  };

  const parsed = parseUnion();
  if ('error' in parsed) return parsed;
  if (pos !== text.length) return fail(`unexpected '${text.slice(pos)}'`);
  return parsed;
}

/** Writes a parsed type back in the seeds' notation (without null). */
export function formatTypes(types: readonly BaseType[]): string {
  return types.join('|');
}
