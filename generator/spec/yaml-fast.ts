/**
 * The clean path of parsing. A file in the block style spec files are written in is read by yaml-block.ts; any other
 * by js-yaml, which builds plain data about twice as fast as the `yaml` package's document + toJS
 * and loads in a fraction of its time, but keeps no positions and reports problems differently. So it is used only to
 * get the data of a file that parses cleanly; whenever it throws — a syntax error, a duplicate key, an alias, a tag
 * or key it is not sure `yaml` reads the same way — the caller parses with `yaml` (yaml-source.ts parseSource), whose
 * positions and diagnostics stay the only ones the user sees. Positions of a fast-parsed file are computed with
 * `yaml` only when one is asked (yaml-source.ts parsedSource).
 *
 * The schema below resolves plain scalars exactly as `yaml`'s core schema (YAML 1.2) does (yaml-core-scalars.ts), with
 * no YAML 1.1 extras (`!!binary`, `!!set`, `!!omap`), and merge keys (`<<`) as `merge: true` gives them.
 */
import { blockParse } from './yaml-block.js';
import { coreBool, coreFloat, coreInt, coreNull, NOT_THIS_TYPE } from './yaml-core-scalars.js';
import { constructFromEvents, defineMappingTag, defineScalarTag, EVENT_ID, NOT_RESOLVED, parseEvents, Schema, seqTag, strTag, type Event } from 'js-yaml';

/** Declines (so the caller falls back) instead of guessing how `yaml` would read a value. */
const DECLINE = NOT_RESOLVED;

const DIGITS = [...'0123456789'];

/** A core-schema resolver as a js-yaml tag's `resolve`: explicit tags and values of another type are declined. */
const resolveWith =
  <T>(resolve: (source: string) => T | typeof NOT_THIS_TYPE) =>
  (source: string, explicit: boolean): T | typeof DECLINE => {
    if (explicit) return DECLINE;
    const value = resolve(source);
    return value === NOT_THIS_TYPE ? DECLINE : value;
  };

/** `~`, `null`, `Null`, `NULL` and the empty plain scalar. */
const nullTag = defineScalarTag('tag:yaml.org,2002:null', { implicit: true, implicitFirstChars: ['', '~', 'n', 'N'], resolve: resolveWith(coreNull), identify: () => false });

/** `true`, `True`, `TRUE` and the same of false. */
const boolTag = defineScalarTag('tag:yaml.org,2002:bool', { implicit: true, implicitFirstChars: ['t', 'T', 'f', 'F'], resolve: resolveWith(coreBool), identify: () => false });

/** Octal `0o17`, decimal `+12`, hex `0x1F`. */
const intTag = defineScalarTag('tag:yaml.org,2002:int', { implicit: true, implicitFirstChars: ['-', '+', ...DIGITS], resolve: resolveWith(coreInt), identify: () => false });

/** `.inf`, `-.Inf`, `.NaN`, `1e3`, `1.5`, `.5`, `1.`. */
const floatTag = defineScalarTag('tag:yaml.org,2002:float', { implicit: true, implicitFirstChars: ['-', '+', '.', ...DIGITS], resolve: resolveWith(coreFloat), identify: () => false });

/**
 * Maps being built, innermost last, each with how many plain `<<` it holds so far: yaml reports a second merge key in
 * one map as a duplicate key, js-yaml merges both, so a second one declines.
 */
let openMaps: number[] = [];

/** A plain `<<` key: a merge (yaml `merge: true`). Also resolves a plain `<<` value: at worst a needless decline. */
const mergeTag = defineScalarTag('tag:yaml.org,2002:merge', {
  implicit: true,
  implicitFirstChars: ['<'],
  resolve: (source, explicit) => {
    if (explicit || source !== '<<') return DECLINE;
    if (openMaps.length === 0 || ++openMaps[openMaps.length - 1]! > 1) throw new Error('a second merge key in one map');
    return '<<';
  },
  identify: () => false,
});

