/**
 * Edits of a copy of the real spec, as a spec author makes them: set, delete or rename a key, replace text,
 * move a file, and formatting-only rewrites (JSON instead of YAML, CRLF, comments, anchors and aliases, merge
 * keys, flow style, quoted strings, other indentation and line width, reversed key order, `.yml`, `common`
 * params written out). Each formatting rewrite is checked to keep the file's data (or, for written-out
 * `common` params, the spec's meaning), so a case can never pass by rewriting nothing.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isMap, isPair, isScalar, isSeq, parse, parseDocument, visit, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { realSpecDir } from './spec-copy.js';

/** Formatting-only rewrites of a file. */
export type Format = 'json' | 'json-in-yaml' | 'yml' | 'crlf' | 'comments' | 'anchors' | 'merge-keys' | 'flow' | 'quoted' | 'indent4' | 'narrow' | 'reverse' | 'expand-common';

/** One edit of one file of the spec (`file` relative to the spec directory; `*` for a format: every file). */
export interface SpecEdit {
  file: string;
  /** Set the value at a `/`-separated path (numbers index sequences). */
  set?: string;
  to?: unknown;
  /** Delete the key at a path. */
  delete?: string;
  /** Rename the last key of the path to `as`, in place. */
  rename?: string;
  as?: string;
  /** Replace text (exactly once unless `all`). */
  replace?: string;
  with?: string;
  all?: boolean;
  /** Rewrite the file's formatting. */
  format?: Format;
  /** Delete the file. */
  remove?: boolean;
}

/** A `/`-separated path as keys of `doc`: a number indexes a sequence, anything else is a map key (`404` too). */
function segments(doc: Document, p: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const s of p.split('/')) {
    const parent = out.length ? doc.getIn(out, true) : doc.contents;
    out.push(isSeq(parent) && /^\d+$/.test(s) ? Number(s) : s);
  }
  return out;
}

/** A new temp directory named `spec` holding a copy of the real spec; returns it. */
export async function copyRealSpec(prefix = 'codegen-edit-'): Promise<string> {
  const dir = path.join(await mkdtemp(path.join(os.tmpdir(), prefix)), 'spec');
  await cp(realSpecDir, dir, { recursive: true });
  return dir;
}

/** Every spec file of `dir`, relative (service.yaml first). */
async function specFiles(dir: string): Promise<string[]> {
  const connectors = (await readdir(path.join(dir, 'connectors'))).sort().map((n) => `connectors/${n}`);
  return [...(await readdir(dir)).filter((n) => n.startsWith('service.')), ...connectors];
}

/** Applies `edits` to the spec in `dir`, in order. */
export async function applyEdits(dir: string, edits: readonly SpecEdit[]): Promise<void> {
  for (const edit of edits) {
    if (edit.format) {
      const files = edit.file === '*' ? await specFiles(dir) : [edit.file];
      for (const f of files) await reformat(dir, f, edit.format);
      continue;
    }
    const file = path.join(dir, edit.file);
    if (edit.remove) {
      await rm(file);
      continue;
    }
    const text = await readFile(file, 'utf8');
    if (edit.replace !== undefined) {
      const count = text.split(edit.replace).length - 1;
      if (count === 0 || (!edit.all && count > 1)) throw new Error(`edit ${edit.file}: '${edit.replace}' occurs ${count} times`);
      await writeFile(file, edit.all ? text.split(edit.replace).join(edit.with ?? '') : text.replace(edit.replace, () => edit.with ?? ''));
      continue;
    }
    const doc = parseDocument(text);
    if (edit.set !== undefined) doc.setIn(segments(doc, edit.set), doc.createNode(edit.to));
    else if (edit.delete !== undefined) {
      if (!doc.hasIn(segments(doc, edit.delete))) throw new Error(`edit ${edit.file}: nothing at ${edit.delete}`);
      doc.deleteIn(segments(doc, edit.delete));
    } else if (edit.rename !== undefined) renameKey(doc, segments(doc, edit.rename), edit.as!, edit.file);
    else throw new Error(`edit needs set, delete, rename, replace or format: ${JSON.stringify(edit)}`);
    await writeFile(file, doc.toString({ lineWidth: 0 }));
  }
}

function renameKey(doc: Document, at: (string | number)[], to: string, file: string): void {
  const parent = at.length > 1 ? doc.getIn(at.slice(0, -1), true) : doc.contents;
  const pair = isMap(parent) ? (parent as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === at.at(-1)) : undefined;
  if (!pair) throw new Error(`edit ${file}: no key at ${at.join('/')}`);
  (pair as Pair<Node>).key = doc.createNode(to);
}

