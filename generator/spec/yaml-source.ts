/**
 * A parsed spec file that remembers positions: every later phase reports problems by data path
 * (`['entities', 'customers', 'actions', 'list']`) and this turns the path into `line:col`.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import type { Document, LineCounter, Node } from 'yaml';
import { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from './diagnostics.js';
import type { SourceLocation } from '../ir.js';
import { fastParse } from './yaml-fast.js';
import { dataErrorDiagnostic, MAX_ALIAS_COUNT } from './yaml-data-error.js';

/** A path into a parsed YAML document: map keys and sequence indexes. */
export type DataPath = readonly (string | number)[];

/** One spec file: its text, its YAML document and the plain data it holds. */
export interface SourceFile {
  /** Display path for diagnostics (relative to the working directory where possible). */
  file: string;
  /** Stable path for generated output: the spec directory's name, then the path inside it (`spec/service.yaml`). */
  specPath: string;
  /** The text as read. */
  text: string;
  /** The parsed document, for positions (parsed on first use when the file came from the parse cache). */
  readonly doc: Document.Parsed;
  /** Line index of the text (made with `doc`). */
  readonly lineCounter: LineCounter;
  /** Plain JavaScript data of the document (undefined when unparsable). */
  data: unknown;
  /** YAML syntax problems, already located. */
  syntaxErrors: Diagnostic[];
  /** Keys defined twice in one map (found once, at parse time). */
  duplicates: DuplicateKey[];
  /**
   * Positions asked of this text (locate, span) → the answer: a pure function of the text, so kept with the file in
   * the parse cache (cache/spec-cache.ts); a file served from there answers without parsing while the same positions
   * are asked.
   */
  positions: Map<string, readonly [number, number]>;
}

/**
 * Extensions of spec files. YAML is the format of record; a file may also be JSON (a subset of YAML, parsed by
 * the same parser with positions) or use the `.yml` spelling.
 */
export const SPEC_EXTENSIONS = ['.yaml', '.yml', '.json'] as const;

/** The file name without its spec extension, or undefined when it has none. */
export function specStem(name: string): string | undefined {
  const ext = SPEC_EXTENSIONS.find((e) => name.endsWith(e));
  return ext ? name.slice(0, -ext.length) : undefined;
}

/**
 * Reads YAML text: with js-yaml when it reads the text cleanly and as `yaml` would (yaml-fast.ts), the document then
 * parsed with `yaml` only if a position is asked; else with `yaml` (parseSource), for its diagnostics. `fast`: the fast
 * path's answer when already asked (null: declined).
 */
export function readSource(file: string, text: string, specPath: string = file, fast: { data: unknown } | null = fastParse(text) ?? null): SourceFile {
  return fast ? parsedSource(file, specPath, text, fast.data, new Map()) : parseSource(file, text, specPath);
}

/** The `yaml` package, once loaded: a valid spec read on the fast path never loads it. */
let yamlPackage: typeof Yaml | undefined;

/**
 * Loads `yaml` ahead of work that will parse with it (a file the fast path declines; diff, which locates every change),
 * as an ES module import (in the CLI build, its bundled chunk). Positions asked without it loaded still work: `yaml()`
 * then requires it synchronously.
 */
export async function loadYaml(): Promise<void> {
  if (yamlPackage) return;
  // A CommonJS package: Node gives its exports as named exports too, a bundle (bin/cli-build.cjs) as the default only.
  const module = (await import('yaml')) as unknown as Partial<typeof Yaml> & { default: typeof Yaml };
  yamlPackage ??= module.parseDocument ? (module as typeof Yaml) : module.default;
}

/** The `yaml` package, loaded now if nobody loaded it before (a diagnostic found in a synchronous phase). */
function yaml(): typeof Yaml {
  return (yamlPackage ??= createRequire(import.meta.url)('yaml') as typeof Yaml);
}

