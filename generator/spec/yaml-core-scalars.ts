/**
 * How `yaml`'s core schema (YAML 1.2) resolves a plain scalar: the same patterns and conversions as
 * `yaml/dist/schema/core/*.js`, with no YAML 1.1 extras (`0b101`, `1_000`, timestamps). Shared by the two fast paths of
 * parsing (yaml-block.ts, yaml-fast.ts), so both read `007` or `.inf` exactly as the `yaml` path does.
 */

/** What a resolver returns for a scalar that is not of its type. */
export const NOT_THIS_TYPE: unique symbol = Symbol('not this type');

/** `~`, `null`, `Null`, `NULL` and the empty plain scalar (yaml core `nullTag`). */
export function coreNull(source: string): null | typeof NOT_THIS_TYPE {
  return /^(?:~|[Nn]ull|NULL)?$/.test(source) ? null : NOT_THIS_TYPE;
}

/** `true`, `True`, `TRUE` and the same of false (yaml core `boolTag`). */
export function coreBool(source: string): boolean | typeof NOT_THIS_TYPE {
  return /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(source) ? source[0] === 't' || source[0] === 'T' : NOT_THIS_TYPE;
}

/** Octal `0o17`, decimal `+12`, hex `0x1F`, each converted as yaml core `intOct`, `int`, `intHex` do (parseInt). */
export function coreInt(source: string): number | typeof NOT_THIS_TYPE {
  if (/^0o[0-7]+$/.test(source)) return parseInt(source.substring(2), 8);
  if (/^[-+]?[0-9]+$/.test(source)) return parseInt(source, 10);
  if (/^0x[0-9a-fA-F]+$/.test(source)) return parseInt(source.substring(2), 16);
  return NOT_THIS_TYPE;
}

/** `.inf`, `-.Inf`, `.NaN`, `1e3`, `1.5`, `.5`, `1.` as yaml core `floatNaN`, `floatExp`, `float` (parseFloat; 1e400 is Infinity). */
export function coreFloat(source: string): number | typeof NOT_THIS_TYPE {
  if (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(source)) {
    return source.slice(-3).toLowerCase() === 'nan' ? NaN : source[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(source) || /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(source)) return parseFloat(source);
  return NOT_THIS_TYPE;
}

/** First characters a plain scalar needs to be anything but a string: the others skip every pattern. */
const NON_STRING_START = /^[-+.0-9~nNtTfF]|^$/;

/** A plain scalar's value as the core schema resolves it: null, boolean, integer, float (tried in yaml's order), else the text. */
export function corePlain(source: string): unknown {
  if (!NON_STRING_START.test(source)) return source;
  for (const resolve of [coreNull, coreBool, coreInt, coreFloat]) {
    const value = resolve(source);
    if (value !== NOT_THIS_TYPE) return value;
  }
  return source;
}
