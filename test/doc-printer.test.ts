/**
 * The emitters' document printer (generator/emitters/ts/printer.ts) lays out every document byte for byte as
 * prettier's printDocToString does: per construct at several widths and indentation styles, on every document a full
 * generation of spec/ prints (in the generated style and two others), and on thousands of seeded random documents. A
 * document outside its subset goes to prettier's printer instead of printing differently.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { builders } from 'prettier/doc';
import { describe, expect, test } from 'vitest';
import { loadEmitters } from '../generator/emitters/index.js';
import { Random } from '../generator/emitters/fixtures/random.js';
import { align, conditionalGroup, fill, GENERATED_STYLE, group, hardline, ifBreak, indent, join, line, printDoc, prettierDocPrinter, setDocPrinter, softline, type CodeStyle, type Doc } from '../generator/emitters/ts/doc.js';
import { printDocFast, stringWidth, UnsupportedDocError } from '../generator/emitters/ts/printer.js';
import { readSpec } from '../generator/spec/read.js';

const { literalline, breakParent, lineSuffix, label, trim, cursor, dedent, markAsRoot, indentIfBreak, dedentToRoot } = builders;

/** A deep copy that keeps the document's sharing (a node met twice is copied once) and its group ids. */
function cloneDoc<T>(doc: T, copies = new Map<object, unknown>()): T {
  if (doc === null || typeof doc !== 'object') return doc;
  if (copies.has(doc)) return copies.get(doc) as T;
  if (Array.isArray(doc)) {
    const out: unknown[] = [];
    copies.set(doc, out);
    for (const part of doc) out.push(cloneDoc(part, copies));
    return out as T;
  }
  const out: Record<string, unknown> = {};
  copies.set(doc, out);
  for (const [key, value] of Object.entries(doc)) out[key] = cloneDoc(value, copies);
  return out as T;
}

/** prettier's output for `doc` (on a copy: both printers mark broken groups in the document they print). */
const prettierOf = (doc: Doc, style: CodeStyle) => prettierDocPrinter(cloneDoc(doc), style);

/** Our output for `doc`, after checking that prettier prints the same (on a copy printed first). */
function print(doc: Doc, style: Partial<CodeStyle> = {}): string {
  const full = { ...GENERATED_STYLE, ...style };
  const expected = prettierOf(doc, full);
  const actual = printDocFast(doc, full);
  expect(actual).toBe(expected);
  return actual;
}

const STYLES: CodeStyle[] = [
  { printWidth: 40, tabWidth: 2, useTabs: false },
  { printWidth: 80, tabWidth: 4, useTabs: true },
  { printWidth: 120, tabWidth: 2, useTabs: false },
  { printWidth: 120, tabWidth: 8, useTabs: true },
];