/**
 * Maps as plain objects, keyed as yaml's toJS keys them (String of the key's value, an own property even for
 * `__proto__` or `toString`). A null or collection key is declined: yaml turns those into '' or YAML text.
 */
const mapTag = defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => {
    openMaps.push(0);
    return {};
  },
  finalize: (map) => {
    openMaps.pop();
    return map;
  },
  addPair: (map, key, value) => {
    if (typeof key !== 'string' && typeof key !== 'number' && typeof key !== 'boolean') return 'a key that is not a scalar string, number or boolean';
    const name = String(key);
    if (name in map) Object.defineProperty(map, name, { value, writable: true, enumerable: true, configurable: true });
    else map[name] = value;
    return '';
  },
  has: (map, key) => (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') && Object.prototype.hasOwnProperty.call(map, String(key)),
  keys: (map) => Object.keys(map),
  get: (map, key) => map[String(key)],
  identify: () => false,
});

/** Tag resolution of yaml's core schema, plain scalars tried in its order (null, bool, int, float, else string). */
const SCHEMA = new Schema([strTag, seqTag, mapTag, nullTag, boolTag, intTag, floatTag, mergeTag]);

/** A `\` ending a line, then an empty line: js-yaml joins the lines, yaml folds them to a space. */
const ESCAPED_BREAK_BEFORE_EMPTY_LINE = /\\\r?\n[ \t]*\r?\n/;

/**
 * The data of `text` when js-yaml reads it cleanly and as `yaml` would, else undefined (then parse with `yaml`).
 * Declined up front: a `%` directive (`%YAML 1.1` switches yaml to another schema), a carriage return not followed by
 * a line feed (yaml and js-yaml split lines differently there), a line over 1024 characters (it may hold a key that
 * long: an error for yaml, KEY_OVER_1024_CHARS), a line ending in `\` before an empty line (read differently too).
 * Declined from js-yaml's events: any alias (yaml caps their expansion against alias bombs; without aliases a document
 * cannot blow up), any anchor (yaml is stricter about their spelling), any tag but `!!str` and `!` on a scalar.
 * Declined by js-yaml: anything it cannot read, duplicate keys, no or several documents, nesting deeper than 100.
 */
export function fastParse(text: string): { data: unknown } | undefined {
  if (/^%/m.test(text) || /\r(?!\n)/.test(text) || hasLongLine(text) || ESCAPED_BREAK_BEFORE_EMPTY_LINE.test(text)) return undefined;
  return blockParse(text) ?? jsYamlParse(text);
}

/** fastParse's js-yaml path, for a file yaml-block.ts declines. */
function jsYamlParse(text: string): { data: unknown } | undefined {
  openMaps = [];
  try {
    const events = parseEvents(text, {});
    if (!events.every((event) => plainEnough(text, event))) return undefined;
    const documents = constructFromEvents(events, { source: text, schema: SCHEMA, maxAliases: 0 });
    return documents.length === 1 && documents[0] !== undefined ? { data: documents[0] } : undefined;
  } catch {
    return undefined;
  } finally {
    openMaps = [];
  }
}

/** Whether an event has nothing the fast path declines: an alias, an anchor, a tag other than `!!str` or `!` on a scalar. */
function plainEnough(text: string, event: Event): boolean {
  if (event.type === EVENT_ID.ALIAS) return false;
  if (!('anchorStart' in event)) return true;
  if (event.anchorStart !== -1) return false;
  if (event.tagStart === -1) return true;
  if (event.type !== EVENT_ID.SCALAR) return false;
  const tag = text.slice(event.tagStart, event.tagEnd);
  const next = text[event.tagEnd];
  return (tag === '!!str' || tag === '!') && (next === undefined || next === ' ' || next === '\t' || next === '\n' || next === '\r');
}

/** Whether a line of `text` is over 1024 characters long. */
function hasLongLine(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    if ((end === -1 ? text.length : end) - start > 1024) return true;
    if (end === -1) break;
    start = end + 1;
  }
  return false;
}
