/**
 * Syntax of generated TypeScript as prettier documents, in the shapes prettier's own printer gives the same syntax
 * (see doc.ts): string literals and property keys as prettier normalizes them, data literals (objects, arrays),
 * type expressions, JSDoc comments, and the declarations generated files are made of.
 */
import { align, fill, group, hardline, ifBreak, indent, join, line, softline, type Doc } from './doc.js';

// ---------------------------------------------------------------------------------------------------------------------
// Tokens

/** Characters a string literal escapes besides its quote (matched per code unit: none is a surrogate). */
const ESCAPED = /[\\\n\r\t\u2028\u2029\u0000-\u001f\u007f]/;
const ESCAPED_IN_SINGLE = /[\\'\n\r\t\u2028\u2029\u0000-\u001f\u007f]/g;
const ESCAPED_IN_DOUBLE = /[\\"\n\r\t\u2028\u2029\u0000-\u001f\u007f]/g;

function escapeChar(ch: string): string {
  if (ch === '\n') return '\\n';
  if (ch === '\r') return '\\r';
  if (ch === '\t') return '\\t';
  if (ch === '\u2028' || ch === '\u2029') return `\\u${ch.charCodeAt(0).toString(16)}`;
  if (ch < ' ' || ch === '\u007f') return `\\x${ch.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return `\\${ch}`; // a backslash or the quote
}

/** A string literal as prettier prints it: single quotes unless the text holds more single than double quotes. */
export function str(value: string): string {
  // Most text holds no single quote and needs no escape: two native scans, no loop over its characters.
  if (value.indexOf("'") < 0 && !ESCAPED.test(value)) return `'${value}'`;
  let singles = 0;
  let doubles = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 39) singles++;
    else if (c === 34) doubles++;
  }
  const quote = singles > doubles ? '"' : "'";
  // Most text needs no escape: no scan that builds the string again.
  if ((singles > doubles ? doubles : singles) === 0 && !ESCAPED.test(value)) return `${quote}${value}${quote}`;
  return `${quote}${value.replace(quote === "'" ? ESCAPED_IN_SINGLE : ESCAPED_IN_DOUBLE, escapeChar)}${quote}`;
}

/** Identifier names prettier unquotes as property keys (ES5 identifier names). */
const IDENTIFIER_NAME = /^[$_\p{L}\p{Nl}][$_\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u;
/** The same for ASCII text (the Unicode classes add nothing there), at a fraction of the cost. */
const ASCII_IDENTIFIER_NAME = /^[$_A-Za-z][$_A-Za-z0-9]*$/;
const NON_ASCII = /[^\u0000-\u007f]/;

/** A property key: bare when prettier would unquote it, else a string literal. */
export function key(name: string): string {
  return ASCII_IDENTIFIER_NAME.test(name) || (NON_ASCII.test(name) && IDENTIFIER_NAME.test(name)) ? name : str(name);
}

/** A number as prettier prints it (lowercase exponent without `+`, no trailing zeros). */
export function num(value: number): string {
  return String(value)
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(\d)/, '$1$2$3')
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, '$1')
    .replace(/(\.\d+?)0+(?=e|$)/, '$1')
    .replace(/\.(?=e|$)/, '');
}

/**
 * `parts` in a row, adjacent texts joined and empty ones dropped (one text prints as two do): a row of texts is one
 * text. Fewer, longer texts make every document smaller to lay out.
 */
export function row(...parts: Doc[]): Doc {
  const out: Doc[] = [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') text += part;
    else {
      if (text !== '') out.push(text);
      text = '';
      out.push(part);
    }
  }
  if (out.length === 0) return text;
  if (text !== '') out.push(text);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------------
// Data literals

/** Code to place as is in a literal (an identifier, a member access), instead of data. */
export class Code {
  constructor(readonly text: string) {}
}

/** `text` as code inside a literal. */
export const code = (text: string) => new Code(text);

/** A spread (`...text`) inside an object or array literal; in an object its key only keeps the entries apart. */
export class Spread extends Code {}

/** `...text` inside a literal: `{ title, '...hints': spread('readHints') }` prints `{ title, ...readHints }`. */
export const spread = (text: string) => new Spread(text);

/** A data literal value: JSON data, or Code. */
export type LiteralValue = string | number | boolean | null | Code | LiteralValue[] | { [key: string]: LiteralValue | undefined };

const isObject = (v: unknown): v is Record<string, LiteralValue | undefined> => v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Code);

/** How many entries an array or object literal prints (0 for anything else). */
function sizeOf(v: LiteralValue): number {
  if (Array.isArray(v)) return v.length;
  if (!isObject(v)) return 0;
  let size = 0;
  for (const k of Object.keys(v)) if (v[k] !== undefined) size++;
  return size;
}

/** The trailing comma of a broken literal: documents are never mutated, so shared. */
const TRAILING_COMMA: Doc = ifBreak(',');

/**
 * A key and its value as prettier lays out an object property, in as few nodes as print the same: a scalar property is
 * one text, and prettier's group around a property is left out (it holds no line but the value's own, so the value's
 * group alone decides the same).
 */
function property(name: string, value: LiteralValue): Doc {
  if (value instanceof Spread) return `...${value.text}`;
  const k = key(name);
  if (typeof value === 'string') {
    // A string value may move to the next line, unless the key is too short for that to help (prettier's rule).
    return k.length >= 5 ? [`${k}:`, group(indent([line, str(value)]))] : `${k}: ${str(value)}`;
  }
  const printed = literal(value);
  return typeof printed === 'string' ? `${k}: ${printed}` : [`${k}: `, printed];
}

/** Adds `entry` to literal entries after a `,` and a line: the comma joins a text before it (one text prints the same as two). */
function pushEntry(entries: Doc[], entry: Doc): void {
  if (entries.length) {
    const last = entries.length - 1;
    const previous = entries[last];
    if (typeof previous === 'string') entries[last] = `${previous},`;
    else entries.push(',');
    entries.push(line);
  }
  entries.push(entry);
}

/**
 * A data literal. Objects and arrays break only when they do not fit (`expanded` forces the outermost object open, as
 * prettier keeps an object open that was written open); an array of several objects (or arrays) with more than one
 * entry each always breaks, and arrays of numbers fill lines, as prettier prints them.
 */
export function literal(value: LiteralValue, expanded = false): Doc {
  if (value instanceof Spread) return `...${value.text}`;
  if (value instanceof Code) return value.text;
  if (value === null) return 'null';
  if (typeof value === 'string') return str(value);
  if (typeof value === 'number') return value < 0 ? `-${num(-value)}` : num(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const shouldBreak = value.length > 1 && value.every((v, i) => (Array.isArray(v) || isObject(v)) && sizeOf(v) > 1 && (i === value.length - 1 || Array.isArray(v) === Array.isArray(value[i + 1])));
    if (value.length > 1 && value.every((v) => typeof v === 'number')) {
      // Numbers fill lines; the trailing comma belongs to the array's own group.
      const id = Symbol('array');
      const parts: Doc[] = [];
      value.forEach((v, i) => {
        const last = i === value.length - 1;
        parts.push([literal(v), last ? ifBreak(',', '', { groupId: id }) : ',']);
        if (!last) parts.push(line);
      });
      return group(['[', indent([softline, fill(parts)]), softline, ']'], { id });
    }
    const items: Doc[] = [];
    for (const v of value) pushEntry(items, literal(v));
    return group(['[', indent([softline, items]), TRAILING_COMMA, softline, ']'], { shouldBreak });
  }
  const entries: Doc[] = [];
  for (const k of Object.keys(value)) {
    const v = value[k];
    if (v !== undefined) pushEntry(entries, property(k, v));
  }
  if (entries.length === 0) return '{}';
  return group(['{', indent([line, entries]), TRAILING_COMMA, line, '}'], { shouldBreak: expanded });
}

// ---------------------------------------------------------------------------------------------------------------------
// Comments

/** A line break of any kind, inside a doc line. */
const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/;
/** What a doc line may need cleaned: a line break, a `*\/`, or white space at its end. */
const UNCLEAN = /[\r\n\u2028\u2029]|\*\/|\s$/;

/** A JSDoc block from lines (empty lines dropped at the ends); `*\/` inside the text is defused. Ends with a hardline. */
export function jsdoc(lines: string[]): Doc {
  const clean: string[] = [];
  for (const l of lines) {
    // Most lines are clean already: one scan, nothing rebuilt.
    if (!UNCLEAN.test(l)) clean.push(l);
    else for (const part of l.split(LINE_BREAK)) clean.push(part.replace(/\*\//g, '*\\/').trimEnd());
  }
  while (clean.length && clean[0] === '') clean.shift();
  while (clean.length && clean.at(-1) === '') clean.pop();
  if (clean.length === 0) return '';
  if (clean.length === 1) return [`/** ${clean[0]!.trim()} */`, hardline];
  // join(hardline, …) without the intermediate arrays: a line trimmed at its end is blank only when empty.
  const block: Doc[] = ['/**'];
  for (const l of clean) block.push(hardline, l ? ` * ${l}` : ' *');
  block.push(hardline, ' */');
  return [block, hardline];
}

// ---------------------------------------------------------------------------------------------------------------------
// Types

/** A type expression. */
export type TypeNode =
  | { kind: 'name'; name: string; args?: TypeNode[] }
  | { kind: 'literal'; value: string | number | boolean }
  | { kind: 'union'; types: TypeNode[] }
  | { kind: 'object'; members: TypeMember[] }
  | { kind: 'keyof'; type: TypeNode };

/** A member of an object type or interface. */
export type TypeMember =
  | { kind: 'property'; name: string; optional?: boolean; type: TypeNode; docs?: string[] }
  | { kind: 'index'; keyName: string; keyType: TypeNode; type: TypeNode; docs?: string[] }
  | { kind: 'method'; name: string; typeParams?: TypeParam[]; params: Param[]; returnType: TypeNode; docs?: string[] };

/** A type parameter `K extends C = D`. */
export interface TypeParam {
  name: string;
  constraint?: TypeNode;
  default?: TypeNode;
}

/** A function parameter. */
export interface Param {
  name: string;
  optional?: boolean;
  type: TypeNode;
}

/** Type builders. */
export const t = {
  name: (name: string, ...args: TypeNode[]): TypeNode => (args.length ? { kind: 'name', name, args } : { kind: 'name', name }),
  literal: (value: string | number | boolean): TypeNode => ({ kind: 'literal', value }),
  /** A union; nested unions are flattened, as TypeScript parses `A | (B | C)` written without parentheses. */
  union: (types: TypeNode[]): TypeNode => {
    const flat = types.some((m) => m.kind === 'union') ? types.flatMap((m) => (m.kind === 'union' ? m.types : [m])) : [...types];
    return flat.length === 1 ? flat[0]! : { kind: 'union', types: flat };
  },
  object: (members: TypeMember[]): TypeNode => ({ kind: 'object', members }),
  keyof: (type: TypeNode): TypeNode => ({ kind: 'keyof', type }),
};

/** Keyword types; every other name is a type reference. */
const KEYWORDS = new Set(['any', 'bigint', 'boolean', 'never', 'null', 'number', 'object', 'string', 'symbol', 'undefined', 'unknown', 'void']);
const isObjectType = (node: TypeNode) => node.kind === 'object';
const isSimpleType = (node: TypeNode) => node.kind === 'name' && !node.args?.length;
const isVoid = (node: TypeNode) => node.kind === 'name' && (node.name === 'null' || node.name === 'void');
/** Object types and type references (prettier counts `Array<{…}>` as object-like). */
const isObjectLike = (node: TypeNode) => isObjectType(node) || (node.kind === 'name' && !KEYWORDS.has(node.name));

/** Types prettier keeps on one line with their surroundings: simple and object types, and `{ … } | null`. */
function shouldHugType(node: TypeNode): boolean {
  if (isSimpleType(node) || isObjectType(node)) return true;
  if (node.kind === 'union') {
    const object = node.types.find(isObjectLike);
    return object !== undefined && node.types.every((m) => m === object || isVoid(m));
  }
  return false;
}

/** Where a type is printed: unions indent themselves except inside type arguments. */
type TypeContext = 'annotation' | 'argument';

/** A type expression as prettier prints it. */
export function typeDoc(node: TypeNode, context: TypeContext = 'annotation'): Doc {
  switch (node.kind) {
    case 'name': {
      if (!node.args?.length) return node.name;
      if (node.args.length === 1 && shouldHugType(node.args[0]!)) return row(node.name, '<', typeDoc(node.args[0]!, 'argument'), '>');
      return group([node.name, '<', indent([softline, join([',', line], node.args.map((a) => typeDoc(a, 'argument')))]), softline, '>']);
    }
    case 'literal':
      return typeof node.value === 'string' ? str(node.value) : typeof node.value === 'number' ? (node.value < 0 ? `-${num(-node.value)}` : num(node.value)) : String(node.value);
    case 'keyof':
      return row('keyof ', typeDoc(node.type, context));
    case 'object':
      return objectTypeDoc(node.members);
    case 'union': {
      const printed = node.types.map((m) => typeDoc(m, 'annotation'));
      if (shouldHugType(node)) return row(...printed.flatMap((p, i) => (i === 0 ? [p] : [' | ', p])));
      // `| a | b` when broken; as an annotation it first tries the next line whole (prettier 3's union layout).
      const union = group(printed.map((p, i) => [i === 0 ? ifBreak('| ') : [line, '| '], align(2, p)]));
      return context === 'argument' ? union : group(indent([softline, union]));
    }
  }
}

/**
 * `{ a: string; b?: number }`: open (one member per line) when a member has docs, as prettier keeps written-open types.
 * prettier's group around each member is left out: a member has no line of its own (only its type's groups do), so
 * those groups alone decide the same.
 */
function objectTypeDoc(members: TypeMember[]): Doc {
  if (members.length === 0) return '{}';
  const shouldBreak = members.some((m) => m.docs?.length);
  const body: Doc[] = [];
  members.forEach((m, i) => {
    if (i > 0) body.push(line);
    body.push(memberDoc(m, i < members.length - 1 ? ';' : ''));
  });
  return group(['{', indent([line, body]), ifBreak(';'), line, '}'], { shouldBreak });
}

function paramsDoc(params: Param[]): Doc {
  if (params.length === 0) return '()';
  const printed = params.map((p) => row(p.name, p.optional ? '?' : '', ': ', typeDoc(p.type)));
  return ['(', indent([softline, join([',', line], printed)]), ifBreak(','), softline, ')'];
}

function typeParamsDoc(params: TypeParam[] | undefined): Doc {
  if (!params?.length) return '';
  const printed = params.map((p) => [p.name, p.constraint ? [' extends ', typeDoc(p.constraint)] : '', p.default ? [' = ', typeDoc(p.default)] : '']);
  return group(['<', indent([softline, join([',', line], printed)]), ifBreak(','), softline, '>']);
}

/** A member of an interface or object type, with its JSDoc, then `end` (its separator). */
export function memberDoc(member: TypeMember, end = ''): Doc {
  const docs = member.docs?.length ? jsdoc(member.docs) : '';
  switch (member.kind) {
    case 'property':
      return row(docs, key(member.name), member.optional ? '?' : '', ': ', typeDoc(member.type), end);
    case 'index':
      return row(docs, '[', member.keyName, ': ', typeDoc(member.keyType), ']: ', typeDoc(member.type), end);
    case 'method':
      return row(docs, group([key(member.name), typeParamsDoc(member.typeParams), paramsDoc(member.params), group([': ', typeDoc(member.returnType)])]), end);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Declarations

/** `export ` when exported. */
const exported = (yes: boolean | undefined) => (yes ? 'export ' : '');

/** `import { a, b } from 'x';`, `import type { … }`, `import * as X from 'x';`. */
export function importDecl(options: { from: string; names?: string[]; namespace?: string; typeOnly?: boolean }): Doc {
  const head = `import ${options.typeOnly ? 'type ' : ''}`;
  if (options.namespace) return [head, `* as ${options.namespace} from `, str(options.from), ';'];
  return [head, namedList(options.names ?? []), ' from ', str(options.from), ';'];
}

/** `export * from 'x';`, `export { a, b } from 'x';`, `export type { … } from 'x';`. */
export function exportFrom(options: { from: string; names?: string[]; typeOnly?: boolean }): Doc {
  if (!options.names) return ['export * from ', str(options.from), ';'];
  return [`export ${options.typeOnly ? 'type ' : ''}`, namedList(options.names), ' from ', str(options.from), ';'];
}

function namedList(names: string[]): Doc {
  if (names.length === 0) return '{}';
  return group(['{', indent([line, join([',', line], names)]), ifBreak(','), line, '}']);
}

/** `export const name: Type = value;` with its JSDoc. A string value moves to the next line when it does not fit (prettier's layout). */
export function constDecl(options: { name: string; type?: string; value: Doc; docs?: string[]; exported?: boolean }): Doc {
  const left = [exported(options.exported), 'const ', options.name, options.type ? `: ${options.type}` : ''];
  const isString = typeof options.value === 'string' && /^['"]/.test(options.value);
  const assignment = isString ? group([group(left), ' =', group(indent([line, options.value])), ';']) : [...left, ' = ', options.value, ';'];
  return [jsdoc(options.docs ?? []), assignment];
}

/** `export interface Name { … }` with its JSDoc (its members without prettier's group: see objectTypeDoc). */
export function interfaceDecl(options: { name: string; members: TypeMember[]; docs?: string[]; exported?: boolean }): Doc {
  const body = options.members.length ? ['{', indent([hardline, join(hardline, options.members.map((m) => memberDoc(m, ';')))]), hardline, '}'] : '{}';
  return [jsdoc(options.docs ?? []), exported(options.exported), 'interface ', options.name, ' ', body];
}

/** `export type Name = Type;` with its JSDoc. */
export function typeAlias(options: { name: string; type: TypeNode; docs?: string[]; exported?: boolean }): Doc {
  return row(jsdoc(options.docs ?? []), exported(options.exported), 'type ', options.name, ' = ', typeDoc(options.type), ';');
}

/** A class member: a declared property, the constructor, or a method; `body` statements are printed as given. */
export type ClassMember =
  | { kind: 'property'; name: string; type: TypeNode; docs?: string[]; modifiers: string }
  | { kind: 'constructor'; params: Param[]; body: Doc[]; docs?: string[] }
  | { kind: 'method'; name: string; params: Param[]; returnType: TypeNode; body: Doc[]; docs?: string[]; modifiers?: string };

/** A block `{ statements }` (statements each end with their own `;`). */
export function block(statements: Doc[]): Doc {
  return statements.length ? ['{', indent([hardline, join(hardline, statements)]), hardline, '}'] : '{}';
}

function classMemberDoc(member: ClassMember): Doc {
  const docs = jsdoc(member.docs ?? []);
  switch (member.kind) {
    case 'property':
      return row(docs, member.modifiers, member.name, ': ', typeDoc(member.type), ';');
    case 'constructor':
      return [docs, 'constructor', group(paramsDoc(member.params)), ' ', block(member.body)];
    case 'method':
      return [docs, member.modifiers ?? '', member.name, group([paramsDoc(member.params), ': ', typeDoc(member.returnType)]), ' ', block(member.body)];
  }
}

/** `export class Name extends Base { … }`; `groups` of members are separated by a blank line. */
export function classDecl(options: { name: string; extends?: string; groups: ClassMember[][]; docs?: string[]; exported?: boolean }): Doc {
  const groups = options.groups.filter((g) => g.length).map((g) => join(hardline, g.map(classMemberDoc)));
  return [
    jsdoc(options.docs ?? []),
    exported(options.exported),
    'class ',
    options.name,
    options.extends ? ` extends ${options.extends}` : '',
    ' ',
    groups.length ? ['{', indent([hardline, join([hardline, hardline], groups)]), hardline, '}'] : '{}',
  ];
}

/** `export function name(params): ReturnType { … }` with its JSDoc. */
export function functionDecl(options: { name: string; params: Param[]; returnType: TypeNode; body: Doc[]; docs?: string[]; exported?: boolean }): Doc {
  return [jsdoc(options.docs ?? []), exported(options.exported), 'function ', options.name, group([paramsDoc(options.params), ': ', typeDoc(options.returnType)]), ' ', block(options.body)];
}

/** A whole file: its header comment line(s), then statements; `sections` are separated by a blank line. */
export function fileDoc(header: string, sections: Doc[][]): Doc {
  const body = sections.filter((s) => s.length).map((s) => join(hardline, s));
  return [header.trimEnd(), hardline, join([hardline, hardline], body), hardline];
}