/** Checks `make()` (a fresh document each time) against prettier in every style of STYLES. */
function acrossStyles(make: () => Doc): string[] {
  return STYLES.map((style) => print(make(), style));
}

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`);
const list = (items: Doc[], shouldBreak = false) => group(['[', indent([softline, join([',', line], items)]), ifBreak(','), softline, ']'], { shouldBreak });
const object = (entries: [string, Doc][]) => group(['{', indent([line, join([',', line], entries.map(([k, v]) => group([k, ': ', v])))]), ifBreak(','), line, '}']);

describe('constructs, each as prettier prints it', () => {
  test('a group prints flat when it fits and breaks when it does not', () => {
    expect(print(list(['a', 'b', 'c']))).toBe('[a, b, c]');
    expect(print(list(words(12)), { printWidth: 40 })).toBe(`[\n${words(12).map((w) => `  ${w},`).join('\n')}\n]`);
    // Exactly at the width fits; one column more breaks.
    expect(print(['x'.repeat(32), list(['aa', 'bb'])], { printWidth: 40 })).toBe(`${'x'.repeat(32)}[aa, bb]`);
    expect(print(['x'.repeat(33), list(['aa', 'bb'])], { printWidth: 40 })).toBe(`${'x'.repeat(33)}[\n  aa,\n  bb,\n]`);
    acrossStyles(() => ['const value = ', list(words(10)), ';']);
  });

  test('what follows a group on its line counts toward whether it fits', () => {
    expect(print([list(['aa', 'bb']), ' + '.repeat(10)], { printWidth: 40 })).toBe('[aa, bb] +  +  +  +  +  +  +  +  +  + ');
    expect(print([list(['aa', 'bb']), 'x'.repeat(33)], { printWidth: 40 })).toBe(`[\n  aa,\n  bb,\n]${'x'.repeat(33)}`);
    // Text after a line break of an enclosing broken group does not count.
    expect(print(group([list(['aa', 'bb']), hardline, 'x'.repeat(60)]), { printWidth: 40 })).toBe(`[aa, bb]\n${'x'.repeat(60)}`);
  });

  test('nested groups: the outer one breaks, the inner ones that fit stay flat', () => {
    const doc = () => object([['first', list(words(3))], ['second', list(words(20))], ['third', object([['a', '1']])]]);
    const [narrow] = acrossStyles(doc);
    expect(narrow).toContain('first: [word0, word1, word2],');
    expect(narrow).toContain('third: { a: 1 },');
    expect(print(doc(), { printWidth: 400 })).toMatch(/^\{ first: .* \}$/);
  });

  test('shouldBreak breaks a group that fits, and every group around it', () => {
    expect(print(list(['a'], true))).toBe('[\n  a,\n]');
    expect(print(object([['k', list(['a'], true)]]))).toBe('{\n  k: [\n    a,\n  ],\n}');
    acrossStyles(() => object([['k', list(['a', 'b'], true)], ['l', list(['c'])]]));
  });

  test('a hard line breaks the groups around it (propagated), also from the flat branch of an ifBreak', () => {
    expect(print(group(['(', indent([softline, 'a', hardline, 'b']), softline, ')']))).toBe('(\n  a\n  b\n)');
    expect(print(group(['a', line, group(['b', line, ifBreak('x', ['y', hardline])])]))).toBe('a\nb\nx');
    expect(print(group(['a', line, 'b', breakParent]))).toBe('a\nb');
    // A hard line that only a later sibling holds does not break an earlier group.
    expect(print([group(['a', line, 'b']), hardline, group(['c', line, 'd', hardline])])).toBe('a b\nc\nd\n');
    acrossStyles(() => object([['k', group(['x', hardline, 'y'])], ['l', list(['c'])]]));
  });

  test('ifBreak follows its own group, or the group named by groupId when that was printed before', () => {
    const id = Symbol('list');
    const make = (items: string[]) => [group(['[', indent([softline, join([',', line], items)]), softline, ']'], { id }), ifBreak(' // broken', ' // flat', { groupId: id })];
    expect(print(make(['a', 'b']))).toBe('[a, b] // flat');
    expect(print(make(words(30)))).toMatch(/^\[\n {2}word0,\n[^]*\n\] \/\/ broken$/);
    // Named before its group is printed: neither branch (prettier's behaviour), yet measured as flat by fits.
    const later = Symbol('later');
    expect(print([ifBreak('B', 'F', { groupId: later }), group(['a', line, 'b'], { id: later })])).toBe('a b');
    expect(print(group([group('x'.repeat(39)), ifBreak('', 'F', { groupId: Symbol('never') }), line, 'y']), { printWidth: 40 })).toBe(`${'x'.repeat(39)}\ny`);
    acrossStyles(() => make(words(8)));
  });

  test('fill packs contents between mixed separators (line, softline, a comma and a line, a hard line)', () => {
    const numbers = (n: number) => {
      const parts: Doc[] = [];
      for (let i = 0; i < n; i++) {
        if (i > 0) parts.push(i % 7 === 0 ? softline : line);
        parts.push([String(i * 137), i < n - 1 ? ',' : '']);
      }
      return group(['[', indent([softline, fill(parts)]), softline, ']']);
    };
    expect(print(numbers(5))).toBe('[0, 137, 274, 411, 548]');
    const packed = print(numbers(60), { printWidth: 40 });
    expect(packed.split('\n').length).toBeGreaterThan(5);
    expect(Math.max(...packed.split('\n').map((l) => l.length))).toBeLessThanOrEqual(40);
    acrossStyles(() => numbers(80));
    acrossStyles(() => fill(['a', [',', line], 'b'.repeat(50), hardline, 'c', line, group(['d', line, 'e'], { shouldBreak: true }), softline, 'f']));
    // A content longer than the line, and fills with 0, 1 and 2 parts.
    acrossStyles(() => fill(['x'.repeat(130), line, 'y', line, 'z'.repeat(130)]));
    acrossStyles(() => [fill([]), fill(['only']), fill(['a', line]), fill([group(['p', line, 'q']), line])]);
  });

  test('align indents by a width or a string, with spaces or (before an indent, with useTabs) tabs', () => {
    const union = (members: string[]) => group(members.map((m, i) => [i === 0 ? ifBreak('| ') : [line, '| '], align(2, m)]));
    expect(print(['type T =', group(indent([softline, union(words(20))])), ';'], { printWidth: 80 })).toMatch(/^type T =\n {2}\| word0\n {2}\| word1\n/);
    expect(print(align('> ', ['a', hardline, 'b']))).toBe('a\n> b');
    expect(print(align(0, ['a', hardline, 'b']))).toBe('a\nb');
    expect(print(indent(align(3, indent(['a', hardline, 'b']))), { useTabs: true, tabWidth: 4 })).toBe('a\n\t\t\tb');
    expect(print(indent(align(3, ['a', hardline, 'b'])), { useTabs: true, tabWidth: 4 })).toBe('a\n\t   b');
    acrossStyles(() => indent(align(2, align('// ', indent(group(['x'.repeat(20), line, 'y'.repeat(30), line, 'z'.repeat(30)]))))));
  });

  test('conditionalGroup takes the first state that fits flat, else its last state broken', () => {
    const states = (n: number) => conditionalGroup([['a', line, 'x'.repeat(n)], ['b', softline, 'y'.repeat(n / 2)], group(['c', indent([line, 'z'])], { shouldBreak: true })]);
    expect(print(states(10), { printWidth: 40 })).toBe(`a ${'x'.repeat(10)}`);
    expect(print(states(60), { printWidth: 40 })).toBe(`b${'y'.repeat(30)}`);
    expect(print(states(100), { printWidth: 40 })).toBe('c\n  z');
    // shouldBreak goes straight to the last state; a hard line in the first state is printed flat (and remeasures).
    expect(print(conditionalGroup([['a', line, 'b'], ['c', line, 'd']], { shouldBreak: true }))).toBe('c\nd');
    expect(print([conditionalGroup([['a', hardline, 'b', group(['c', line, 'd'])], 'e']), 'x'.repeat(100)])).toBe(`a\nbc d${'x'.repeat(100)}`);
    // A conditionalGroup is never broken by what it holds, and stops the propagation.
    expect(print(group(['<', line, conditionalGroup([['p', breakParent], 'q']), line, '>']))).toBe('< p >');
    for (const n of [10, 30, 60, 100, 200]) acrossStyles(() => ['head', indent([line, states(n)]), softline]);
  });

  test('a flat group is printed and measured whole, as walking it gives, whatever surrounds it', () => {
    // Groups whose flat text the printer notes before printing (prepare.ts): a data literal, a property whose value
    // may move to the next line (its text starts with a line's space), a group in a group.
    const entry = (k: string, v: string) => [`${k}:`, group(indent([line, v]))];
    const literal = (n: number) => group(['{', indent([line, join([',', line], words(n).map((w) => entry(w, `'${w}'`)))]), ifBreak(','), line, '}']);
    for (const n of [1, 2, 3, 5, 8]) {
      acrossStyles(() => ['const value = ', literal(n), ';']);
      acrossStyles(() => [group(['f(', indent([softline, literal(n)]), softline, ')']), ' + ', literal(1)]);
      // A space pending before a group whose text starts with a space of its own counts once (fits), prints twice.
      acrossStyles(() => group(['x', line, group([line, 'y'.repeat(n * 5)]), line, literal(n)]));
    }
    // prettier counts the two spaces as one: flat at exactly the width (printed one column over it).
    expect(print(group(['x', line, group([line, 'y'.repeat(38)])]), { printWidth: 40 })).toBe(`x  ${'y'.repeat(38)}`);
    expect(print(group(['x', line, group([line, 'y'.repeat(39)])]), { printWidth: 40 })).toBe(`x\n ${'y'.repeat(39)}`);
    expect(print(['x', group([line, 'y'.repeat(38)]), group([line, 'z'])], { printWidth: 40 })).toBe(`x ${'y'.repeat(38)}\nz`);
    // Right at the width: the noted width, not a walk, decides; one column more breaks.
    expect(print(['x'.repeat(27), entry('key', `'${'v'.repeat(6)}'`)], { printWidth: 40 })).toBe(`${'x'.repeat(27)}key: '${'v'.repeat(6)}'`);
    expect(print(['x'.repeat(28), entry('key', `'${'v'.repeat(6)}'`)], { printWidth: 40 })).toBe(`${'x'.repeat(28)}key:\n  '${'v'.repeat(6)}'`);
    // A group wider than any line never prints flat, even where the line before it is short.
    expect(print(group(['a', line, literal(12)]), { printWidth: 40 })).toMatch(/^a\n\{\n {2}word0:/);
    acrossStyles(() => [literal(12), hardline, group(['b', line, literal(2)])]);
    // The same group met twice, and a document printed twice at different widths.
    const shared = literal(2);
    acrossStyles(() => group([shared, line, shared, line, group(['(', shared, ')'])]));
    const twice = ['const value = ', literal(4), ';'];
    expect(print(twice, { printWidth: 120 })).toBe(prettierOf(twice, { ...GENERATED_STYLE, printWidth: 120 }));
    expect(print(twice, { printWidth: 30 })).toBe(prettierOf(twice, { ...GENERATED_STYLE, printWidth: 30 }));
  });

  test('spaces and tabs at the end of a line are trimmed (not at the end of the document, not before a literal line)', () => {
    expect(print(['a ', hardline, 'b\t \t', hardline, indent([hardline, hardline]), 'c  '])).toBe('a\nb\n\n\n  c  ');
    expect(print(indent(['x', hardline, '', hardline, 'y']), { useTabs: true })).toBe('x\n\n\ty');
    expect(print(group(['a', line, '   ', softline, 'b']), { printWidth: 3 })).toBe('a\n\nb');
    expect(print(indent(['a  ', literalline, 'b', hardline, 'c']))).toBe('a  \nb\n  c');
    expect(print(['text with\ninner newline   ', hardline, 'z'])).toBe('text with\ninner newline\nz');
  });

  test('strings are measured by display width: wide characters count 2, combining marks 0', () => {
    for (const word of ['—', '…', 'é', 'ü', '→', '中文', 'ｶ', 'e\u0301', '👍', '👩‍👩‍👧', '1\uFE0F\u20E3', '©', '\u0007', '\u007f', 'x\u007fé', '\t']) {
      for (const n of [1, 5, 19, 20, 21, 39, 40, 41]) acrossStyles(() => group(['[', indent([softline, join([',', line], Array.from({ length: 2 }, () => word.repeat(n)))]), softline, ']']));
    }
    expect(print(group(['中'.repeat(18), line, 'a']), { printWidth: 38 })).toBe(`${'中'.repeat(18)} a`);
    expect(print(group(['中'.repeat(19), line, 'a']), { printWidth: 38 })).toBe(`${'中'.repeat(19)}\na`);
    expect(print(group(['é'.repeat(36), line, 'a']), { printWidth: 38 })).toBe(`${'é'.repeat(36)} a`);
    expect(print(group(['e\u0301'.repeat(36), line, 'a']), { printWidth: 38 })).toBe(`${'e\u0301'.repeat(36)} a`);
  });

  test('stringWidth is prettier getStringWidth: every character of the Basic Multilingual Plane, alone and in company', () => {
    const prettierWidth = (createRequire(import.meta.url)('prettier') as { util: { getStringWidth: (s: string) => number } }).util.getStringWidth;
    const bad: string[] = [];
    for (let code = 0; code < 0x10000; code++) {
      const ch = String.fromCharCode(code);
      for (const text of [ch, `a${ch}b`, `\u007f${ch}`, `#${ch}`, `${ch}\uFE0F`, `1${ch}\u20E3`]) if (stringWidth(text) !== prettierWidth(text)) bad.push(`U+${code.toString(16)} in ${JSON.stringify(text)}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
    const random = Random.for('string-width', 1);
    const alphabet = ['a', ' ', '#', '1', '—', '…', 'é', '→', '中', '\u0301', '\uFE0F', '\u200D', '\u20E3', '👍', '🏽', '©', '™', '\t', '\u007f', '\u0085'];
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: random.int(0, 12) }, () => random.pick(alphabet)).join('');
      expect(stringWidth(text), JSON.stringify(text)).toBe(prettierWidth(text));
    }
  }, 60_000);

  test('tabs or spaces, widths 40, 80 and 120: a declaration file of every construct', () => {
    const id = Symbol('numbers');
    const doc = () => [
      '// header',
      hardline,
      join(hardline, [
        ['export const list = ', list(words(14)), ';'],
        ['const nested = ', object([['inner', object([['deep', list(words(6, 'd'))]])], ['flag', 'true']]), ';'],
        ['type Union =', group(indent([softline, group(words(9, 'Member').map((m, i) => [i === 0 ? ifBreak('| ') : [line, '| '], align(2, m)]))])), ';'],
        ['const numbers = ', group(['[', indent([softline, fill(Array.from({ length: 40 }, (_, i) => (i % 2 ? line : [String(i * 1001), i < 38 ? ',' : ifBreak(',', '', { groupId: id })])))]), softline, ']'], { id }), ';'],
        ['class A {', indent([hardline, 'method(', group([indent([softline, join([',', line], words(5, 'param'))]), softline]), ') {}']), hardline, '}'],
      ]),
      hardline,
    ];
    const outputs = acrossStyles(doc);
    expect(outputs[1]).toMatch(/\n\t/);
    expect(outputs[0]).not.toMatch(/\t/);
  });

  test('a document outside the subset goes to prettier, not printed differently', () => {
    const outside: Doc[] = [
      ['a', lineSuffix(' // comment'), group(['b', line, 'c']), hardline],
      label('member-chain', group(['a', line, 'b'])),
      ['a   ', trim, 'b'],
      ['a', cursor, 'b'],
      indent(['a', dedent(['b', hardline, 'c'])]),
      indent(markAsRoot(['a', indent([hardline, 'b', literalline, 'c'])])),
      indent(['a', hardline, dedentToRoot(['b', hardline, 'c'])]),
      [group(['x', line, 'y'], { id: Symbol.for('g') }), indentIfBreak(['a', hardline, 'b'], { groupId: Symbol.for('g') })],
    ];
    for (const doc of outside) {
      expect(() => printDocFast(cloneDoc(doc), GENERATED_STYLE)).toThrow(UnsupportedDocError);
      expect(printDoc(cloneDoc(doc))).toBe(prettierOf(doc, GENERATED_STYLE));
    }
    // Nesting deeper than the first pass can recurse: prettier's printer (which does not recurse) takes it.
    let deep: Doc = group(['a', line, 'b']);
    for (let i = 0; i < 50_000; i++) deep = i % 2 ? [deep, ''] : group([deep, softline]);
    expect(() => printDocFast(deep, GENERATED_STYLE)).toThrow(RangeError);
    expect(printDoc(deep)).toBe('a b');
    // Not a document at all: prettier's own error.
    expect(() => printDoc(['a', 42 as unknown as Doc])).toThrow(/Unexpected doc/);
  });
});

