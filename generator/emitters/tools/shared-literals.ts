/**
 * JSON data as readable TypeScript, with repeated parts written once. The tools of a connector repeat sub-schemas
 * (a date interval param, the search filter grammar, a `{ id }` params object…): each distinct one above a size
 * that makes sharing worth a name becomes a `const` that every tool refers to. The objects at run time are the
 * same either way — each tool's `inputSchema` is a complete, self-contained JSON Schema — only the file is smaller.
 *
 * Layout: a value goes on one line when it fits the width; otherwise one entry per line, and arrays of scalars
 * fill their lines.
 */
import { propertyKey, stringLiteral } from '../naming.js';

/** Printed width of generated lines. */
const WIDTH = 120;

/** Smallest one-line text of a value worth sharing under a name. */
const MIN_SHARED = 80;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** A value shared under a name: its const declaration's parts. */
export interface SharedValue {
  /** The const's name. */
  name: string;
  /** The value. */
  value: unknown;
  /** Where it occurs, for its doc comment: the labels of its uses. */
  uses: string[];
  /** What it is, for its doc comment: the `noun` of the root it first occurs under. */
  noun: string;
  /** The const's type annotation, when the root says one (its value inferred would be too wide). */
  type?: string;
}

/** A value whose parts may be shared. */
export interface SharedRoot {
  /** Who uses it (a tool name), for the doc comments. */
  label: string;
  /** What it is (`Schema`, `Paging`): the name suffix of the root itself when shared, and the doc comments' noun. */
  noun: string;
  /** Names its parts when no property name does, and tells apart two parts of the same name (`chargesList`). */
  prefix: string;
  /** The value. */
  value: unknown;
  /**
   * Share the value only as a whole, under this type (a typed value, e.g. a paging descriptor: a part written as its
   * own const would be inferred wider than the type it must meet).
   */
  wholeAs?: string;
}

/** The printer of one file: what is shared, and how to print a value that may refer to it. */
export interface SharedLiterals {
  /** Consts to declare, each before any that refers to it. */
  shared: SharedValue[];
  /** `value` as TypeScript, starting at `column` of a line indented by `indent`; shared values by name. */
  print(value: unknown, indent: string, column: number): string;
  /** The initializer of a shared value's const (the value itself, its shared parts by name). */
  definition(shared: SharedValue, indent: string, column: number): string;
}