/** Parses YAML text with `yaml`. Duplicate keys are left to the semantic checks, which name what is duplicated. */
export function parseSource(file: string, text: string, specPath: string = file): SourceFile {
  const { doc, lineCounter } = parseText(text);
  // yaml may report one deep nesting as many RESOURCE_EXHAUSTION errors (one per level it unwinds): the first says it.
  const errors = doc.errors.filter((e, i) => e.code !== 'RESOURCE_EXHAUSTION' || doc.errors.findIndex((f) => f.code === e.code) === i);
  const syntaxErrors: Diagnostic[] = errors.map((e) => {
    const pos = lineCounter.linePos(e.pos[0]);
    // yaml reports a nesting deeper than its parser's stack as RESOURCE_EXHAUSTION with V8's words.
    if (e.code === 'RESOURCE_EXHAUSTION') return makeDiagnostic(file, pos.line, pos.col, 'SRC006', 'data nests too deeply to be read');
    return makeDiagnostic(file, pos.line, pos.col, 'SPEC001', firstLine(e.message));
  });
  const source: SourceFile = { file, specPath, text, doc, lineCounter, data: undefined, syntaxErrors, duplicates: [], positions: new Map() };
  if (syntaxErrors.length === 0) {
    source.duplicates = findDuplicateKeys(source);
    try {
      source.data = dataWithoutDuplicates(source);
    } catch (error) {
      syntaxErrors.push(dataErrorDiagnostic(yaml(), file, doc, lineCounter, error));
    }
  }
  return source;
}

function parseText(text: string): { doc: Document.Parsed; lineCounter: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  // merge: YAML merge keys (`<<: *defaults`) are a way of writing the same data, as anchors and aliases are.
  return { doc: parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, merge: true }), lineCounter };
}

/**
 * A file known to parse cleanly (no syntax error, no duplicate key) into `data` (from the parse cache or the fast
 * path), with the positions already asked of its text: the document is parsed only if a position outside those is
 * asked.
 */
export function parsedSource(file: string, specPath: string, text: string, data: unknown, positions: Map<string, readonly [number, number]>): SourceFile {
  let parsed: ReturnType<typeof parseText> | undefined;
  return {
    file,
    specPath,
    text,
    data,
    syntaxErrors: [],
    duplicates: [],
    positions,
    get doc() {
      return (parsed ??= parseText(text)).doc;
    },
    get lineCounter() {
      return (parsed ??= parseText(text)).lineCounter;
    },
  };
}

/**
 * A file known to be clean from an earlier read of the same text (the IR cache holds what it gave): nothing is parsed
 * unless its data or a position is asked (then as readSource parses it).
 */
export function knownSource(file: string, specPath: string, text: string): SourceFile {
  let read: SourceFile | undefined;
  const parsed = () => (read ??= readSource(file, text, specPath));
  return {
    file,
    specPath,
    text,
    syntaxErrors: [],
    duplicates: [],
    get data() {
      return parsed().data;
    },
    get positions() {
      return parsed().positions;
    },
    get doc() {
      return parsed().doc;
    },
    get lineCounter() {
      return parsed().lineCounter;
    },
  };
}

/** The answer to a position question about `source`, from its memo or computed (and remembered). */
function remembered(source: SourceFile, key: string, compute: () => readonly [number, number]): readonly [number, number] {
  let answer = source.positions.get(key);
  if (!answer) source.positions.set(key, (answer = compute()));
  return answer;
}

/**
 * Plain data in which the first definition of a duplicated key wins (plain toJS keeps the last), so a
 * duplicate is reported once (SPEC012) instead of cascading into errors about the definition it hid.
 */
function dataWithoutDuplicates(source: SourceFile): unknown {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  if (source.duplicates.length === 0) return source.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  const clone = source.doc.clone();
  const prune = (node: unknown): void => {
    if (isMap(node)) {
      const seen = new Set<string>();
      node.items = node.items.filter((pair) => {
        if (!isPair(pair) || !isScalar(pair.key)) return true;
        const key = String(pair.key.value);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      for (const pair of node.items) prune(pair.value);
    } else if (isSeq(node)) node.items.forEach(prune);
  };
  prune(clone.contents);
  return clone.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** Builds a diagnostic with the code's default hint. */
export function makeDiagnostic(
  file: string,
  line: number,
  col: number,
  code: DiagnosticCode,
  message: string,
  severity: 'error' | 'warning' = 'error',
): Diagnostic {
  return { file, line, col, severity, code, message, hint: DIAGNOSTIC_CODES[code].hint };
}

/**
 * Position of the node at `path`. With `at: 'key'` the position of the map key naming the last
 * segment (where a reader looks for "the item"); otherwise its value. Falls back to the deepest
 * node that exists.
 */
export function locate(source: SourceFile, path: DataPath, at: 'key' | 'value' = 'value'): { line: number; col: number } {
  const [line, col] = remembered(source, JSON.stringify([at, ...path]), () => {
    const pos = locateInDocument(source, path, at);
    return [pos.line, pos.col];
  });
  return { line, col };
}

function locateInDocument(source: SourceFile, path: DataPath, at: 'key' | 'value'): { line: number; col: number } {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  let node: unknown = source.doc.contents;
  let offset = rangeStart(node) ?? 0;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i]!;
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) break;
      const keyStart = rangeStart(pair.key);
      if (last && at === 'key' && keyStart !== undefined) {
        offset = keyStart;
        break;
      }
      node = pair.value;
      offset = rangeStart(pair.value) ?? keyStart ?? offset;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      offset = rangeStart(node) ?? offset;
    } else {
      break;
    }
  }
  return source.lineCounter.linePos(offset);
}

