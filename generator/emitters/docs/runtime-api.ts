/**
 * The runtime's public surface as the docs print it, read from the runtime's own sources: the members of the
 * options interfaces (runtime/src/options.ts) with their JSDoc and `@default`, and the error classes with their
 * fields (runtime/src/errors.ts, validation.ts). The JSDoc is the one description of each option and field, so the
 * tables cannot drift from the code. The sources are hand-written in one style (a JSDoc block, then one member
 * per line); anything undocumented fails generation. A text reader, not TypeScript: generate's main thread does
 * not load the compiler (test/docs-runtime-api.test.ts checks the result against the compiler's view).
 */
import { readFileSync } from 'node:fs';

/** One documented member: an option or an error field. */
export interface ApiMember {
  name: string;
  /** The declared type, as written. */
  type: string;
  optional: boolean;
  /** The JSDoc text without tags. */
  doc: string;
  /** The `@default` tag, when there is one. */
  default?: string;
}

/** One error class. */
export interface ApiErrorClass {
  name: string;
  /** The class it extends (`Error` for the root classes). */
  extends: string;
  /** The class JSDoc: when it is thrown. */
  doc: string;
  /** Fields it declares itself (inherited ones are its base's). */
  fields: ApiMember[];
}

/** The surface the docs describe. */
export interface RuntimeApi {
  clientOptions: ApiMember[];
  requestOptions: ApiMember[];
  pageOptions: ApiMember[];
  errors: ApiErrorClass[];
  /** Exported constants the docs quote (LOG_LEVEL_ENV, MAX_RETRIES, …), as written. */
  constants: Record<string, string>;
}

const runtimeSrc = new URL('../../../runtime/src/', import.meta.url);

/** The text of a JSDoc block and its tags. */
function jsdoc(block: string): { doc: string; tags: Record<string, string> } {
  const lines = block
    .replace(/^\/\*\*|\*\/$/g, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, '').trimEnd());
  const tags: Record<string, string> = {};
  const doc: string[] = [];
  let tag: string | undefined;
  for (const line of lines) {
    const m = /^@(\w+)\s*(.*)$/.exec(line.trim());
    if (m) {
      tag = m[1]!;
      tags[tag] = m[2]!;
    } else if (tag) tags[tag] = `${tags[tag]} ${line.trim()}`.trim();
    else doc.push(line.trim());
  }
  return { doc: doc.join(' ').replace(/\s+/g, ' ').trim(), tags };
}

/** The body of `export <kind> <name> …{ … }` (up to the closing brace at column 0). */
function body(source: string, file: string, kind: 'interface' | 'class', name: string): { body: string; head: string; doc: string } {
  const at = source.search(new RegExp(`^export ${kind} ${name}\\b`, 'm'));
  if (at < 0) throw new Error(`runtime/src/${file}: no exported ${kind} ${name}`);
  const open = source.indexOf('{\n', at);
  const close = source.indexOf('\n}\n', open);
  const before = source.slice(0, at).trimEnd();
  const doc = before.endsWith('*/') ? jsdoc(before.slice(before.lastIndexOf('/**'))).doc : '';
  return { body: source.slice(open + 2, close + 1), head: source.slice(at, open), doc };
}

/** Members of one line each, every one preceded by its JSDoc; `declared` reads class fields (`declare readonly x: T;`). */
function members(text: string, where: string, declared: boolean): ApiMember[] {
  const out: ApiMember[] = [];
  const member = declared ? /^\s*declare readonly (\w+)(\?)?: (.+);$/ : /^\s{2}(\w+)(\?)?: (.+);$/;
  let pending: string | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*\/\*\*/.test(line)) {
      let block = line;
      while (!block.includes('*/')) block += `\n${lines[++i]}`;
      pending = block.trim();
      continue;
    }
    const m = member.exec(line);
    if (m) {
      if (!pending) throw new Error(`${where}.${m[1]} has no JSDoc: the docs are read from it`);
      const { doc, tags } = jsdoc(pending);
      out.push({ name: m[1]!, type: m[3]!, optional: m[2] === '?', doc, ...(tags['default'] !== undefined ? { default: tags['default'] } : {}) });
    }
    if (line.trim() && !/^\s*\/\//.test(line)) pending = undefined;
  }
  return out;
}

/** Every exported class of a runtime file that extends `Error` or another error class of the list. */
function errorClasses(file: string, known: Set<string>): ApiErrorClass[] {
  const source = readFileSync(new URL(file, runtimeSrc), 'utf8');
  const out: ApiErrorClass[] = [];
  for (const m of source.matchAll(/^export class (\w+) extends (\w+)/gm)) {
    const [, name, base] = m as unknown as [string, string, string];
    if (base !== 'Error' && !known.has(base)) continue;
    const { body: text, doc } = body(source, file, 'class', name);
    if (!doc) throw new Error(`runtime/src/${file}: class ${name} has no JSDoc: the docs are read from it`);
    known.add(name);
    out.push({ name, extends: base, doc, fields: members(text, `runtime/src/${file} ${name}`, true) });
  }
  return out;
}

/** `export const NAME = value;` of a runtime file: strings unquoted, numbers as written. */
function constants(file: string): Record<string, string> {
  const source = readFileSync(new URL(file, runtimeSrc), 'utf8');
  return Object.fromEntries([...source.matchAll(/^export const ([A-Z_]+) = '?([^';]+)'?;$/gm)].map((m) => [m[1]!, m[2]!]));
}

let cached: RuntimeApi | undefined;

/** The runtime's options and errors, read once per process. */
export function runtimeApi(): RuntimeApi {
  if (cached) return cached;
  const options = readFileSync(new URL('options.ts', runtimeSrc), 'utf8');
  const read = (name: string) => members(body(options, 'options.ts', 'interface', name).body, `runtime/src/options.ts ${name}`, false);
  const known = new Set<string>();
  cached = {
    clientOptions: read('ClientOptions'),
    requestOptions: read('RequestOptions'),
    pageOptions: read('PageOptions'),
    errors: [...errorClasses('errors.ts', known), ...errorClasses('validation.ts', known)],
    constants: constants('transport.ts'),
  };
  return cached;
}