/** Rewrites the formatting of one file; throws when the rewrite changed the data it holds. */
async function reformat(dir: string, file: string, format: Format): Promise<void> {
  const full = path.join(dir, file);
  const text = await readFile(full, 'utf8');
  const before = parse(text, { merge: true, maxAliasCount: -1 });
  let out = text;
  let target = full;
  const doc = () => parseDocument(text);
  switch (format) {
    case 'json':
      out = `${JSON.stringify(before, null, 2)}\n`;
      target = full.replace(/\.ya?ml$/, '.json');
      break;
    case 'json-in-yaml':
      out = `${JSON.stringify(before, null, 2)}\n`;
      break;
    case 'yml':
      target = full.replace(/\.yaml$/, '.yml');
      break;
    case 'crlf':
      out = text.replace(/\r?\n/g, '\r\n');
      break;
    case 'comments':
      out = withComments(text);
      break;
    case 'anchors':
      out = withAnchors(doc());
      break;
    case 'merge-keys':
      out = withMergeKeys(doc());
      break;
    case 'flow': {
      const d = doc();
      visit(d, { Map: (_, n) => void (n.flow = true), Seq: (_, n) => void (n.flow = true) });
      out = d.toString({ lineWidth: 0 });
      break;
    }
    case 'quoted':
      out = doc().toString({ defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN', lineWidth: 0 });
      break;
    case 'indent4':
      out = doc().toString({ indent: 4, lineWidth: 0 });
      break;
    case 'narrow':
      out = doc().toString({ lineWidth: 40, minContentWidth: 10 });
      break;
    case 'reverse': {
      const d = doc();
      visit(d, { Map: (_, n) => void n.items.reverse() });
      out = d.toString();
      break;
    }
    case 'expand-common':
      out = expandCommon(text);
      break;
  }
  if (format !== 'expand-common' && !isDeepStrictEqual(parse(out, { merge: true, maxAliasCount: -1 }), before)) {
    throw new Error(`format ${format} of ${file} changed its data`);
  }
  if (out === text && target === full) throw new Error(`format ${format} of ${file} changed nothing`);
  if (target !== full) await rm(full);
  await writeFile(target, out);
}

/** A comment line before, and a comment after, every key that opens a block (never inside block scalars). */
function withComments(text: string): string {
  const lines = text.split('\n');
  const out = ['# A comment at the top of the file.', ''];
  let blockIndent = -1; // indentation of the block scalar being read, -1 outside one
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (blockIndent >= 0 && (line.trim() === '' || indent > blockIndent)) {
      out.push(line);
      continue;
    }
    blockIndent = -1;
    const opens = /^(\s*)([A-Za-z_][\w.-]*):\s*$/.exec(line);
    if (opens) out.push(`${opens[1]}# ${opens[2]} — a comment line`, `${line} # a trailing comment`);
    else out.push(line);
    if (/:\s*[>|][-+]?\s*$/.test(line)) blockIndent = indent;
  }
  return out.join('\n');
}

/** Every map that repeats an earlier equal one becomes an alias of it (an anchor on the first). */
function withAnchors(doc: Document): string {
  const seen = new Map<string, Node>();
  let n = 0;
  visit(doc, {
    Map(_, node) {
      const key = JSON.stringify(node.toJSON());
      if (key.length < 20) return undefined;
      const first = seen.get(key);
      if (!first) {
        seen.set(key, node);
        return undefined;
      }
      first.anchor ??= `a${++n}`;
      return doc.createAlias(first as never, first.anchor);
    },
  });
  if (n === 0) throw new Error('anchors: no repeated map');
  return doc.toString({ lineWidth: 0 });
}

/**
 * Maps that share their first two entries with an earlier map take them through a merge key (`<<: *m1`); the
 * anchored map keeps them written out.
 */
function withMergeKeys(doc: Document): string {
  const firstOf = new Map<string, YAMLMap>();
  const anchored = new Map<YAMLMap, Node>(); // first map → the anchored map of its two shared entries
  let n = 0;
  const entries = (m: YAMLMap) => m.items.slice(0, 2).map((p) => [String((p.key as { value: unknown }).value), (p.value as { value: unknown }).value] as const);
  visit(doc, {
    Map(_, node) {
      if (node.items.length < 3 || !node.items.every((p) => isScalar(p.key)) || node.items.slice(0, 2).some((p) => !isScalar(p.value))) return;
      const key = JSON.stringify(entries(node as YAMLMap));
      const first = firstOf.get(key);
      if (!first) {
        firstOf.set(key, node as YAMLMap);
        return;
      }
      let base = anchored.get(first);
      if (!base) {
        // The anchor holds exactly the two shared entries, so merging adds nothing else.
        base = doc.createNode(Object.fromEntries(entries(first))) as Node;
        base.anchor = `m${++n}`;
        first.items.splice(0, 2, doc.createPair('<<', base) as never);
        anchored.set(first, base);
      }
      node.items.splice(0, 2, doc.createPair('<<', doc.createAlias(base as never)) as never);
    },
  });
  if (n === 0) throw new Error('merge-keys: no maps share their first entries');
  return doc.toString({ lineWidth: 0 });
}

/** Every `name: common` param written out as a copy of the connector-level definition. */
function expandCommon(text: string): string {
  const doc = parseDocument(text);
  const common = doc.get('params', true);
  if (!isMap(common)) throw new Error('expand-common: the file has no params');
  let n = 0;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.value) && pair.value.value === 'common' && isScalar(pair.key)) {
        const def = (common as YAMLMap).get(pair.key.value, true);
        if (def === undefined) return;
        n++;
        pair.value = (isMap(def) || isSeq(def) ? def.clone() : doc.createNode((def as { value: unknown }).value)) as never;
      }
    },
  });
  if (n === 0) throw new Error('expand-common: no common params');
  return doc.toString({ lineWidth: 0 });
}