/**
 * Where the item at `path` (its key) is written, for the IR: the line is located on first read, so a run that reads
 * none (a valid spec, no diagnostic) never parses the document for positions. See SourceLocation.
 */
export function keyLocation(source: SourceFile, path: DataPath): SourceLocation {
  return new KeyLocation(source, path);
}

/** A SourceLocation whose `line` is a getter on the prototype: not an own property, so never copied or serialized. */
class KeyLocation implements SourceLocation {
  readonly file: string;
  readonly #source: SourceFile;
  readonly #path: DataPath;
  #line: number | undefined;
  constructor(source: SourceFile, path: DataPath) {
    this.file = source.specPath;
    this.#source = source;
    this.#path = path;
  }
  get line(): number {
    return (this.#line ??= locate(this.#source, this.#path, 'key').line);
  }
}

/** First and last line of the item at `path` (its key through the end of its value); the located line when not found. */
export function span(source: SourceFile, path: DataPath): [number, number] {
  const [first, last] = remembered(source, JSON.stringify(['span', ...path]), () => spanInDocument(source, path));
  return [first, last];
}

function spanInDocument(source: SourceFile, path: DataPath): [number, number] {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  let node: unknown = source.doc.contents;
  let start: number | undefined = rangeStart(node);
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment));
      if (!pair) return lineSpanOf(source, locate(source, path).line);
      start = rangeStart(pair.key) ?? rangeStart(pair.value);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
      start = rangeStart(node);
    } else {
      return lineSpanOf(source, locate(source, path).line);
    }
  }
  const end = (node as Node | null | undefined)?.range?.[1];
  if (start === undefined || end === undefined) return lineSpanOf(source, locate(source, path).line);
  return [source.lineCounter.linePos(start).line, source.lineCounter.linePos(Math.max(start, end - 1)).line];
}

function lineSpanOf(_source: SourceFile, line: number): [number, number] {
  return [line, line];
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as Node | null | undefined)?.range;
  return range ? range[0] : undefined;
}

/** A diagnostic located at `path` in `source`. */
export function diagnosticAt(
  source: SourceFile,
  path: DataPath,
  code: DiagnosticCode,
  message: string,
  options: { at?: 'key' | 'value'; severity?: 'error' | 'warning' } = {},
): Diagnostic {
  const pos = locate(source, path, options.at ?? 'key');
  return makeDiagnostic(source.file, pos.line, pos.col, code, message, options.severity);
}

/** A key defined twice in one map, with both positions. */
export interface DuplicateKey {
  /** Path of the map holding the duplicate. */
  mapPath: (string | number)[];
  /** The duplicated key. */
  key: string;
  /** Position of the second (offending) occurrence. */
  line: number;
  /** Column of the second occurrence. */
  col: number;
  /** Line of the first occurrence. */
  firstLine: number;
}

/** Finds every key that appears twice in one map, anywhere in the document. */
export function findDuplicateKeys(source: SourceFile): DuplicateKey[] {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  const found: DuplicateKey[] = [];
  const visit = (node: unknown, path: (string | number)[]): void => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const start = rangeStart(pair.key) ?? 0;
        const first = seen.get(key);
        if (first !== undefined) {
          const pos = source.lineCounter.linePos(start);
          found.push({ mapPath: path, key, line: pos.line, col: pos.col, firstLine: source.lineCounter.linePos(first).line });
        } else {
          seen.set(key, start);
        }
        visit(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => visit(item, [...path, i]));
    }
  };
  visit(source.doc.contents, []);
  return found;
}
