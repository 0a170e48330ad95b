/**
 * Seeded mutants of a spec for the fuzz test: each mutant is the base spec with 1–3 edits of its files, chosen from
 * what spec authors (and tools, and disks) actually do — keys deleted, renamed, misspelt or reserved; values of
 * another type, out of range, huge, or naming another item of the spec; lines deleted, duplicated or re-indented;
 * stray bytes (NUL, invalid UTF-8, control characters); truncated files. The same seed gives the same mutants.
 */
import { isMap, isNode, isPair, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import { Random } from '../../generator/emitters/fixtures/random.js';

/** One spec file: path inside the spec directory → bytes. */
export type SpecFiles = Map<string, Buffer>;

/** A mutant: its files and what was done to them. */
export interface Mutant {
  /** Index in the corpus. */
  index: number;
  /** The mutated files (every file of the spec). */
  files: SpecFiles;
  /** The edits, for failure messages. */
  edits: string[];
}

const RESERVED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];
const WEIRD_STRINGS = ['', ' ', 'a b', 'ünïcødé', '😀', "it's", 'x'.repeat(300), '-1', '1e400', 'null', 'true', '{', '*', '\\', 'a.b.c', '$ref', 'list', 'none', '9lives', 'a-b', 'A_B'];
/** Text that breaks naive code generation: comment ends, quotes, template holes, markup, escapes, line breaks. */
const HOSTILE_TEXT = ['ends */ here', '`${process.exit(1)}`', "it's \"quoted\"", '</script><!--', '{{#each x}}', '\\u0000 \\n', 'line one\nline two\r\nthree', '| a | b |', '# heading', '@example', '\u2028\u2029', 'ünïcødé 😀', '  padded  ', '*/ /* */', '${x}'];
/** Keys whose values are prose (descriptions and notes): any text is valid there. */
const PROSE_KEYS = new Set(['description', 'note', 'title', 'assumption', 'provenance', 'unspecified', 'unspecifiedParams', 'deprecated', 'limit', 'where']);
const VALUES: unknown[] = [0, -1, 1.5, 1e21, 2 ** 53 + 1, -0, true, false, null, [], {}, [1, 'a'], { a: 1 }, [[[]]], 'string', 'integer', 'array<string>', 'string|null', 'object'];
const STRAY: (string | number[])[] = ['\u0000', '\u001b[31m', '\u0007', '\u00a0', '\u2028', '\ufeff', [0xff], [0xc3, 0x28], [0xe2, 0x82], '\t', '"', "'", ':', '- ', '&a ', '*a', '!!binary '];

/** A path to a map key or sequence item, with the scalar value there (undefined for maps and sequences). */
interface Entry {
  at: (string | number)[];
  value: unknown;
}

/** Every path to a map key or sequence item in a document. */
function paths(doc: Document): Entry[] {
  const out: Entry[] = [];
  const walk = (node: unknown, at: (string | number)[]) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const next = [...at, String(pair.key.value)];
        out.push({ at: next, value: isScalar(pair.value) ? pair.value.value : undefined });
        walk(pair.value, next);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        out.push({ at: [...at, i], value: isScalar(item) ? item.value : undefined });
        walk(item, [...at, i]);
      });
    }
  };
  walk(doc.contents, []);
  return out;
}

/** Scalar strings and keys of a document: names that mutations use as references to other items. */
function names(doc: Document): string[] {
  const out = new Set<string>();
  const walk = (node: unknown) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (isPair(pair) && isScalar(pair.key)) out.add(String(pair.key.value));
        if (isPair(pair)) walk(pair.value);
      }
    } else if (isSeq(node)) node.items.forEach(walk);
    else if (isScalar(node) && typeof node.value === 'string' && node.value.length < 40) out.add(node.value);
  };
  walk(doc.contents);
  return [...out].sort();
}

/** The plain value at a path (a copy: inserting it elsewhere never makes a cycle). */
function plainAt(doc: Document, at: (string | number)[]): unknown {
  const value = doc.getIn(at, true);
  return isNode(value) ? value.toJSON() : value;
}

/** A typo of a word: a letter dropped, doubled, swapped or replaced. */
function typo(word: string, random: Random): string {
  if (word.length < 2) return `${word}x`;
  const i = random.int(0, word.length - 2);
  switch (random.int(0, 3)) {
    case 0:
      return word.slice(0, i) + word.slice(i + 1);
    case 1:
      return word.slice(0, i) + word[i] + word.slice(i);
    case 2:
      return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
    default:
      return word.slice(0, i) + random.token(1, 'abcdefghijklmnopqrstuvwxyz_') + word.slice(i + 1);
  }
}

