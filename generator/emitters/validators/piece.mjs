// One schema's ajv standalone code as a "piece": its top-level statements with every top-level name it declares
// (validateN, schemaN, patternN, funcN, …: ajv numbers them per Ajv instance) replaced by an index, so pieces compiled
// anywhere can be cached by schema and joined into one file under names of the file's own (assemble.ts). Plain
// JavaScript on purpose: worker threads load it without a TypeScript loader.

/**
 * @typedef {{ parts: (string | number)[], declares?: number, shared?: string }} PieceStatement
 *   A top-level statement: text, with each top-level name as its index in Piece.prefixes. `declares`: the name a
 *   `const` or `function` statement declares. `shared`: for a `const` whose value refers to no other top-level name
 *   (a pattern, a helper), its prefix and value — a file declares each such value once (as ajv does within one file).
 * @typedef {{ prefixes: string[], entry: number, statements: PieceStatement[] }} Piece
 *   Piece.prefixes[i]: the prefix of name i (`validate`, `schema`, …), names indexed by first appearance in the
 *   statements; `entry`: the validate function the schema's export names.
 */

/** ajv's names for the top-level values of its standalone code (its EXT_SCOPE_NAMES; function scopes cannot use them). */
const SCOPE_NAME = /^(?:validate|validate\$data|serialize|parse|wrapper|root|schema|keyword|pattern|formats|func|obj|Error)\d+$/;

/**
 * @typedef {{ start: number, end: number, names: number[] }} Scanned
 *   A top-level statement: code.slice(start, end); `names`: where a name of ajv's top-level values starts in it
 *   (outside strings, not after `.`).
 */

/**
 * The top-level statements of ajv's standalone code (from the first character to the closing `;` or `}`), or
 * undefined when the code has something ajv does not write (comments, template literals) or does not split cleanly.
 * A small scanner over character codes: strings, brackets, identifiers (ajv writes regular expressions as strings).
 * @param {string} code
 * @returns {Scanned[] | undefined}
 */
function scan(code) {
  /** @type {Scanned[]} */
  const statements = [];
  let depth = 0;
  let start = -1;
  /** @type {number[]} */
  let names = [];
  const n = code.length;
  for (let i = 0; i < n; i++) {
    const c = code.charCodeAt(i);
    if (start < 0) {
      if (c === 32 || c === 10 || c === 9 || c === 13) continue;
      start = i;
    }
    if (c === 34 || c === 39) {
      // a string: ends on its line
      for (i++; i < n; i++) {
        const d = code.charCodeAt(i);
        if (d === 92) i++;
        else if (d === c) break;
        else if (d === 10) return undefined;
      }
      if (i >= n) return undefined;
    } else if (c === 123 || c === 40 || c === 91) depth++;
    else if (c === 125 || c === 41 || c === 93) {
      if (--depth < 0) return undefined;
      // A function declaration ends at its closing brace (no semicolon follows).
      if (depth === 0 && c === 125 && code.startsWith('function', start) && !/^\s*[.(;,?:[]/.test(code.slice(i + 1, i + 20))) {
        statements.push({ start, end: i + 1, names });
        start = -1;
        names = [];
      }
    } else if (c === 59) {
      if (depth === 0) {
        statements.push({ start, end: i + 1, names });
        start = -1;
        names = [];
      }
    } else if (c === 96 || (c === 47 && (code.charCodeAt(i + 1) === 47 || code.charCodeAt(i + 1) === 42))) {
      return undefined; // a template literal or a comment: not written by ajv
    } else if (isIdentifierStart(c)) {
      let j = i + 1;
      while (j < n && isIdentifierPart(code.charCodeAt(j))) j++;
      const last = code.charCodeAt(j - 1);
      // Ends in a digit, and is not a property (`data.schema1`; `...x` is no property).
      if (last >= 48 && last <= 57 && !(code.charCodeAt(i - 1) === 46 && code.charCodeAt(i - 2) !== 46) && SCOPE_NAME.test(code.slice(i, j))) names.push(i - start);
      i = j - 1;
    } else if (c >= 48 && c <= 57) {
      // a number (ajv writes decimal, exponent or hex literals: letters in them are no identifiers)
      while (i + 1 < n && isIdentifierPart(code.charCodeAt(i + 1))) i++;
    }
  }
  if (depth !== 0 || start >= 0) return undefined;
  return statements;
}

/** @param {number} c */
function isIdentifierStart(c) {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** @param {number} c */
function isIdentifierPart(c) {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

/**
 * The top-level statements of ajv's standalone code, or undefined when it does not split cleanly (see scan).
 * @param {string} code
 * @returns {string[] | undefined}
 */
export function topLevelStatements(code) {
  return scan(code)?.map((s) => code.slice(s.start, s.end));
}

const DECLARATION = /^(?:const ([A-Za-z_$][\w$]*) = |function ([A-Za-z_$][\w$]*)\()/;
const EXPORT = /^export const [A-Za-z_$][\w$]* = ([A-Za-z_$][\w$]*);$/;

/**
 * The piece of ajv's standalone ESM code for one export (`standaloneCode(ajv, { name: id })`). Its names are indexed by
 * first appearance, so the piece depends only on the code ajv writes for the schema, not on the numbering of the Ajv
 * instance that compiled it.
 * @param {string} code
 * @returns {Piece}
 */
export function pieceOf(code) {
  const scanned = scan(code);
  if (!scanned) throw new Error('internal: ajv standalone code that does not split into top-level statements');
  const text = (s) => code.slice(s.start, s.end);
  if (scanned.length && text(scanned[0]) === '"use strict";') scanned.shift();
  const exported = scanned.length ? EXPORT.exec(text(scanned.shift())) : null;
  if (!exported) throw new Error('internal: ajv standalone code that does not start with its export');
  const heads = scanned.map((s) => DECLARATION.exec(code.slice(s.start, Math.min(s.end, s.start + 200))));
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {string[]} */
  const prefixes = [];
  for (const head of heads) {
    const name = head && (head[1] ?? head[2]);
    if (!name) continue;
    if (!SCOPE_NAME.test(name)) throw new Error(`internal: ajv standalone code declares ${name}, which is not one of ajv's scope names`);
    index.set(name, -1);
  }
  const indexOf = (name) => {
    let i = index.get(name);
    if (i === undefined) throw new Error(`internal: ajv standalone code uses ${name}, which it does not declare`);
    if (i < 0) {
      i = prefixes.length;
      index.set(name, i);
      prefixes.push(name.replace(/\d+$/, ''));
    }
    return i;
  };
  const entry = indexOf(exported[1]);
  const statements = scanned.map((s, k) => {
    const body = text(s);
    /** @type {(string | number)[]} */
    const parts = [];
    let from = 0;
    for (const at of s.names) {
      let to = at + 1;
      while (to < body.length && isIdentifierPart(body.charCodeAt(to))) to++;
      if (at > from) parts.push(body.slice(from, at));
      parts.push(indexOf(body.slice(at, to)));
      from = to;
    }
    if (from < body.length) parts.push(body.slice(from));
    /** @type {PieceStatement} */
    const statement = { parts };
    const head = heads[k];
    if (head) {
      statement.declares = index.get(head[1] ?? head[2]);
      // `const <name> = <value>;` whose value names nothing else: the same value is declared once per file.
      if (head[1] && parts.length === 3 && parts[0] === 'const ' && typeof parts[2] === 'string') statement.shared = `${prefixes[statement.declares]}\0${parts[2]}`;
    }
    return statement;
  });
  return { prefixes, entry, statements };
}