/** One-line text of every value (memoized by identity). */
function flatTexts(): (value: unknown) => string {
  const memo = new Map<object, string>();
  const flat = (value: unknown): string => {
    if (!isContainer(value)) return scalar(value);
    let text = memo.get(value);
    if (text === undefined) {
      text = Array.isArray(value)
        ? `[${value.map(flat).join(', ')}]`
        : ((entries) => (entries.length ? `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${flat(v)}`).join(', ')} }` : '{}'))(Object.entries(value).filter(([, v]) => v !== undefined));
      memo.set(value, text);
    }
    return text;
  };
  return flat;
}

function scalar(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return stringLiteral(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new Error(`internal: ${typeof value} is not JSON data`);
}

/** Calls `visit` with every container value under `value` and the key path to it (depth first, in key order; the path array is reused). */
function walk(value: unknown, visit: (node: object, path: readonly string[]) => void, path: string[] = []): void {
  if (!isContainer(value)) return;
  visit(value, path);
  for (const key in value) {
    path.push(key);
    walk((value as Record<string, unknown>)[key], visit, path);
    path.pop();
  }
}

const camel = (text: string) => text.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')).replace(/^[^A-Za-z_$]+/, '');

/** Suffixes of the structural keys after a named one: `properties` → Properties, `items` → Item. */
const STRUCTURAL: Record<string, string> = { properties: 'Properties', items: 'Item', $defs: 'Defs', examples: 'Examples' };

/**
 * A const name from where a value first occurs: the last property or `$defs` name on its path, then what lies
 * below it (`properties.created` → `createdSchema`, `properties.created.properties` → `createdProperties`,
 * `$defs.filter` → `filterSchema`); a value above every name takes the root's prefix (the root itself:
 * `chargesListSchema`; its properties: `chargesListProperties`).
 */
function nameFrom(path: readonly string[], root: SharedRoot): string {
  let named = -1;
  for (let i = 1; i < path.length; i++) if (path[i - 1] === 'properties' || path[i - 1] === '$defs') named = i;
  const base = named >= 0 ? camel(path[named]!) : camel(root.prefix);
  const below = path.slice(named + 1).map((k) => STRUCTURAL[k] ?? camel(k).replace(/^./, (c) => c.toUpperCase()));
  const name = `${base.charAt(0).toLowerCase()}${base.slice(1)}${below.join('')}`;
  return below.length ? name : `${name}${named >= 0 ? 'Schema' : root.noun}`;
}

/**
 * Decides what to share among `roots` (only values under them are shared) and returns
 * the printer. Larger values are considered first; a value is shared when it is still printed twice or more once
 * the larger shared values are written once.
 */
export function sharedLiterals(roots: SharedRoot[], reserved: Set<string> = new Set()): SharedLiterals {
  const flat = flatTexts();
  const firstPath = new Map<string, { path: string[]; root: SharedRoot; node: object }>();
  const labels = new Map<string, Set<string>>();
  // How many times each text would be printed if nothing were shared (nested occurrences included).
  const printed = new Map<string, number>();
  for (const root of roots) {
    walk(root.value, (node, path) => {
      if (root.wholeAs !== undefined && node !== root.value) return;
      const text = flat(node);
      if (text.length < MIN_SHARED) return;
      if (!firstPath.has(text)) firstPath.set(text, { path: [...path], root, node });
      (labels.get(text) ?? labels.set(text, new Set()).get(text)!).add(root.label);
      printed.set(text, (printed.get(text) ?? 0) + 1);
    });
  }
  // Largest first: sharing a value prints its inside once, so each text inside it is printed (count - 1) times less.
  const chosen = new Map<string, object>();
  for (const text of [...firstPath.keys()].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    const count = printed.get(text)!;
    if (count < 2) continue;
    const { node, root } = firstPath.get(text)!;
    chosen.set(text, node);
    if (root.wholeAs !== undefined) continue; // its parts were never candidates
    walk(node, (inner) => {
      const innerText = flat(inner);
      if (inner !== node && innerText.length >= MIN_SHARED) printed.set(innerText, printed.get(innerText)! - (count - 1));
    });
  }

  // Names, in order of first occurrence; declarations so that a const follows those it refers to.
  const names = new Map<string, string>();
  const taken = new Set(reserved);
  const order = [...firstPath.keys()].filter((t) => chosen.has(t));
  for (const text of order) {
    const { path, root } = firstPath.get(text)!;
    const base = nameFrom(path, root);
    // A second value under the same name takes its root's prefix in front (`chargesSearchLimitSchema`).
    let name = taken.has(base) ? `${camel(root.prefix)}${base.charAt(0).toUpperCase()}${base.slice(1)}` : base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    names.set(text, name);
  }
  const declared: SharedValue[] = [];
  const done = new Set<string>();
  const declare = (text: string) => {
    if (done.has(text)) return;
    done.add(text);
    const value = chosen.get(text)!;
    walk(value, (node) => {
      if (node !== value && chosen.has(flat(node))) declare(flat(node));
    });
    const { root } = firstPath.get(text)!;
    declared.push({ name: names.get(text)!, value, uses: [...labels.get(text)!], noun: root.noun, ...(root.wholeAs !== undefined ? { type: root.wholeAs } : {}) });
  };
  for (const text of order) declare(text);

  const print = (value: unknown, indent: string, column: number, root = false): string => {
    if (!isContainer(value)) return scalar(value);
    const name = root ? undefined : names.get(flat(value));
    if (name) return name;
    const line = root ? inline(value) : oneLine(value);
    if (column + line.length <= WIDTH) return line;
    const inner = `${indent}  `;
    if (Array.isArray(value)) {
      if (value.every((v) => !isContainer(v))) return `[\n${fill(value.map(scalar), inner)}\n${indent}]`;
      return `[\n${value.map((v) => `${inner}${print(v, inner, inner.length)},`).join('\n')}\n${indent}]`;
    }
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{\n${entries.map(([k, v]) => `${inner}${propertyKey(k)}: ${print(v, inner, inner.length + propertyKey(k).length + 2)},`).join('\n')}\n${indent}}`;
  };
  // One line, shared values by name (memoized: the printer asks again at every level).
  const lines = new Map<object, string>();
  const oneLine = (value: unknown): string => {
    if (!isContainer(value)) return scalar(value);
    let line = lines.get(value);
    if (line === undefined) lines.set(value, (line = names.get(flat(value)) ?? inline(value)));
    return line;
  };
  // One line of the value itself, its parts by name.
  const inline = (value: object): string => {
    if (Array.isArray(value)) return `[${value.map(oneLine).join(', ')}]`;
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length ? `{ ${entries.map(([k, v]) => `${propertyKey(k)}: ${oneLine(v)}`).join(', ')} }` : '{}';
  };
  return {
    shared: declared,
    print: (value, indent, column) => print(value, indent, column),
    definition: (shared, indent, column) => print(shared.value, indent, column, true),
  };
}

/** Scalars, comma-separated, filling lines of the width. */
function fill(items: string[], indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const item of items) {
    const next = line ? `${line} ${item},` : `${item},`;
    if (line && indent.length + next.length > WIDTH) {
      lines.push(`${indent}${line}`);
      line = `${item},`;
    } else line = next;
  }
  if (line) lines.push(`${indent}${line}`);
  return lines.join('\n');
}