/** One structural edit of a YAML document (through the yaml library, so the text stays YAML). */
function editData(text: string, random: Random, pool: string[], parsed: Map<string, Document>): { text: string; edit: string } | undefined {
  // Parsed once per distinct text (most edits start from a base file), cloned for each edit.
  let original = parsed.get(text);
  if (!original) {
    original = parseDocument(text, { uniqueKeys: false });
    if (parsed.size > 16) parsed.clear();
    parsed.set(text, original);
  }
  if (original.errors.length) return undefined;
  const doc = original.clone();
  const entries = paths(doc);
  if (entries.length === 0) return undefined;
  const all = entries.map((e) => e.at);
  const at = random.pick(all);
  const where = at.join('.');
  const parentPath = at.slice(0, -1);
  const last = at[at.length - 1]!;
  const current = doc.getIn(at);
  // Weighted towards edits that keep the spec valid or break it subtly, so semantic checks and emitters are reached.
  const kind = random.pick(['prose', 'prose', 'reference', 'reference', 'rename', 'rename', 'delete', 'number', 'type', 'copy', 'graft']);
  switch (kind) {
    case 'prose': {
      const prose = entries.filter((e) => PROSE_KEYS.has(String(e.at[e.at.length - 1])) && typeof e.value === 'string').map((e) => e.at);
      if (prose.length === 0) return undefined;
      const target = random.pick(prose);
      const value = random.pick(HOSTILE_TEXT);
      doc.setIn(target, value);
      return { text: doc.toString({ lineWidth: 0 }), edit: `set ${target.join('.')} = ${JSON.stringify(value)}` };
    }
    case 'reference': {
      // A name replaced by another name of the spec: a reference to another item, or to none.
      const names = new Set(pool);
      const refs = entries.filter((e) => typeof e.value === 'string' && names.has(e.value) && !PROSE_KEYS.has(String(e.at[e.at.length - 1]))).map((e) => e.at);
      if (refs.length === 0) return undefined;
      const target = random.pick(refs);
      const value = random.chance(0.7) ? random.pick(pool) : random.chance(0.5) ? random.pick(RESERVED) : typo(doc.getIn(target) as string, random);
      doc.setIn(target, value);
      return { text: doc.toString({ lineWidth: 0 }), edit: `set ${target.join('.')} = ${JSON.stringify(value)}` };
    }
    case 'delete':
      doc.deleteIn(at);
      return { text: doc.toString({ lineWidth: 0 }), edit: `delete ${where}` };
    case 'rename': {
      // Rename a key: a typo, a reserved name, another name of the spec, or something odd.
      if (typeof last !== 'string') return undefined;
      const parent = doc.getIn(parentPath, true);
      if (!isMap(parent)) return undefined;
      const pair = parent.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === last);
      if (!pair || !isScalar(pair.key)) return undefined;
      const choice = random.int(0, 4);
      const name = choice <= 1 ? typo(last, random) : choice === 2 ? random.pick(RESERVED) : choice === 3 ? random.pick(pool) : random.pick(WEIRD_STRINGS);
      pair.key.value = name;
      return { text: doc.toString({ lineWidth: 0 }), edit: `rename key ${where} → ${JSON.stringify(name)}` };
    }
    case 'number': {
      const numbers = entries.filter((e) => typeof e.value === 'number').map((e) => e.at);
      if (numbers.length === 0) return undefined;
      const target = random.pick(numbers);
      const n = doc.getIn(target) as number;
      const value = random.pick([n + 1, n - 1, -n, n * 1000, 0, 0.5, 2 ** 53, -1]);
      doc.setIn(target, value);
      return { text: doc.toString({ lineWidth: 0 }), edit: `set ${target.join('.')} = ${value}` };
    }
    case 'type': {
      const value = random.chance(0.5) ? random.pick(VALUES) : random.pick(WEIRD_STRINGS);
      doc.setIn(at, doc.createNode(value));
      return { text: doc.toString({ lineWidth: 0 }), edit: `set ${where} = ${JSON.stringify(value)} (was ${JSON.stringify(current)?.slice(0, 40)})` };
    }
    case 'copy': {
      // A sibling copied under another name (a duplicate definition, or an extra item).
      const parent = doc.getIn(parentPath, true);
      if (!isMap(parent) || typeof last !== 'string') return undefined;
      const name = random.chance(0.5) ? random.pick(pool) : random.chance(0.5) ? `${last}_copy` : random.pick(WEIRD_STRINGS);
      parent.items.push(doc.createPair(name, plainAt(doc, at)));
      return { text: doc.toString({ lineWidth: 0 }), edit: `copy ${where} as ${JSON.stringify(name)}` };
    }
    default: {
      // A key's value replaced by a whole other subtree of the document.
      const other = random.pick(all);
      doc.setIn(at, doc.createNode(plainAt(doc, other)));
      return { text: doc.toString({ lineWidth: 0 }), edit: `set ${where} = (the value of ${other.join('.')})` };
    }
  }
}

