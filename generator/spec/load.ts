/**
 * Phase 1 — load: read spec/service.yaml and spec/connectors/*.yaml, parse them with positions, and
 * validate each against its meta-schema. Semantic checks come later (normalize.ts, checks.ts).
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { displayPath } from '../lib/display-path.js';
import { lstatOrUndefined, statOrUndefined } from '../lib/fs-or-undefined.js';
import { didYouMean } from '../lib/suggest.js';
import { validateConnector, validateService } from './schema/validators.generated.js';
import { SpecDirError, type Diagnostic, type DiagnosticCode } from './diagnostics.js';

export { SpecDirError };
import { diagnosticAt, knownSource, loadYaml, makeDiagnostic, parsedSource, parseSource, readSource, specStem, SPEC_EXTENSIONS, type DataPath, type SourceFile } from './yaml-source.js';
import type { ParsedFile, SpecCacheOptions, SpecFileKind } from '../cache/spec-cache.js';
import { fastParse } from './yaml-fast.js';
import { isPlainObject } from '../lib/plain-object.js';

/** A compiled meta-schema validator (ajv standalone code: generator/spec/schema/validators.generated.ts). */
type MetaValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
const validators = { connector: validateConnector as MetaValidator, service: validateService as MetaValidator };

/** The spec's files, parsed; `valid` tells which passed the meta-schema. */
export interface LoadedSpec {
  /** spec/service.yaml. */
  service: SourceFile;
  /** spec/connectors/*.yaml, sorted by file name. */
  connectors: SourceFile[];
  /** Files that parsed and match their meta-schema (later phases read only these). */
  valid: Set<SourceFile>;
  /** Problems found so far. */
  diagnostics: Diagnostic[];
  /**
   * With a parse cache: stores the files that parsed cleanly, with the positions asked of them so far (call it after
   * the later phases, which ask most of them).
   */
  saveCache?: () => Promise<void>;
}

export { displayPath };

/** A spec file as read, before parsing. */
export interface SpecText {
  /** Display path. */
  file: string;
  /** Path in the spec (SourceFile.specPath). */
  specPath: string;
  /** Its text. */
  text: string;
}

/**
 * Which connector files (by spec path) later phases will not read the data of, because they know what it gives (the
 * IR cache: cache/ir-cache.ts): given service.yaml and the connector files as read (those that could be read).
 */
export type KnownFiles = (service: SpecText | undefined, connectors: SpecText[]) => Promise<ReadonlySet<string>>;

/**
 * Reads and schema-validates every spec file under `specDir`, a file that parsed cleanly before from the parse cache
 * when one is given (cache/spec-cache.ts). A connector file `known` names is valid and clean without being parsed
 * (knownSource: it parses if its data is asked). Never throws for bad spec content.
 */
