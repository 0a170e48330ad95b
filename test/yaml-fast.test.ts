/**
 * The clean-path parser (generator/spec/yaml-fast.ts) against the `yaml` path (yaml-source.ts parseSource): for every
 * text, the fast path either declines — and the `yaml` path then gives today's data and diagnostics — or yields data
 * identical to what the `yaml` path gives (same keys in the same order, same numbers, NaN and -0 included), for a
 * file that the `yaml` path finds no syntax error or duplicate key in. Checked on every spec file, on seeded mutants
 * of the whole spec (the fuzz corpus's mutator, helpers/spec-mutants.ts) and on hand-written tricky cases. The block
 * reader (yaml-block.ts), which fastParse tries first, is checked alone on the same texts: it must take every file of
 * the real spec (the speed of a cold run rests on it) and decline or agree everywhere else.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { Random } from '../generator/emitters/fixtures/random.js';
import { blockParse } from '../generator/spec/yaml-block.js';
import { fastParse } from '../generator/spec/yaml-fast.js';
import { parseSource } from '../generator/spec/yaml-source.js';
import { mutants, type SpecFiles } from './helpers/spec-mutants.js';
import { realSpecDir } from './helpers/spec-copy.js';

/** How two values differ (first difference, with its path), or undefined when identical. */
function difference(a: unknown, b: unknown, at = '$'): string | undefined {
  if (typeof a !== typeof b) return `${at}: ${typeof a} vs ${typeof b}`;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return Object.is(a, b) ? undefined : `${at}: ${String(a)} vs ${String(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${at}: array vs not`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${at}: prototypes differ`;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.join('\0') !== kb.join('\0')) return `${at}: keys ${JSON.stringify(ka.map(String))} vs ${JSON.stringify(kb.map(String))}`;
  for (const k of ka) {
    const da = Object.getOwnPropertyDescriptor(a, k)!;
    const db = Object.getOwnPropertyDescriptor(b, k)!;
    if (da.enumerable !== db.enumerable) return `${at}.${String(k)}: enumerability differs`;
    const d = difference(da.value, db.value, `${at}.${String(k)}`);
    if (d) return d;
  }
  return undefined;
}

/** The `yaml` path's reading of a text; the last one is kept, as both fast paths are checked on each text in turn. */
let lastYamlPath: { text: string; parsed: ReturnType<typeof parseSource> } | undefined;
function yamlPath(text: string): ReturnType<typeof parseSource> {
  if (lastYamlPath?.text !== text) lastYamlPath = { text, parsed: parseSource('test.yaml', text) };
  return lastYamlPath.parsed;
}

/** Why a fast path (default: fastParse) disagrees with the `yaml` path on `text`, or undefined (also when it declines). */
function disagreement(text: string, parse: typeof fastParse = fastParse): string | undefined {
  const fast = parse(text);
  if (!fast) return undefined;
  const slow = yamlPath(text);
  if (slow.syntaxErrors.length) return `fast path accepted a syntax error: ${slow.syntaxErrors[0]!.message}`;
  if (slow.duplicates.length) return `fast path accepted a duplicate key '${slow.duplicates[0]!.key}'`;
  return difference(fast.data, slow.data);
}

/** Every spec file of spec/, by path inside it. */
function realSpec(): SpecFiles {
  const files: SpecFiles = new Map([['service.yaml', readFileSync(path.join(realSpecDir, 'service.yaml'))]]);
  for (const name of readdirSync(path.join(realSpecDir, 'connectors')).sort()) files.set(`connectors/${name}`, readFileSync(path.join(realSpecDir, 'connectors', name)));
  return files;
}

describe('the fast path reads the real spec as the yaml path does', () => {
  const spec = realSpec();
  test.each([...spec.keys()])('%s: taken, same data', (file) => {
    const text = spec.get(file)!.toString('utf8');
    expect(fastParse(text), 'declined a file of the real spec').toBeDefined();
    expect(disagreement(text)).toBeUndefined();
    expect(blockParse(text), 'the block reader declined a file of the real spec').toBeDefined();
    expect(disagreement(text, blockParse)).toBeUndefined();
  });
});

describe('seeded mutants of the whole spec: declined, or the same data', () => {
  const COUNT = Number(process.env.YAML_FUZZ_COUNT ?? 300);
  test(`${COUNT} mutants`, () => {
    const base = realSpec();
    const problems: string[] = [];
    let taken = 0;
    let declined = 0;
    let blockTaken = 0;
    for (const mutant of mutants(base, 16, COUNT)) {
      for (const [file, bytes] of mutant.files) {
        if (bytes === base.get(file)) continue;
        const text = bytes.toString('utf8');
        if (fastParse(text)) taken++;
        else declined++;
        if (blockParse(text)) blockTaken++;
        for (const [name, parse] of [['fast path', fastParse], ['block reader', blockParse]] as const) {
          const problem = disagreement(text, parse);
          if (problem) problems.push(`${name}, mutant ${mutant.index} (${mutant.edits.join('; ')}) ${file}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // Both outcomes are exercised: most mutants stay valid YAML, the text edits break some.
    expect(taken).toBeGreaterThan(COUNT / 2);
    expect(declined).toBeGreaterThan(10);
    expect(blockTaken).toBeGreaterThan(COUNT / 2);
  });
});