/** One edit of the bytes: lines deleted, duplicated, re-indented, stray bytes, truncation. */
function editText(bytes: Buffer, random: Random): { bytes: Buffer; edit: string } {
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  const i = random.int(0, Math.max(0, lines.length - 1));
  switch (random.int(0, 4)) {
    case 0:
      return { bytes: Buffer.from([...lines.slice(0, i), ...lines.slice(i + 1)].join('\n')), edit: `delete line ${i + 1}` };
    case 1:
      return { bytes: Buffer.from([...lines.slice(0, i + 1), ...lines.slice(i)].join('\n')), edit: `duplicate line ${i + 1}` };
    case 2: {
      const shift = random.pick([-2, -1, 1, 2, 4]);
      const line = lines[i]!;
      lines[i] = shift > 0 ? ' '.repeat(shift) + line : line.replace(new RegExp(`^ {0,${-shift}}`), '');
      return { bytes: Buffer.from(lines.join('\n')), edit: `indent line ${i + 1} by ${shift}` };
    }
    case 3: {
      const stray = random.pick(STRAY);
      const insert = typeof stray === 'string' ? Buffer.from(stray) : Buffer.from(stray);
      const at = random.int(0, bytes.length);
      return { bytes: Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(at)]), edit: `insert ${JSON.stringify(typeof stray === 'string' ? stray : `bytes ${stray.join(',')}`)} at byte ${at}` };
    }
    default: {
      const at = random.int(0, bytes.length);
      return { bytes: bytes.subarray(0, at), edit: `truncate at byte ${at}` };
    }
  }
}

/** `count` mutants of `base`, seeded. */
export function* mutants(base: SpecFiles, seed: number, count: number): Generator<Mutant> {
  const paths = [...base.keys()].sort();
  // Names used across the spec: references point at them.
  const pool = [...new Set(paths.flatMap((p) => names(parseDocument(base.get(p)!.toString('utf8')))))].sort();
  const parsed = new Map<string, Document>();
  for (let index = 0; index < count; index++) {
    const random = Random.for('spec-fuzz', seed, index);
    const files = new Map(base);
    const edits: string[] = [];
    const n = random.pick([1, 1, 1, 2, 2, 3]);
    const connectorFiles = paths.filter((p) => p.startsWith('connectors/'));
    for (let k = 0; k < n; k++) {
      // Connector files get most edits: they are where authors work.
      const file = random.chance(0.8) && connectorFiles.length ? random.pick(connectorFiles) : random.pick(paths);
      const bytes = files.get(file)!;
      if (random.chance(0.85)) {
        const result = editData(bytes.toString('utf8'), random, pool, parsed);
        if (result) {
          files.set(file, Buffer.from(result.text));
          edits.push(`${file}: ${result.edit}`);
          continue;
        }
      }
      const result = editText(bytes, random);
      files.set(file, result.bytes);
      edits.push(`${file}: ${result.edit}`);
    }
    yield { index, files, edits };
  }
}

/** The real service.yaml cut down to some connectors (their writes, auth, limits), as text. */
export function trimmedServiceYaml(serviceText: string, ids: string[]): string {
  const doc = parseDocument(serviceText);
  const service = doc.toJS() as {
    connectors: string[];
    writeActions: Record<string, unknown>;
    authentication: { connectors: Record<string, unknown> };
    limits: { appliesTo?: { connector?: string; service?: string } }[];
  };
  service.connectors = ids;
  service.writeActions = Object.fromEntries(Object.entries(service.writeActions).filter(([id]) => ids.includes(id)));
  service.authentication.connectors = Object.fromEntries(Object.entries(service.authentication.connectors).filter(([id]) => ids.includes(id)));
  service.limits = service.limits.filter((l) => !l.appliesTo?.connector || ids.includes(l.appliesTo.connector));
  for (const key of ['connectors', 'writeActions', 'authentication', 'limits'] as const) doc.set(key, doc.createNode(service[key]));
  return doc.toString({ lineWidth: 0 });
}
