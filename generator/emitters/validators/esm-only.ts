/**
 * ajv's ESM standalone output still require()s some runtime helpers; this inlines them so the code loads as plain
 * ESM. Any require without an inline replacement fails loudly rather than shipping a broken module.
 */

/** ajv's runtime helpers that its standalone code require()s, as inline ESM. */
const INLINE_HELPERS: Record<string, { name: string; source: string }> = {
  'ajv/dist/runtime/ucs2length': {
    name: 'ucs2length',
    // Length in code points, as JSON Schema counts it (a surrogate pair is one character).
    source: `function ucs2length(str) {
  let length = 0;
  for (let pos = 0; pos < str.length; length++) {
    const value = str.charCodeAt(pos++);
    if (value >= 0xd800 && value <= 0xdbff && pos < str.length && (str.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}`,
  },
};

/**
 * `code` with each `require("<helper>").default` replaced by the helper's name; the helpers used (module names) are
 * added to `used`. Throws on any other require.
 */
export function inlineRequires(code: string, what: string, used: Set<string>): string {
  const out = code.replace(/require\("([^"]+)"\)\.default/g, (match, module: string) => {
    const helper = INLINE_HELPERS[module];
    if (!helper) return match;
    used.add(module);
    return helper.name;
  });
  const left = /require\("([^"]+)"\)/.exec(out);
  if (left) throw new Error(`internal: ajv standalone code of ${what} requires '${left[1]}', which has no inline replacement`);
  return out;
}

/** The source of each helper in `used` (module names), sorted by module: each a function declaration. */
export function helperSources(used: Set<string>): string[] {
  return [...used].sort().map((m) => INLINE_HELPERS[m]!.source);
}

/** Makes ajv's standalone ESM self-contained: inlines the helpers it require()s; refuses any other require. */
export function esmOnly(code: string, what: string): string {
  const used = new Set<string>();
  const out = inlineRequires(code, what, used);
  return helperSources(used).map((source) => `${source}\n`).join('') + out.replace(/^"use strict";/, '');
}
