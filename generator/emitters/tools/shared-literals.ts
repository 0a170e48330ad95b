/**
 * JSON data as readable TypeScript, with repeated parts written once. The tools of a connector repeat sub-schemas
 * (a date interval param, the search filter grammar, a `{ id }` params object…): each distinct one above a size
 * that makes sharing worth a name becomes a `const` that every tool refers to. The objects at run time are the
 * same either way — each tool's `inputSchema` is a complete, self-contained JSON Schema — only the file is smaller.
 * Values come out as data literals (ts/syntax.ts), shared parts as references by name, which the emitter prints in the
 * generated style.
 */
import { code, key, str, type LiteralValue } from '../ts/syntax.js';

/** Smallest one-line text of a value worth sharing under a name. */
const MIN_SHARED = 80;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** The children of a scalar (shared: never changed). */
const NO_CHILDREN: number[] = [];

/** The keys of an object whose values are not undefined (a JSON object's keys). */
function definedKeys(value: Record<string, unknown>): string[] {
  const keys = Object.keys(value);
  for (const k of keys) if (value[k] === undefined) return keys.filter((key) => value[key] !== undefined);
  return keys;
}

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

/** What is shared in one file, and values as literals that refer to it. */
export interface SharedLiterals {
  /** Consts to declare, each before any that refers to it. */
  shared: SharedValue[];
  /** `value` as a data literal, its shared parts (or itself, when shared) by name. */
  literal(value: unknown): LiteralValue;
  /** The initializer of a shared value's const: the value itself, its shared parts by name. */
  definition(shared: SharedValue): LiteralValue;
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
 * Decides what to share among `roots` (only values under them are shared). Larger values
 * are considered first; a value is shared when it is still printed twice or more once the larger shared values are
 * written once.
 *
 * Values are hash-consed: structurally equal values get one id (from their children's ids, never their full text),
 * and the length of a value's one-line form (what decides whether it is worth a name) is computed from its children's.
 */
export function sharedLiterals(roots: SharedRoot[], reserved: Set<string> = new Set()): SharedLiterals {
  const ids = new Map<string, number>();
  const idOf = new Map<object, number>();
  /** Key path of the value being interned (while counting). */
  const path: string[] = [];
  const literals = new Map<string, string>();
  /** Per id: one-line length, children ids, a value with that id. */
  const length: number[] = [];
  const children: number[][] = [];
  const sample: unknown[] = [];
  const scalarText = (value: unknown): string => {
    if (value === null) return 'null';
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value !== 'string') throw new Error(`internal: ${typeof value} is not JSON data`);
    let literal = literals.get(value);
    if (literal === undefined) literals.set(value, (literal = str(value)));
    return literal;
  };
  const addId = (size: number, kids: number[], value: unknown): number => {
    length.push(size);
    children.push(kids);
    sample.push(value);
    return length.length - 1;
  };
  const newId = (signature: string, size: number, kids: number[], value: unknown): number => {
    let id = ids.get(signature);
    if (id === undefined) ids.set(signature, (id = addId(size, kids, value)));
    return id;
  };
  const scalarIds = new Map<unknown, number>();
  const keyTexts = new Map<string, string>();
  const keyText = (name: string): string => {
    let text = keyTexts.get(name);
    if (text === undefined) keyTexts.set(name, (text = key(name)));
    return text;
  };
  const intern = (value: unknown, visit?: (id: number) => void): number => {
    if (!isContainer(value)) {
      // Equal scalars are one key of scalarIds (a string and a number never are): no signature needed.
      let id = scalarIds.get(value);
      if (id === undefined) scalarIds.set(value, (id = addId(scalarText(value).length, NO_CHILDREN, value)));
      return id;
    }
    let id = idOf.get(value);
    if (id !== undefined && !visit) return id;
    const array = Array.isArray(value);
    const keys = array ? undefined : definedKeys(value as Record<string, unknown>);
    const count = array ? value.length : keys!.length;
    const kids = new Array<number>(count);
    for (let i = 0; i < count; i++) {
      const key = array ? String(i) : keys![i]!;
      if (visit) path.push(key);
      kids[i] = intern((value as Record<string, unknown>)[key], visit);
      if (visit) path.pop();
    }
    if (id === undefined) {
      let size = count === 0 ? 2 : array ? 2 + 2 * (count - 1) : 4 + 2 * (count - 1);
      let signature = array ? 'a' : 'o';
      for (let i = 0; i < count; i++) {
        size += length[kids[i]!]!;
        if (array) signature += `${kids[i]},`;
        else {
          const key = keyText(keys![i]!);
          size += key.length + 2;
          signature += `${key}\u0000${kids[i]}\u0001`;
        }
      }
      id = newId(signature, size, kids, value);
      idOf.set(value, id);
    }
    visit?.(id);
    return id;
  };

  // Every occurrence of a value worth sharing: how many times it would be printed, and where it first occurs.
  const printed = new Map<number, number>();
  const first = new Map<number, { path: string[]; root: SharedRoot }>();
  const labels = new Map<number, Set<string>>();
  for (const root of roots) {
    intern(root.value, (id) => {
      if (length[id]! < MIN_SHARED || (root.wholeAs !== undefined && path.length > 0)) return;
      if (!first.has(id)) first.set(id, { path: [...path], root });
      (labels.get(id) ?? labels.set(id, new Set()).get(id)!).add(root.label);
      printed.set(id, (printed.get(id) ?? 0) + 1);
    });
  }
  // Largest first: sharing a value prints its inside once, so each value inside it is printed (count - 1) times less.
  const chosen = new Set<number>();
  for (const id of [...first.keys()].sort((a, b) => length[b]! - length[a]! || a - b)) {
    const count = printed.get(id)!;
    if (count < 2) continue;
    chosen.add(id);
    if (first.get(id)!.root.wholeAs !== undefined) continue; // its parts were never counted
    const lessen = (inner: number) => {
      for (const kid of children[inner]!) {
        if (length[kid]! < MIN_SHARED) continue;
        printed.set(kid, printed.get(kid)! - (count - 1));
        lessen(kid);
      }
    };
    lessen(id);
  }

  // Names, in order of first occurrence; declarations so that a const follows those it refers to.
  const names = new Map<number, string>();
  const taken = new Set(reserved);
  const order = [...first.keys()].filter((id) => chosen.has(id));
  for (const id of order) {
    const { path: at, root } = first.get(id)!;
    const base = nameFrom(at, root);
    // A second value under the same name takes its root's prefix in front (`chargesSearchLimitSchema`).
    let name = taken.has(base) ? `${camel(root.prefix)}${base.charAt(0).toUpperCase()}${base.slice(1)}` : base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    taken.add(name);
    names.set(id, name);
  }
  const declared: SharedValue[] = [];
  const done = new Set<number>();
  const declare = (id: number) => {
    if (done.has(id)) return;
    done.add(id);
    const inside = (inner: number) => {
      for (const kid of children[inner]!) if (chosen.has(kid)) declare(kid);
      else inside(kid);
    };
    inside(id);
    const { root } = first.get(id)!;
    declared.push({ name: names.get(id)!, value: sample[id], uses: [...labels.get(id)!], noun: root.noun, ...(root.wholeAs !== undefined ? { type: root.wholeAs } : {}) });
  };
  for (const id of order) declare(id);

  // Literals with shared values by name (the definition of a shared value spells out the value itself).
  const toLiteral = (value: unknown, asDefinition = false): LiteralValue => {
    if (!isContainer(value)) {
      if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
      throw new Error(`internal: ${typeof value} is not JSON data`);
    }
    const name = asDefinition ? undefined : names.get(intern(value));
    if (name !== undefined) return code(name);
    if (Array.isArray(value)) return value.map((v) => toLiteral(v));
    const out: Record<string, LiteralValue> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = toLiteral(v);
    return out;
  };
  return {
    shared: declared,
    literal: (value) => toLiteral(value),
    definition: (shared) => toLiteral(shared.value, true),
  };
}
