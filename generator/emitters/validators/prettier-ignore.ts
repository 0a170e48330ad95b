/**
 * The validators are ajv's standalone code: machine-written JavaScript of about 100–230 KB per connector, read by
 * no reviewer and costing seconds to format. Instead of formatting it, each of its top-level statements is marked
 * `// prettier-ignore` (prettier's own way to keep code as written), so the file passes `prettier --check` while the
 * code stays exactly as ajv wrote it. This splits the code into top-level statements with a small scanner (strings,
 * template literals, comments and brackets; ajv writes regular expressions as strings).
 */

/** `code` with `// prettier-ignore` before each top-level statement, or undefined when it cannot be split safely. */
export function ignoredByPrettier(code: string): string | undefined {
  const statements: string[] = [];
  let depth = 0;
  let start = -1;
  let i = 0;
  const end = (at: number) => {
    statements.push(code.slice(start, at + 1));
    start = -1;
  };
  while (i < code.length) {
    const ch = code[i]!;
    if (start < 0) {
      if (/\s/.test(ch)) {
        i++;
        continue;
      }
      if (code.startsWith('//', i) || code.startsWith('/*', i)) return undefined; // comments between statements: not ajv's
      start = i;
    }
    if (ch === '"' || ch === "'") {
      i = skipString(code, i, ch);
      if (i < 0) return undefined;
      continue;
    }
    if (ch === '`') return undefined; // not written by ajv
    if (code.startsWith('//', i)) {
      const next = code.indexOf('\n', i);
      i = next < 0 ? code.length : next;
      continue;
    }
    if (code.startsWith('/*', i)) {
      const next = code.indexOf('*/', i + 2);
      if (next < 0) return undefined;
      i = next + 2;
      continue;
    }
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') {
      depth--;
      if (depth < 0) return undefined;
      // A function declaration ends at its closing brace (no semicolon follows).
      if (depth === 0 && ch === '}' && /^function\b/.test(code.slice(start, start + 9)) && !/^\s*[.(;,?:[]/.test(code.slice(i + 1, i + 20))) {
        end(i);
      }
    } else if (ch === ';' && depth === 0) end(i);
    i++;
  }
  if (depth !== 0 || start >= 0) return undefined;
  return statements.map((s) => `// prettier-ignore\n${s}`).join('\n');
}

/** Index after the string starting at `at`, or -1 when it does not end on its line. */
function skipString(code: string, at: number, quote: string): number {
  for (let i = at + 1; i < code.length; i++) {
    const ch = code[i];
    if (ch === '\\') i++;
    else if (ch === quote) return i + 1;
    else if (ch === '\n') return -1;
  }
  return -1;
}