export async function loadSpec(specDir: string, cache?: SpecCacheOptions, known?: KnownFiles): Promise<LoadedSpec> {
  const diagnostics: Diagnostic[] = [];
  const dirStat = statOrUndefined(specDir);
  if (!dirStat) throw new SpecDirError(specDir, displayPath(specDir), 'it does not exist');
  if (!dirStat.isDirectory()) throw new SpecDirError(specDir, displayPath(specDir), 'it is not a directory');
  const realSpecDir = realpathSync(specDir);
  const connectorsDir = path.join(specDir, 'connectors');
  const [topNames, connectorNames] = [namesIn(specDir), namesIn(connectorsDir)];
  // service.yaml (or .yml, .json): one of them.
  const serviceNames = SPEC_EXTENSIONS.map((e) => `service${e}`).filter((n) => topNames.includes(n));
  const servicePath = path.join(specDir, serviceNames[0] ?? 'service.yaml');
  for (const extra of serviceNames.slice(1)) {
    diagnostics.push(makeDiagnostic(displayPath(path.join(specDir, extra)), 1, 1, 'SPEC012', `duplicate service file '${extra}' (the common contract is ${serviceNames[0]}; keep one)`));
  }
  // One file per connector id, in whichever extension; a second file of the same id is reported and ignored. Hidden
  // files are no spec files: editors keep locks and swap copies beside the file being edited (.#crm.yaml, .crm.yaml).
  const byStem = new Map<string, string>();
  for (const n of connectorNames.filter((n) => !n.startsWith('.') && specStem(n) !== undefined).sort()) {
    const stem = specStem(n)!;
    const first = byStem.get(stem);
    if (first === undefined) byStem.set(stem, n);
    else diagnostics.push(makeDiagnostic(displayPath(path.join(connectorsDir, n)), 1, 1, 'SPEC012', `duplicate connector file '${n}' (connector '${stem}' is already defined in ${first}; keep one)`));
  }
  const names = [...byStem.values()].sort();
  const [serviceRead, ...connectorReads] = [servicePath, ...names.map((n) => path.join(connectorsDir, n))].map((file) => readSpecFile(file, realSpecDir));
  const base = path.basename(path.resolve(specDir));
  if (serviceRead!.missing) {
    // The spec's first file: without it (an empty directory, the wrong one) the hint is where to look, not a key to add.
    const none = names.length === 0 ? ' and no connectors/*.yaml: is this the spec directory?' : '';
    diagnostics.push({
      ...makeDiagnostic(displayPath(servicePath), 1, 1, 'SPEC004', `${displayPath(specDir)} has no service.yaml (the service's common contract)${none}`),
      hint: `A spec directory holds service.yaml and connectors/<id>.yaml (spec/README.md); give --spec the directory that holds them.`,
    });
  }
  const kinds: SpecFileKind[] = ['service', ...names.map((): SpecFileKind => 'connector')];
  const reads = [serviceRead!, ...connectorReads];
  const files = [servicePath, ...names.map((n) => path.join(connectorsDir, n))];
  const specPaths = [`${base}/${path.basename(servicePath)}`, ...names.map((n) => `${base}/connectors/${n}`)];
  const texts = reads.map((r, i): SpecText | undefined => (r.text === undefined || r.problem ? undefined : { file: displayPath(files[i]!), specPath: specPaths[i]!, text: r.text }));
  const knownPaths = known ? await known(texts[0], texts.slice(1).filter((t) => t !== undefined)) : new Set<string>();
  const isKnown = (i: number) => i > 0 && texts[i] !== undefined && knownPaths.has(specPaths[i]!);
  const specCache = cache && (await import('../cache/spec-cache.js').then(({ SpecCache }) => SpecCache.open(cache, reads.flatMap((r, i) => (r.text === undefined || isKnown(i) ? [] : [{ kind: kinds[i]!, text: r.text }])))));
  // The files to parse, on the fast path first (yaml-fast.ts); `yaml` is loaded, once, only if one is declined.
  const fast = new Map<string, { data: unknown } | null>();
  for (const [i, read] of reads.entries()) {
    const text = read.text;
    if (text !== undefined && !isKnown(i) && !specCache?.get(kinds[i]!, text) && !checkedCache.has(checkedKey(displayPath(files[i]!), specPaths[i]!, kinds[i]!, text)) && !fast.has(text)) fast.set(text, fastParse(text) ?? null);
  }
  if (reads.some((r) => r.text === undefined) || [...fast.values()].includes(null)) await loadYaml();
  const valid = new Set<SourceFile>();
  const clean: { kind: SpecFileKind; source: SourceFile }[] = [];
  const take = (file: string, read: SpecFileRead, specPath: string, kind: SpecFileKind, i: number): SourceFile => {
    if (isKnown(i)) {
      const source = knownSource(texts[i]!.file, specPath, texts[i]!.text);
      valid.add(source);
      return source;
    }
    const checked = checkedSource(displayPath(file), read, specPath, kind, read.text === undefined ? undefined : specCache?.get(kind, read.text), read.text === undefined ? undefined : fast.get(read.text));
    diagnostics.push(...checked.diagnostics);
    if (checked.valid) valid.add(checked.source);
    if (checked.valid && checked.diagnostics.length === 0 && checked.source.duplicates.length === 0) clean.push({ kind, source: checked.source });
    return checked.source;
  };
  const service = take(servicePath, serviceRead!, specPaths[0]!, 'service', 0);
  const connectors = names.map((n, i) => take(files[i + 1]!, connectorReads[i]!, specPaths[i + 1]!, 'connector', i + 1));
  return { service, connectors, valid, diagnostics, ...(specCache ? { saveCache: () => specCache.save(clean) } : {}) };
}