/** Raw spellings of plain scalars, written over values of the real spec: every number, null and boolean form. */
const SPELLINGS = ['0', '-0', '+1', '007', '0o17', '0o8', '0x1F', '0xg', '-0x1', '0b101', '1_000', '1.', '.5', '-.5e-3', '1e400', '1E3', '+.inf', '-.Inf', '.NAN', '.nan', '-.nan', '~', 'null', 'Null', 'NULL', 'nUll', 'true', 'True', 'TRUE', 'tRue', 'yes', 'No', 'on', '2001-12-14', '12:30', '1:30:00', "'1'", '"0x1F"', '"\\u00e9"', '<<', '!!str 1', '! 1', '&a 1', '*a', '|', '>-', '[1, 0x2, ~]', '{a: .5, b: +2}', 'a # c', 'x:y', '- 1', '%x', '@x', '"', "'"];

describe('scalar spellings written over values of the real spec: declined, or the same data', () => {
  const COUNT = Number(process.env.YAML_FUZZ_COUNT ?? 300);
  test(`${COUNT} edits`, () => {
    const spec = [...realSpec()].map(([file, bytes]) => [file, bytes.toString('utf8')] as const);
    const problems: string[] = [];
    let taken = 0;
    let blockTaken = 0;
    for (let index = 0; index < COUNT; index++) {
      const random = Random.for('yaml-fast', index);
      const [file, text] = random.pick(spec);
      const lines = text.split('\n');
      // 1–3 values (after `key: ` or `- `) rewritten in place.
      for (let k = random.int(1, 3); k > 0; k--) {
        const i = random.int(0, lines.length - 1);
        lines[i] = lines[i]!.replace(/^(\s*(?:- )?(?:[\w.-]+: |- ))(.*)$/, (_all, head: string) => head + random.pick(SPELLINGS));
      }
      const mutated = lines.join('\n');
      if (fastParse(mutated)) taken++;
      if (blockParse(mutated)) blockTaken++;
      for (const [name, parse] of [['fast path', fastParse], ['block reader', blockParse]] as const) {
        const problem = disagreement(mutated, parse);
        if (problem) problems.push(`${name}, edit ${index} of ${file}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
    expect(taken).toBeGreaterThan(COUNT / 4);
    expect(blockTaken).toBeGreaterThan(COUNT / 4);
  });
});

/**
 * [what, YAML text, what the fast path does]: read identically when taken; declined where it cannot be sure (or the
 * yaml path reports a problem). The expected outcome is pinned so that a case meant to exercise the fast path cannot
 * pass by being declined.
 */
const TRICKY: [string, string, 'taken' | 'declined'][] = [
  ['integers', 'a: 0\nb: -0\nc: +12\nd: 007\ne: 0o17\nf: 0x1F\ng: 0xff\nh: -0x1F\ni: +0o17\nj: 99999999999999999999\nk: 123456789012345678901234567890\n', 'taken'],
  ['an integer too long for a double', `a: ${'9'.repeat(400)}\n`, 'taken'],
  ['YAML 1.1 integers are strings', 'a: 0b101\nb: 1_000\nc: 0755\nd: 1:30\ne: 0o18\nf: 0xG\ng: +0b1\n', 'taken'],
  ['floats', 'a: 1.5\nb: .5\nc: 1.\nd: -1.5e3\ne: 1e3\nf: 1E-3\ng: +.5e+2\nh: 1e400\ni: -1e400\nj: 0.0\nk: -0.0\nl: 6.02e23\n', 'taken'],
  ['infinities and NaN', 'a: .inf\nb: -.Inf\nc: +.INF\nd: .nan\ne: .NaN\nf: .NAN\ng: -.nan\nh: .Nan\ni: inf\nj: nan\n', 'taken'],
  ['nulls', 'a: ~\nb: null\nc: Null\nd: NULL\ne: nULL\nf:\ng: ""\nh: "~"\ni: [~, null, ]\n', 'taken'],
  ['booleans', 'a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\ng: tRUE\nh: yes\ni: no\nj: on\nk: off\nl: y\nm: n\n', 'taken'],
  ['dates and times are strings', 'a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10 -5\nd: 12:30:00\n', 'taken'],
  ['quoted scalars stay strings', `a: "1"\nb: '0x1F'\nc: "true"\nd: 'null'\ne: "~"\nf: ".inf"\ng: "a\\tb\\u00e9\\x41\\N\\_"\nh: 'it''s'\ni: "multi\n  line"\n`, 'taken'],
  ['plain multi-line scalars', 'a: one\n  two\n\n  three\nb: 1\n  2\n', 'taken'],
  ['block scalars', 'a: |\n  x\n  y\n\nb: |-\n  x\n\nc: |+\n  x\n\n\nd: >\n  folded\n  text\n\n  para\ne: >-\n  x\n  y\nf: |2\n    indented\ng: >+\n  k\n\n', 'taken'],
  ['block scalar at the end without a newline', 'a: |+\n  x', 'taken'],
  ['merge key with an inline map', 'a:\n  <<: {x: 1, y: 2}\n  y: 3\nb:\n  z: 0\n  <<: [{z: 1, w: 2}, {w: 3, v: 4}]\n', 'taken'],
  ['merge key after explicit keys', 'a:\n  x: 1\n  <<: {x: 2, y: 2}\n  z: 3\n', 'taken'],
  ['two merge keys in one map', 'a:\n  <<: {x: 1}\n  <<: {y: 2}\n', 'declined'],
  ['a merge key whose value is not a map', 'a:\n  <<: 1\n', 'declined'],
  ['a quoted merge key is a plain key', 'a:\n  "<<": {x: 1}\n', 'taken'],
  ['merge through an alias', 'base: &b {x: 1, y: 2}\na:\n  <<: *b\n  y: 3\n', 'declined'],
  ['anchors and aliases', 'a: &x [1, 2]\nb: *x\n', 'declined'],
  ['an anchor without an alias', 'a: &x 1\nb: 2\n', 'declined'],
  ['an alias bomb', `a: &a ["x","x"]\nb: &b [*a,*a]\nc: &c [*b,*b]\nd: &d [*c,*c]\ne: &e [*d,*d]\nf: &f [*e,*e]\ng: &g [*f,*f]\nh: &h [*g,*g]\ni: &i [*h,*h]\nj: &j [*i,*i]\nk: &k [*j,*j]\nl: [*k,*k]\n`, 'declined'],
  ['scalar tags that keep a value as written', 'a: !!str 1\nb: !!str true\nh: ! 12\nk: !!str\nl: ! "x"\n', 'taken'],
  ['collection tags', 'f: !!map {x: 1}\ng: !!seq [1]\ni: ! [1]\nj: ! {x: 1}\n', 'declined'],
  ['tags that convert', 'b: !!int "1"\nc: !!float 1\nd: !!bool true\ne: !!null ""\n', 'declined'],
  ['a tag on an empty value', 'a: !!map\nb: !!seq\n', 'declined'],
  ['YAML 1.1 tags', 'a: !!binary aGVsbG8=\nb: !!timestamp 2001-12-14\nc: !!set {x, y}\nd: !!omap [{x: 1}]\ne: !!pairs [{x: 1}]\n', 'declined'],
  ['a local tag', 'a: !thing 1\n', 'declined'],
  ['a verbatim tag', 'a: !<tag:yaml.org,2002:str> 1\n', 'declined'],
  ['a %YAML 1.1 directive', '%YAML 1.1\n---\na: yes\nb: 0b101\n', 'declined'],
  ['a %TAG directive', '%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n', 'declined'],
  ['tabs', 'a:\tx\nb: "\ttab"\nc: |\n  \tx\nd:\n\t- 1\n', 'declined'],
  ['a tab before a value', 'a: \t1\nb:\t2\n', 'taken'],
  ['a BOM', '\ufeffa: 1\n', 'taken'],
  ['CRLF line ends', 'a: 1\r\nb: |\r\n  x\r\n  y\r\nc: "p\r\n  q"\r\n', 'taken'],
  ['duplicate keys', 'a: 1\na: 2\n', 'declined'],
  ['duplicate keys of different spellings', '1: a\n"1": b\n', 'declined'],
  ['duplicate keys nested', 'a:\n  b: 1\n  c: 2\n  b: 3\n', 'declined'],
  ['keys of every scalar type', '1: a\n0x10: b\ntrue: c\n1.5: d\n.inf: e\n.nan: f\n-0: g\n"x": h\n', 'taken'],
  ['a null key', '~: a\n', 'declined'],
  ['an empty key', ': a\n', 'declined'],
  ['a collection key', '? [a, b]\n: c\n', 'declined'],
  ['reserved keys', '__proto__: 1\nconstructor: 2\ntoString: 3\nhasOwnProperty: 4\n', 'taken'],
  ['a __proto__ map', '__proto__:\n  polluted: true\n', 'taken'],
  ['NUL byte escaped', 'a: "\\0x"\n', 'taken'],
  ['a raw NUL byte', 'a: b\u0000c\n', 'declined'],
  ['an escape js-yaml may not know', 'a: "\\/\\e\\a\\v\\L\\P"\n', 'taken'],
  ['an invalid escape', 'a: "\\q"\n', 'declined'],
  ['empty text', '', 'declined'],
  ['only a comment', '# nothing\n', 'declined'],
  ['a bare scalar', 'hello\n', 'taken'],
  ['two documents', 'a: 1\n---\nb: 2\n', 'declined'],
  ['an explicit document', '---\na: 1\n...\n', 'taken'],
  ['flow collections', 'a: {x: 1, y: [2, 3], "z": {}}\nb: [a, b, {c: d}, [e]]\nc: {x: }\nd: [a, ]\n', 'taken'],
  ['flow with a trailing plain key', 'a: {x, y: 1}\n', 'taken'],
  ['a comment without space', 'a: 1#not a comment\nb: 2 # a comment\n', 'taken'],
  ['indentation errors', 'a:\n  b: 1\n c: 2\n', 'declined'],
  ['a key without a value in a sequence', '- a\n- b: \n- : c\n', 'declined'],
  ['deep nesting', `${'['.repeat(120)}${']'.repeat(120)}\n`, 'declined'],
  ['a long implicit key', `${'k'.repeat(1100)}: 1\n`, 'declined'],
  ['unicode', 'a: ünïcødé 😀\nb: "\\u2028\\u2029"\nc: "\\U0001F600"\n', 'taken'],
  ['a line separator in plain text', 'a: x\u2028y\n', 'taken'],
  ['strings that look like numbers', 'a: 1.2.3\nb: 1e\nc: 0x\nd: -\ne: +\nf: .\ng: 1,000\nh: 12abc\ni: - 1\n', 'declined'],
  ['special plain characters', 'a: x:y\nb: x #y\nc: @x\nd: `x\n', 'declined'],
  ['reserved indicators', 'a: %x\n', 'declined'],
  ['an unterminated quote', 'a: "x\n', 'declined'],
  ['a non-breaking space', 'a:\u00a01\n', 'taken'],
  ['merge key as a value and in a sequence', 'a: <<\nb: [<<, x]\n', 'declined'],
  ['a merge key at the top', '<<: {x: 1}\ny: 2\n', 'taken'],
  ['nested merges', 'a:\n  <<: {x: {<<: {p: 1}, q: 2}}\n  y: 3\n', 'taken'],
  ['a directives-end marker with a block collection', '--- a: 1\n', 'declined'],
  ['a directives-end marker with a scalar', '--- text\n', 'taken'],
  ['a comment right after a quote', 'a: "x"#c\n', 'declined'],
  ['a tag not followed by a space', 'a: !!str[1]\n', 'declined'],
  ['an anchor not followed by a space', 'a: &x[1]\n', 'declined'],
  ['two anchors', 'a: &x &y 1\n', 'declined'],
  ['two tags', 'a: !!str !!str 1\n', 'declined'],
  ['an anchor ending in a colon', 'a: &x: 1\n', 'declined'],
  ['a compact nested mapping', '- a: b: c\n', 'declined'],
  ['a mapping value on the key line', 'a: b: c\n', 'declined'],
  ['sequence items at different columns', 'a:\n  - 1\n   - 2\n', 'taken'],
  ['a multi-line implicit key in flow', 'a: [ "x\n y": 1 ]\n', 'declined'],
  ['a multi-line flow map key', 'a: { "x\n y": 1 }\n', 'taken'],
  ['a flow map less indented than its key', 'a:\n  b: {\nx: 1}\n', 'declined'],
  ['a flow sequence over lines', 'a: [1,\n  2,\n  3]\n', 'taken'],
  ['tabs as indentation', 'a:\n\tb: 1\n', 'declined'],
  ['a tab after a sequence dash', '-\t1\n-\t2\n', 'taken'],
  ['an explicit key', '? a\n: b\n? c\n', 'taken'],
  ['a document end then content', 'a: 1\n...\nb: 2\n', 'declined'],
  ['a comment between key and value', 'a: # c\n  1\n', 'taken'],
  ['a block scalar with an indentation indicator and comments', 'a: |1 # c\n  x\nb: >2-\n   y\n', 'taken'],
  ['a block scalar with leading blank lines', 'a: |\n\n  x\n', 'taken'],
  ['a block scalar less indented than the first line', 'a: |\n    x\n  y\n', 'declined'],
  ['a lone carriage return', 'a: 1\rb: 2\n', 'declined'],
  ['a carriage return inside a quote', 'a: "x\ry"\n', 'declined'],
  ['form feed and vertical tab', 'a: "x\fy"\nb: x\vy\n', 'declined'],
  ['a key line over 1024 characters', `${'a'.repeat(1020)}: ${'b'.repeat(20)}\n`, 'declined'],
  ['a value line over 1024 characters', `a: ${'b'.repeat(2000)}\n`, 'declined'],
  ['trailing spaces and a missing final newline', 'a: 1   \nb: x  ', 'taken'],
  ['windows-style value with spaces', 'a:   spaced   \nb: "  padded  "\n', 'taken'],
];

describe('tricky YAML: declined, or the same data', () => {
  test.each(TRICKY)('%s', (_what, text, outcome) => {
    expect(disagreement(text)).toBeUndefined();
    expect(fastParse(text) ? 'taken' : 'declined').toBe(outcome);
    expect(disagreement(text, blockParse)).toBeUndefined();
  });
});

/** [what, YAML text, what the block reader does], as TRICKY: the shapes spec files are written in, and their edges. */
const BLOCK: [string, string, 'taken' | 'declined'][] = [
  ['nested maps and sequences', 'a:\n  b:\n    c: 1\n  d: [x, y]\ne:\n  - 1\n  - two\n  -\n    f: g\n', 'taken'],
  ['a sequence at its key\'s column', 'a:\n- 1\n- 2\nb: 3\n', 'taken'],
  ['compact maps in a sequence', 'a:\n  - name: x\n    type: string\n  - name: y\n    nested:\n      - 1\n    after: z\n', 'taken'],
  ['an empty entry and empty values', 'a:\nb:\n  -\n  - x\nc: ""\n', 'taken'],
  ['comments everywhere', '# top\na: 1 # after\n# between\nb:\n  # before a nested key\n  c: 2\n\n# last\n', 'taken'],
  ['literal blocks and chomping', 'a: |\n  x\n\n  y\nb: |-\n  x\nc: |+\n  x\n\nd: 1\n', 'taken'],
  ['folded blocks with paragraphs', 'a: >-\n  one\n  two\n\n  three\n\n\n  four\nb: >\n  x\n', 'taken'],
  ['a block scalar whose text looks like YAML', 'a: |\n  b: c\n  - d\n  # e\n  "f"\n', 'taken'],
  ['a block scalar followed by a less indented comment', 'a: >-\n    x\n  # c\nb: 1\n', 'taken'],
  ['trailing spaces inside a literal block', 'a: |\n  x  \n  y\n', 'taken'],
  ['a block scalar in a sequence', '- |\n  x\n- >-\n  y\n  z\n', 'taken'],
  ['a block scalar at the end without a line break', 'a: |\n  x', 'declined'],
  ['a more-indented folded line', 'a: >\n  x\n    y\n  z\n', 'declined'],
  ['a blank line of spaces inside a block', 'a: |\n  x\n     \n  y\n', 'declined'],
  ['escapes', 'a: "\\t\\n\\\\\\"\\u00e9\\x41\\U0001F600\\0\\e\\N\\_\\L\\P\\/ "\nb: \'it\'\'s\'\n', 'taken'],
  ['a lone surrogate escape', 'a: "\\ud800"\n', 'declined'],
  ['quoted keys', '"a b": 1\n\'c\': 2\n"": 3\n', 'taken'],
  ['flow collections', 'a: {x: 1, y: [2, 3], "z": {}, w: }\nb: [a b, "c", [d], {e: f}, ]\nc: []\nd: {}\n', 'taken'],
  ['a flow plain scalar with a colon', 'a: [x:y]\n', 'declined'],
  ['a flow map key without a value', 'a: {x, y: 1}\n', 'declined'],
  ['a plain value with a colon and no space', 'a: http://example.com/x:y\nb: 12:30\n', 'taken'],
  ['a plain value with a hash and no space', 'a: x#y\nb: "#z"\n', 'taken'],
  ['a no-break space at the end of a plain value', 'a: x\u00a0\n', 'taken'],
  ['multi-line plain scalars', 'a: one\n  two\n\n\n  three  \nb:\n  - x\n    y\n  - -z\n    - w\n', 'taken'],
  ['a multi-line plain scalar after a comment', 'a: one # c\n  two\n', 'declined'],
  ['a multi-line plain scalar with a colon', 'a: one\n  two: three\n', 'declined'],
  ['multi-line quoted scalars', 'a: "one  \n  two\n\n  three \\\n    four\\ \n  five"\nb: \'x  \n\n   y\'\'s\'\n', 'taken'],
  ['a multi-line quoted scalar not indented enough', 'a: "one\ntwo"\n', 'declined'],
  ['an escaped line break before an empty line', 'a: "one\\\n\n  two"\n', 'declined'],
  ['a quoted scalar that never closes', 'a: "one\n  two\n', 'declined'],
  ['flow collections over lines', 'a:\n  [\n    x,\n    "y, ]",\n    { k: v },\n  ]\nb: { c: 1,\n  d: [2] }\n', 'taken'],
  ['a flow collection over lines with an empty line', 'a: [x,\n\n  y]\n', 'declined'],
  ['a flow collection over lines not indented enough', 'a: [x,\ny]\n', 'declined'],
  ['a flow collection that never closes', 'a: [x,\n  y\n', 'declined'],
  ['a comment inside a flow collection over lines', 'a: [x, # c\n  y]\n', 'declined'],
  ['a more-indented comment after a value', 'a: 1\n  # c\nb: 2\n', 'declined'],
  ['values on the line after their key', 'a:\n  1\nb:\n  "two"\nc: # c\n  three\n  four\n', 'taken'],
  ['a block scalar header on the line after its key', 'a:\n  |\n    x\n', 'declined'],
  ['a mapping indented past its siblings', 'a:\n  b: 1\n    c: 2\n', 'declined'],
  ['a space before the colon', 'a : 1\n', 'declined'],
  ['a sequence entry on a key line', 'a: - 1\n', 'declined'],
  ['a nested compact sequence', '- - 1\n', 'declined'],
  ['an indented document', '  a: 1\n', 'declined'],
  ['a top-level sequence', '- a\n- b: c\n  d: e\n', 'taken'],
  ['numbers, booleans and nulls as values and keys', 'a: 0x1F\nb: -.5e-3\nc: .NaN\nd: ~\ne: True\n1: x\n0o7: y\nfalse: z\n', 'taken'],
  ['duplicate keys of different spellings', '1: a\n0x1: b\n', 'declined'],
  ['a duplicate key in a flow map', 'a: {x: 1, x: 2}\n', 'declined'],
  ['inherited names as keys', '__proto__: 1\nconstructor:\n  toString: 2\nvalueOf: [3]\n', 'taken'],
  ['a duplicate inherited name', 'toString: 1\ntoString: 2\n', 'declined'],
  ['CRLF line ends', 'a: 1\r\nb: |\r\n  x\r\n  y\r\nc: [1, 2]\r\n', 'taken'],
];

/** The real spec as YAML tools write it back: `yaml` re-serializing each file at several widths and string styles. */
function rewrittenSpec(): [string, string][] {
  const out: [string, string][] = [];
  const styles: { lineWidth: number; defaultStringType?: 'QUOTE_DOUBLE' | 'QUOTE_SINGLE' | 'BLOCK_FOLDED'; flowCollectionPadding?: boolean }[] = [
    { lineWidth: 80 },
    { lineWidth: 40 },
    { lineWidth: 120, defaultStringType: 'QUOTE_DOUBLE' },
    { lineWidth: 50, defaultStringType: 'QUOTE_SINGLE', flowCollectionPadding: false },
    { lineWidth: 60, defaultStringType: 'BLOCK_FOLDED' },
  ];
  for (const [file, bytes] of realSpec()) {
    const doc = parseDocument(bytes.toString('utf8'));
    for (const style of styles) out.push([`${file} ${JSON.stringify(style)}`, doc.toString(style)]);
  }
  return out;
}

describe('the real spec as YAML tools write it: the block reader takes it, with the same data', () => {
  test.each(rewrittenSpec())('%s', (_what, text) => {
    expect(blockParse(text), 'declined').toBeDefined();
    expect(disagreement(text, blockParse)).toBeUndefined();
  });
});

describe('the block reader on its own shapes: declined, or the same data', () => {
  test.each(BLOCK)('%s', (_what, text, outcome) => {
    expect(disagreement(text, blockParse)).toBeUndefined();
    expect(blockParse(text) ? 'taken' : 'declined').toBe(outcome);
    // What the block reader declines, fastParse's js-yaml path may still take: either way the data is yaml's.
    expect(disagreement(text)).toBeUndefined();
  });
});