describe('every document of a full generation of spec/', () => {
  test('prints as prettier prints it, in the generated style and in two others (tabs of 4 at 80 columns; 40 columns)', async () => {
    const { ir } = await readSpec(path.resolve(import.meta.dirname, '../spec'));
    const others: CodeStyle[] = [
      { printWidth: 80, tabWidth: 4, useTabs: true },
      { printWidth: 40, tabWidth: 2, useTabs: false },
    ];
    const printed = new Map<string, number>();
    const mismatches: string[] = [];
    let emitter = '';
    const compare = (doc: Doc, style: CodeStyle, copyForUs: boolean): string => {
      const expected = prettierOf(doc, style);
      const actual = printDocFast(copyForUs ? cloneDoc(doc) : doc, style);
      if (actual !== expected) mismatches.push(`${emitter} ${JSON.stringify(style)}: ${firstDifference(actual, expected)}`);
      return actual;
    };
    const previous = setDocPrinter((doc, style) => {
      printed.set(emitter, (printed.get(emitter) ?? 0) + 1);
      for (const other of others) compare(doc, other, true);
      // Last, on the document itself: printing marks its broken groups.
      return compare(doc, style, false);
    });
    try {
      for (const e of await loadEmitters()) {
        emitter = e.name;
        await e.emit(ir);
      }
    } finally {
      setDocPrinter(previous);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    for (const name of ['clients', 'validators', 'packages', 'contract-tests', 'tools']) expect(printed.get(name), name).toBeGreaterThan(0);
    expect([...printed.values()].reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
  }, 180_000);
});

/** The line where two outputs first differ, both ways. */
function firstDifference(actual: string, expected: string): string {
  const a = actual.split('\n');
  const b = expected.split('\n');
  const i = a.findIndex((l, n) => l !== b[n]);
  const at = i === -1 ? Math.min(a.length, b.length) : i;
  return `line ${at + 1}: ours ${JSON.stringify(a[at])}, prettier ${JSON.stringify(b[at])}`;
}

describe('seeded random documents', () => {
  const STRINGS = ['', ' ', 'a', 'b ', 'word', 'longer_identifier', 'x'.repeat(30), 'y'.repeat(70), ', ', ';', '\t', 'tab\t', '—', 'é', '中文字', 'e\u0301', '👍', 'end  '];
  const ALIGNS: (number | string)[] = [0, 1, 2, 4, '', '  ', '> ', '\t'];

  /** Group ids in use, ids an ifBreak named before any group took them, and nodes to share again. */
  interface Context {
    ids: symbol[];
    future: symbol[];
    pool: Doc[];
  }

  /** A random document of the printer's subset, at most `depth` deep. */
  function randomDoc(random: Random, depth: number, context: Context): Doc {
    if (depth === 0 || random.chance(0.12)) {
      const leaf = random.int(0, 9);
      if (leaf < 5) return random.chance(0.3) ? random.token(random.int(1, 40), 'abcdefghij ') : random.pick(STRINGS);
      return [line, softline, hardline, literalline, breakParent][leaf - 5]!;
    }
    const child = () => randomDoc(random, depth - 1, context);
    const { ids, future, pool } = context;
    let doc: Doc;
    switch (random.int(0, 9)) {
      case 0:
      case 1:
        doc = Array.from({ length: random.int(0, 5) }, child);
        break;
      case 2:
      case 3: {
        // An id of its own, or one an ifBreak printed earlier names.
        const id = random.chance(0.3) ? (future.length && random.chance(0.5) ? future.pop()! : Symbol('g')) : undefined;
        doc = group(child(), { shouldBreak: random.chance(0.1), ...(id ? { id } : {}) });
        if (id) ids.push(id);
        break;
      }
      case 4:
        doc = conditionalGroup(Array.from({ length: random.int(1, 4) }, child), { shouldBreak: random.chance(0.1) });
        break;
      case 5:
        doc = indent(child());
        break;
      case 6:
        doc = align(random.pick(ALIGNS), child());
        break;
      case 7: {
        let groupId: symbol | undefined;
        if (random.chance(0.4)) {
          // A group printed before (or around), one printed later, or none at all.
          if (ids.length && random.chance(0.7)) groupId = random.pick(ids);
          else future.push((groupId = Symbol('later')));
        }
        doc = ifBreak(child(), random.chance(0.7) ? child() : '', groupId ? { groupId } : {});
        break;
      }
      case 8: {
        const parts: Doc[] = [];
        for (let n = random.int(0, 9), i = 0; i < n; i++) parts.push(i % 2 ? random.pick<Doc>([line, softline, hardline, [',', line]]) : child());
        doc = fill(parts);
        break;
      }
      default:
        doc = pool.length ? random.pick(pool) : child();
    }
    if (random.chance(0.2)) pool.push(doc);
    return doc;
  }

  test('2,500 documents at random widths and indentation print as prettier prints them', () => {
    const random = Random.for('doc-printer', 1);
    const mismatches: string[] = [];
    let lines = 0;
    for (let i = 0; i < 2500; i++) {
      const context: Context = { ids: [], future: [], pool: [] };
      const doc = Array.from({ length: random.int(1, 6) }, () => randomDoc(random, random.int(2, 7), context));
      const style: CodeStyle = { printWidth: random.pick([0, 8, 20, 30, 40, 60, 80, 120]), tabWidth: random.pick([1, 2, 4, 8]), useTabs: random.chance(0.3) };
      const expected = prettierOf(doc, style);
      const actual = printDocFast(doc, style);
      lines += expected.split("\n").length;
      if (actual !== expected) mismatches.push(`#${i} ${JSON.stringify(style)}: ${firstDifference(actual, expected)}`);
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The documents are not trivial: many lines in all.
    expect(lines).toBeGreaterThan(10_000);
  }, 120_000);
});