/** One file parsed and checked against its meta-schema: the source, its problems, and whether later phases read it. */
interface CheckedSource {
  source: SourceFile;
  diagnostics: Diagnostic[];
  valid: boolean;
}

/**
 * Files parsed and checked recently, by name and content: an unchanged file is not parsed again (watch mode reloads
 * the spec at every save; usually one file changed). Entries are never modified after they are made.
 */
const checkedCache = new Map<string, CheckedSource>();
const CHECKED_CACHE_SIZE = 64;

/** Key of a file in checkedCache. */
const checkedKey = (file: string, specPath: string, kind: SpecFileKind, text: string) => `${file}\0${specPath}\0${kind}\0${text}`;

/**
 * Parses and schema-checks one file as read (or takes it from the in-memory cache, or builds it from the parse cache's
 * `parsed`: a clean file as parsed before, which is valid without checking again). `fast`: the fast path's answer for
 * the text, when it was asked (null: declined).
 */
function checkedSource(file: string, read: SpecFileRead, specPath: string, kind: SpecFileKind, parsed?: ParsedFile, fast?: { data: unknown } | null): CheckedSource {
  const problem = read.problem ? [makeDiagnostic(file, read.problem.line, read.problem.col, read.problem.code, read.problem.message)] : [];
  if (read.text === undefined) return { source: parseSource(file, '', specPath), diagnostics: problem, valid: false };
  const key = checkedKey(file, specPath, kind, read.text);
  const cached = checkedCache.get(key);
  if (cached) return cached;
  let checked: CheckedSource;
  if (parsed) checked = { source: parsedSource(file, specPath, read.text, parsed.data, parsed.positions), diagnostics: [], valid: true };
  else checked = parseAndCheck(file, read.text, specPath, validators[kind], fast);
  // Shared by later loads: frozen, so nothing downstream can change what the next load reads.
  deepFreeze(checked.source.data);
  if (checkedCache.size >= CHECKED_CACHE_SIZE) checkedCache.delete(checkedCache.keys().next().value!);
  checkedCache.set(key, checked);
  return checked;
}

/** Parses one file and checks its data: syntax, hygiene (checkData), then the meta-schema. */
function parseAndCheck(file: string, text: string, specPath: string, validate: MetaValidator, fast?: { data: unknown } | null): CheckedSource {
  const source = readSource(file, text, specPath, fast); // fast undefined: readSource asks the fast path itself
  const diagnostics = [...source.syntaxErrors];
  let valid = false;
  if (source.syntaxErrors.length === 0) {
    const hygiene = checkData(source);
    diagnostics.push(...hygiene);
    if (!hygiene.some((d) => d.severity === 'error')) {
      valid = validate(source.data);
      if (!valid) diagnostics.push(...schemaDiagnostics(source, validate.errors ?? []));
    }
  }
  return { source, diagnostics, valid };
}

function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (!Array.isArray(value) && !isPlainObject(value)) return; // a Buffer cannot be frozen; checkData reports it
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/** The names in directory `dir`; none when it cannot be read (a missing directory is reported by what needs it). */
function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Largest spec file read (the real ones are 5–25 KB). */
export const MAX_SPEC_FILE_BYTES = 2 * 1024 * 1024;

/** One spec file as read: its text, or why it was not read (`missing`: it does not exist). */
interface SpecFileRead {
  text?: string;
  missing?: boolean;
  problem?: { code: DiagnosticCode; message: string; line: number; col: number };
}

/**
 * Reads one spec file, refusing what must not be read: a symlink leaving the spec directory, anything but a regular
 * file (a FIFO would block forever), a file over the size limit; then text that is not UTF-8 or holds control
 * characters. Opened non-blocking and checked again on the open descriptor, so a file swapped meanwhile is refused too.
 * Synchronous: a spec file is small and local, and each asynchronous call would cost a round trip through libuv's
 * thread pool, more CPU than the call itself (five per file).
 */
function readSpecFile(file: string, realSpecDir: string): SpecFileRead {
  const entry = lstatOrUndefined(file);
  if (!entry) return { missing: true };
  const at = (code: DiagnosticCode, message: string, line = 1, col = 1): SpecFileRead => ({ problem: { code, message, line, col } });
  let target = file;
  if (entry.isSymbolicLink()) {
    try {
      target = realpathSync(file);
    } catch {
      return at('SRC002', `${path.basename(file)} is a symlink to a file that does not exist`);
    }
    if (!target.startsWith(realSpecDir + path.sep)) return at('SRC002', `${path.basename(file)} is a symlink to ${target}, outside the spec directory; it was not read`);
  }
  let fd: number;
  try {
    fd = openSync(target, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  } catch (error) {
    return at('SRC001', `${path.basename(file)} cannot be opened: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return at('SRC001', `${path.basename(file)} is ${kindOf(info)}, not a regular file; it was not read`);
    if (info.size > MAX_SPEC_FILE_BYTES) return at('SRC003', `${path.basename(file)} is ${(info.size / 1024 / 1024).toFixed(1)} MiB; spec files are at most ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MiB`);
    const bytes = readAll(fd, info.size);
    if (bytes.length > MAX_SPEC_FILE_BYTES) return at('SRC003', `${path.basename(file)} grew past ${MAX_SPEC_FILE_BYTES / 1024 / 1024} MiB while being read`);
    const invalid = firstInvalidUtf8(bytes);
    if (invalid !== undefined) {
      const { line, col } = position(bytes.subarray(0, invalid).toString('utf8'), invalid);
      return at('SRC004', `invalid UTF-8 byte 0x${bytes[invalid]!.toString(16).padStart(2, '0')}`, line, col);
    }
    const text = bytes.toString('utf8');
    const control = CONTROL.exec(text);
    if (control) {
      const { line, col } = position(text, control.index);
      return at('SRC005', `control character ${codePoint(control[0])} in the file`, line, col);
    }
    return { text };
  } finally {
    closeSync(fd);
  }
}

/**
 * The bytes of the open file `fd` (of `size` bytes when it was stat'ed) to its end, read until a read gives nothing,
 * so a file that grew meanwhile is read whole (its size is checked after), one byte past the limit at most.
 */
function readAll(fd: number, size: number): Buffer {
  let bytes = Buffer.allocUnsafe(Math.min(size + 1, MAX_SPEC_FILE_BYTES + 1));
  let length = 0;
  for (;;) {
    if (length === bytes.length) {
      if (length > MAX_SPEC_FILE_BYTES) break;
      const more = Buffer.allocUnsafe(Math.min(bytes.length * 2, MAX_SPEC_FILE_BYTES + 1));
      bytes.copy(more, 0, 0, length);
      bytes = more;
    }
    const read = readSync(fd, bytes, length, bytes.length - length, null);
    if (read === 0) break;
    length += read;
  }
  return bytes.subarray(0, length);
}

/** Control characters a spec may not hold: C0 (but tab, line feed, carriage return), DEL, C1. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

function kindOf(info: { isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean }): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isDirectory()) return 'a directory';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** 1-based line and column of `offset` in `text`. */
function position(text: string, offset: number): { line: number; col: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

/** Byte offset of the first byte that does not belong to valid UTF-8, or undefined. */
function firstInvalidUtf8(bytes: Uint8Array): number | undefined {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return undefined;
  } catch {
    // find it: decode growing prefixes at sequence boundaries (only on this error path)
  }
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return i;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(i, i + length));
    } catch {
      return i;
    }
    i += length;
  }
  return undefined;
}

/** Object.prototype's members: as keys of spec data they would collide with what every JavaScript object has. */
const RESERVED_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));
/** Deepest nesting of maps and lists accepted. */
const MAX_DEPTH = 32;

/** Problems of the data itself, before the meta-schema: reserved keys, control characters from escapes, depth. */
function checkData(source: SourceFile): Diagnostic[] {
  const out: Diagnostic[] = [];
  const visit = (value: unknown, at: DataPath): void => {
    if (at.length > MAX_DEPTH) {
      out.push(diagnosticAt(source, at.slice(0, MAX_DEPTH + 1), 'SRC006', `data nests more than ${MAX_DEPTH} levels deep`));
      return;
    }
    if (typeof value === 'string') {
      const control = CONTROL.exec(value);
      if (control) out.push(diagnosticAt(source, at, 'SRC005', `${showPath(at)} holds the control character ${codePoint(control[0])} (written as an escape)`, { at: 'value' }));
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...at, i]));
    } else if (value !== null && typeof value === 'object' && !isPlainObject(value)) {
      // A YAML 1.1 tag (!!binary, !!set, !!omap, !!timestamp) made a Buffer, Set, Map or Date: no spec key takes one.
      out.push(diagnosticAt(source, at, 'SPEC003', `${showPath(at)} is a YAML ${yamlTagOf(value)} value; spec data holds only strings, numbers, booleans, null, lists and maps`, { at: 'value' }));
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        if (RESERVED_KEYS.has(key)) out.push(diagnosticAt(source, [...at, key], 'SPEC040', `'${key}' is a reserved name (every JavaScript object has it), so it cannot name an item in ${showPath(at)}`));
        const control = CONTROL.exec(key);
        if (control) out.push(diagnosticAt(source, [...at, key], 'SRC005', `a key in ${showPath(at)} holds the control character ${codePoint(control[0])}`));
        visit((value as Record<string, unknown>)[key], [...at, key]);
      }
    }
  };
  visit(source.data, []);
  return out;
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The YAML 1.1 tag that gives `value` (a class instance from toJS), for a message. */
function yamlTagOf(value: object): string {
  if (value instanceof Uint8Array) return '!!binary';
  if (value instanceof Set) return '!!set';
  if (value instanceof Map) return '!!omap';
  if (value instanceof Date) return '!!timestamp';
  return `tagged (${value.constructor?.name ?? 'object'})`;
}

/** Dotted rendering of a data path for messages (`entities.customers.actions.list`). */
export function showPath(p: DataPath): string {
  return p.length === 0 ? '(top level)' : p.map(String).join('.');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Turns ajv's errors into located diagnostics, one per distinct problem. */
function schemaDiagnostics(source: SourceFile, errors: ErrorObject[]): Diagnostic[] {
  const out = new Map<string, Diagnostic>();
  const add = (p: DataPath, code: DiagnosticCode, message: string, at: 'key' | 'value') => {
    const d = diagnosticAt(source, p, code, message, { at });
    out.set(`${d.line}:${d.col}:${code}:${message}`, d);
  };
  for (const e of errors) {
    const p = pointerToPath(e.instancePath);
    const where = showPath(p);
    // A key that breaks `propertyNames`: reported at the key, once (ajv adds a wrapper error without the name).
    const badKey = (e as ErrorObject & { propertyName?: string }).propertyName;
    if (badKey !== undefined) {
      add([...p, badKey], 'SPEC005', `key '${badKey}' in ${where} ${e.keyword === 'pattern' ? `must match ${(e.params as { pattern: string }).pattern}` : (e.message ?? 'is invalid')}`, 'key');
      continue;
    }
    switch (e.keyword) {
      case 'if':
      case 'propertyNames':
        break; // the failing branch (or the key's own error) reports the real problem
      case 'additionalProperty':
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
        add([...p, key], 'SPEC002', `unknown key '${key}' in ${where}${didYouMean(key, allowed)}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`, 'key');
        break;
      }
      case 'type':
        add(p, 'SPEC003', `${where} must be ${(e.params as { type: string | string[] }).type.toString().replace(',', ' or ')}, not ${typeName(e.data)}`, 'value');
        break;
      case 'required':
        add(p, 'SPEC004', `missing key '${(e.params as { missingProperty: string }).missingProperty}' in ${where}`, 'value');
        break;
      case 'enum': {
        const allowed = (e.params as { allowedValues: unknown[] }).allowedValues.map(String);
        add(p, 'SPEC005', `${where} is ${JSON.stringify(e.data)}${typeof e.data === 'string' ? didYouMean(e.data, allowed) : ''}; allowed: ${allowed.join(', ')}`, 'value');
        break;
      }
        break;
      default:
        add(p, 'SPEC005', `${where} ${e.message ?? 'is invalid'}`, 'value');
    }
  }
  return [...out.values()];
}
