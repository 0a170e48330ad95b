/**
 * The fastest path of parsing: a reader of the block-style YAML spec files are written in — block mappings and
 * sequences (compact `- key: value` included), plain and quoted scalars (folded over lines too, as YAML tools write
 * long ones), `|` and `>` block scalars, one-line flow collections, comments. It reads a spec file ~10× faster than js-yaml (yaml-fast.ts), which is the parse's
 * largest cost at many connectors.
 *
 * It never guesses: whatever it is not sure `yaml` reads the same way — anchors, aliases, tags, merge keys, explicit keys, documents markers, directives, tabs, control characters, an indentation
 * indicator, more-indented lines of a folded scalar, duplicate keys — makes it decline (undefined), and the next path
 * (yaml-fast.ts, then `yaml` itself, whose positions and diagnostics stay the only ones users see) reads the file.
 * Plain scalars resolve as `yaml`'s core schema resolves them (yaml-core-scalars.ts); keys as yaml's toJS keys them.
 */
import { corePlain } from './yaml-core-scalars.js';

/** Thrown inside the reader to decline; caught by blockParse. */
const DECLINED = new Error('declined');

/** Characters the reader declines anywhere: tabs, control characters but LF and CR, NEL, line/paragraph separators, BOM. */
const UNSUPPORTED = /[\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0085\u2028\u2029\ufeff]/;
/** Document markers and directives at the start of a line. */
const DOCUMENT_SYNTAX = /^(?:---|\.\.\.)(?:[ \r\n]|$)|^%/m;
/** First characters of a block value that the reader does not read as a plain scalar (anchors, tags, reserved…). */
const NOT_PLAIN_START = new Set(['&', '*', '!', '%', '@', '`', '?', ':', ',', ']', '}', '#', '"', "'", '[', '{', '|', '>']);
/** First characters of a value that is never a compact mapping's key: a comment, a flow collection, a block scalar. */
const COLLECTION_OR_BLOCK_START = new Set(['#', '[', '{', '|', '>']);
/** Characters that end a plain scalar inside a flow collection. */
const FLOW_END = new Set([',', '[', ']', '{', '}']);
/** Deeper nesting is declined (js-yaml and yaml have limits of their own). */
const MAX_DEPTH = 64;
/** What a double-quoted escape stands for (the hex escapes aside). */
const ESCAPES: Record<string, string> = {
  '0': '\u0000',
  a: '\u0007',
  b: '\b',
  t: '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\u001b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/** The data of `text` when it is in the block subset and reads cleanly, else undefined (the caller reads it otherwise). */
export function blockParse(text: string): { data: unknown } | undefined {
  const crlf = text.includes('\r');
  if (UNSUPPORTED.test(text) || DOCUMENT_SYNTAX.test(text) || (crlf && /\r(?!\n)/.test(text))) return undefined; // a lone CR too
  const lines = text.split('\n');
  if (crlf) for (let i = 0; i < lines.length; i++) if (lines[i]!.endsWith('\r')) lines[i] = lines[i]!.slice(0, -1);
  const endsWithNewline = lines.at(-1) === '';
  if (endsWithNewline) lines.pop(); // each line left is a line of the file
  try {
    const reader = new BlockReader(lines, endsWithNewline);
    const data = reader.document();
    return { data };
  } catch (error) {
    if (error === DECLINED) return undefined;
    throw error;
  }
}

const decline = (): never => {
  throw DECLINED;
};

/** Index of the first character at or after `from` that is not a space. */
function skipSpaces(line: string, from: number): number {
  while (from < line.length && line.charCodeAt(from) === 32) from++;
  return from;
}

/** The text with trailing spaces cut (only spaces: a no-break space at the end is content). */
function trimSpaces(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** Whether `line` holds a sequence entry (`-` then a space or the end) at column `col`. */
function isEntry(line: string, col: number): boolean {
  return line.charCodeAt(col) === 45 && (col + 1 === line.length || line.charCodeAt(col + 1) === 32);
}

/** The names an object inherits (`__proto__`, `toString`…): keys of those names are defined, not assigned. */
const INHERITED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Sets a key of a map as yaml's toJS does (an own property even for `__proto__`); a duplicate declines. */
function setKey(map: Record<string, unknown>, key: string, value: unknown): void {
  if (INHERITED.has(key)) {
    if (Object.prototype.hasOwnProperty.call(map, key)) decline();
    Object.defineProperty(map, key, { value, writable: true, enumerable: true, configurable: true });
  } else if (map[key] !== undefined) decline(); // no value is undefined: a key set before
  else map[key] = value;
}

/**
 * Where the flow collection being scanned closes: the column after its last bracket in `text`, scanning from column
 * `from` with the brackets and quote still open before it (`open`, updated), or -1 when the text ends first.
 */
function flowEnd(text: string, from: number, open: { depth: number; quote: string }): number {
  for (let k = from; k < text.length; k++) {
    const c = text[k]!;
    if (open.quote) {
      if (c === '\\' && open.quote === '"') k++;
      else if (c === open.quote) open.quote = text[k + 1] === "'" && c === "'" ? (k++, "'") : '';
    } else if (c === '"' || c === "'") open.quote = c;
    else if (c === '[' || c === '{') open.depth++;
    else if ((c === ']' || c === '}') && --open.depth === 0) return k + 1;
  }
  return -1;
}

/** Whether a line's text can be (part of) a plain scalar in block context: no `: ` inside, no `:` at the end. */
function isPlainText(text: string): boolean {
  return !text.endsWith(':') && !text.includes(': ');
}

/** A plain key as yaml's toJS keys it: String of its core-schema value; null keys and merge keys decline. */
function plainKey(raw: string): string {
  if (raw === '' || raw === '<<' || raw.length > 1024) decline();
  const value = corePlain(raw);
  return value === null ? decline() : String(value);
}

/** Reads the lines of one file; every method either reads its node or declines. */
class BlockReader {
  /** Index of the current line. */
  private i = 0;
  private depth = 0;

  constructor(
    private readonly lines: readonly string[],
    private readonly endsWithNewline: boolean,
  ) {}

  /** The whole file: one block mapping or sequence at column 0, nothing after it. */
  document(): unknown {
    const indent = this.nextContent();
    if (indent !== 0) decline();
    const line = this.lines[this.i]!;
    const data = isEntry(line, 0) ? this.sequence(0) : this.keyEnd(line, 0) >= 0 ? this.mapping(0) : decline();
    if (this.nextContent() !== -1) decline();
    return data;
  }

  /** Moves to the next line that is neither blank nor a comment; its indentation, or -1 at the end. */
  private nextContent(): number {
    for (; this.i < this.lines.length; this.i++) {
      const line = this.lines[this.i]!;
      const at = skipSpaces(line, 0);
      if (at < line.length && line.charCodeAt(at) !== 35) return at;
    }
    return -1;
  }

  /** The node on the lines after a key or a `-` with nothing after it: a nested collection, else null. */
  private nested(indent: number, sequenceAtIndent: boolean): unknown {
    const at = this.nextContent();
    if (at < 0 || at < indent || (at === indent && !sequenceAtIndent)) return null;
    const line = this.lines[this.i]!;
    if (isEntry(line, at)) return this.sequence(at);
    if (at === indent) return null; // the parent's next key
    const c = line[at]!;
    if (c === '|' || c === '>') decline(); // a block scalar's header on a line of its own
    if (c !== '[' && c !== '{' && this.keyEnd(line, at) >= 0) return this.mapping(at);
    return this.value(line, at, indent, false); // a scalar or a flow collection on a line of its own
  }

  /** A block mapping whose first key starts at column `col` of the current line (after a `- `, or its indentation). */
  private mapping(col: number): Record<string, unknown> {
    if (++this.depth > MAX_DEPTH) decline();
    const map: Record<string, unknown> = {};
    for (let first = true; ; first = false) {
      if (!first) {
        const at = this.nextContent();
        if (at < col) break;
        if (at > col) decline();
      }
      const line = this.lines[this.i]!;
      if (isEntry(line, col)) decline();
      const end = this.keyEnd(line, col);
      if (end < 0) decline();
      const key = line.charCodeAt(col) === 34 || line.charCodeAt(col) === 39 ? this.quoted(line, col)[0] : plainKey(line.slice(col, end));
      setKey(map, key, this.value(line, end + 1, col, true));
    }
    this.depth--;
    return map;
  }

  /** A block sequence whose entries start at column `col`. */
  private sequence(col: number): unknown[] {
    if (++this.depth > MAX_DEPTH) decline();
    const items: unknown[] = [];
    for (let first = true; ; first = false) {
      if (!first) {
        const at = this.nextContent();
        if (at < col || (at === col && !isEntry(this.lines[this.i]!, col))) break;
        if (at > col) decline();
      }
      const line = this.lines[this.i]!;
      const at = skipSpaces(line, col + 1);
      if (isEntry(line, at)) decline(); // `- - x`
      items.push(at < line.length && !COLLECTION_OR_BLOCK_START.has(line[at]!) && this.keyEnd(line, at) >= 0 ? this.mapping(at) : this.value(line, col + 1, col, false));
    }
    this.depth--;
    return items;
  }

  /**
   * The column of the `:` that ends a key starting at `col` (a plain key, or a quoted one on one line), or -1 when the
   * text there is no key (a scalar).
   */
  private keyEnd(line: string, col: number): number {
    const c = line.charCodeAt(col);
    if (c === 34 || c === 39) {
      const end = this.quoted(line, col)[1];
      return line.charCodeAt(end) === 58 && (end + 1 === line.length || line.charCodeAt(end + 1) === 32) ? end : -1;
    }
    let colon = line.indexOf(':', col);
    while (colon >= 0 && colon + 1 < line.length && line.charCodeAt(colon + 1) !== 32) colon = line.indexOf(':', colon + 1);
    if (colon < 0) return -1;
    if (NOT_PLAIN_START.has(line[col]!) || (c === 45 && isEntry(line, col))) decline(); // `? key`, `&a key`, `"` …
    if (line.charCodeAt(colon - 1) === 32 || line.lastIndexOf(' #', colon) >= col) decline(); // `a : b`, `a #c: d`
    return colon;
  }

  /**
   * The value after a key's `:` (or a `- `) at column `from` of the current line, which it leaves: on this line, or
   * the nested collection below. `indent` is the column of the collection it belongs to.
   */
  private value(line: string, from: number, indent: number, inMapping: boolean): unknown {
    const at = skipSpaces(line, from);
    if (at === line.length || line.charCodeAt(at) === 35) {
      this.i++;
      return this.nested(indent, inMapping);
    }
    const c = line[at]!;
    if (c === '|' || c === '>') return this.blockScalar(line, at, indent);
    if (c !== '"' && c !== "'" && c !== '[' && c !== '{') return this.plain(line, at, indent);
    const [value, closing, end] = c === '[' || c === '{' ? this.flowValue(line, at, indent) : this.quotedValue(line, at, indent);
    const rest = skipSpaces(closing, end);
    if (rest < closing.length && !(closing.charCodeAt(rest) === 35 && rest > end)) decline(); // only a comment may follow
    this.i++;
    this.noContinuation(indent);
    return value;
  }

  /**
   * A plain scalar from column `at` of the current line, with the lines after it indented past `indent`, which continue
   * it: folded as YAML folds them (a line break is a space, n empty lines are n line feeds). A multi-line one is text.
   */
  private plain(line: string, at: number, indent: number): unknown {
    if (NOT_PLAIN_START.has(line[at]!) || isEntry(line, at)) decline();
    const hash = line.indexOf(' #', at);
    const first = trimSpaces(hash < 0 ? line.slice(at) : line.slice(at, hash));
    if (first === '<<' || !isPlainText(first)) decline();
    let text = first;
    let empties = 0;
    for (let k = ++this.i; k < this.lines.length; k++) {
      const l = this.lines[k]!;
      const lead = skipSpaces(l, 0);
      if (lead === l.length) {
        empties++;
        continue;
      }
      if (lead <= indent) break;
      const content = trimSpaces(l.slice(lead));
      // A comment ends a plain scalar: a line after it would be an error.
      if (hash >= 0 || content.charCodeAt(0) === 35 || content.includes(' #') || !isPlainText(content)) decline();
      text += empties ? '\n'.repeat(empties) : ' ';
      text += content;
      empties = 0;
      this.i = k + 1;
    }
    return text === first ? corePlain(first) : text;
  }

  /** Declines when the lines after a one-line value go on with it (a multi-line plain scalar, a stray indented line). */
  private noContinuation(indent: number): void {
    for (let k = this.i; k < this.lines.length; k++) {
      const line = this.lines[k]!;
      const at = skipSpaces(line, 0);
      if (at === line.length) continue;
      if (at > indent) decline();
      return;
    }
  }

  /** A `|` or `>` block scalar whose header is at column `at`; the current line moves past its content. */
  private blockScalar(line: string, at: number, indent: number): string {
    const literal = line[at] === '|';
    const chomp = line[at + 1] === '-' || line[at + 1] === '+' ? line[at + 1]! : '';
    const header = at + 1 + chomp.length;
    const rest = skipSpaces(line, header);
    if (rest < line.length && !(line.charCodeAt(rest) === 35 && rest > header)) decline(); // an indentation indicator, or text
    const { lines } = this;
    const first = this.i + 1;
    if (first >= lines.length || skipSpaces(lines[first]!, 0) === lines[first]!.length) decline(); // empty, or leading blank lines
    const contentIndent = skipSpaces(lines[first]!, 0);
    if (contentIndent <= indent) decline();
    let hasText = false;
    let emptyRun = 0;
    let k = first;
    let value = '';
    for (; k < lines.length; k++) {
      const l = lines[k]!;
      const lead = skipSpaces(l, 0);
      if (lead === l.length) {
        if (l.length > contentIndent) decline(); // spaces beyond the indentation: content that yaml may read otherwise
        emptyRun++;
        continue;
      }
      if (lead < contentIndent) break;
      const text = l.slice(contentIndent);
      if (!literal && text.charCodeAt(0) === 32) decline(); // a more-indented line of a folded scalar
      if (hasText) value += literal ? '\n'.repeat(emptyRun + 1) : emptyRun ? '\n'.repeat(emptyRun) : ' ';
      value += text;
      hasText = true;
      emptyRun = 0;
    }
    if (k === lines.length && !this.endsWithNewline) decline(); // no line break after the last line
    this.i = k;
    if (chomp === '-') return value;
    return chomp === '+' ? value + '\n'.repeat(emptyRun + 1) : `${value}\n`;
  }

  /** A quoted scalar starting at column `at`, closed on the same line (a key, or inside a flow): its value and the column after it. */
  private quoted(line: string, at: number): [string, number] {
    const { text, end } = this.segment(line, at + 1, line[at]!);
    return end < 0 ? decline() : [text, end];
  }

  /**
   * A quoted value starting at column `at` of the current line, over as many lines as it takes: the lines fold as YAML
   * folds a flow scalar (a line break is a space, n empty lines are n line feeds, the white space around a break is
   * dropped, an escaped break joins the lines as they are). Its value and the column after it; the current line is then
   * the one it closes on, whose continuation lines are indented past `indent`.
   */
  private quotedValue(line: string, at: number, indent: number): [string, string, number] {
    const quote = line[at]!;
    let { text, end, escapedBreak } = this.segment(line, at + 1, quote);
    let value = text;
    while (end < 0) {
      let empties = 0;
      let k = this.i + 1;
      let lead = 0;
      for (; ; k++) {
        if (k >= this.lines.length) decline();
        lead = skipSpaces(this.lines[k]!, 0);
        if (lead < this.lines[k]!.length) break;
        empties++;
      }
      if (lead <= indent || (escapedBreak && empties > 0)) decline();
      if (!escapedBreak) value += empties ? '\n'.repeat(empties) : ' ';
      this.i = k;
      ({ text, end, escapedBreak } = this.segment(this.lines[k]!, lead, quote));
      value += text;
    }
    return [value, this.lines[this.i]!, end];
  }

  /**
   * A flow collection starting at column `at` of the current line. One broken over lines (as YAML tools write long
   * ones) is read from its lines joined by single spaces, each line trimmed — the folding YAML applies there — with
   * every continuation indented past `indent`; the current line becomes the one it closes on. Its value, the text it
   * was read from, and the column after it there.
   */
  private flowValue(line: string, at: number, indent: number): [unknown, string, number] {
    const open = { depth: 0, quote: '' };
    let text = line;
    for (let from = at; flowEnd(text, from, open) < 0; ) {
      const next = this.lines[++this.i];
      const lead = next === undefined ? 0 : skipSpaces(next, 0);
      // The end of the file, an empty line (a line feed in a scalar), too little indentation, an escaped line break.
      if (next === undefined || lead === next.length || lead <= indent || text.endsWith('\\')) decline();
      text = `${trimSpaces(text)} `;
      from = text.length;
      text += next!.slice(lead);
    }
    const [value, end] = this.flow(text, at);
    return [value, text, end];
  }

  /**
   * Quoted text from column `from` of `line`, inside a scalar opened by `quote`: the text and the column after the
   * closing quote; or, when the line ends first, `end` -1 with the text's trailing spaces dropped (folding drops them)
   * unless the line ends in an escaped line break (`escapedBreak`: a `\` last, which joins the lines without a space).
   */
  private segment(line: string, from: number, quote: string): { text: string; end: number; escapedBreak: boolean } {
    let text = '';
    let k = from;
    if (quote === "'") {
      for (;;) {
        const close = line.indexOf("'", k);
        if (close < 0) return { text: trimSpaces(text + line.slice(k)), end: -1, escapedBreak: false };
        text += line.slice(k, close);
        if (line.charCodeAt(close + 1) !== 39) return { text, end: close + 1, escapedBreak: false };
        text += "'";
        k = close + 2;
      }
    }
    for (;;) {
      const close = line.indexOf('"', k);
      const slash = line.indexOf('\\', k);
      if (slash < 0 || (close >= 0 && slash > close)) {
        // Only the raw text after the last escape is trimmed: an escaped space is content.
        return close < 0 ? { text: text + trimSpaces(line.slice(k)), end: -1, escapedBreak: false } : { text: text + line.slice(k, close), end: close + 1, escapedBreak: false };
      }
      text += line.slice(k, slash);
      const e = line[slash + 1];
      if (e === undefined) return { text, end: -1, escapedBreak: true };
      const hex = HEX_LENGTH[e];
      if (hex) {
        const digits = line.slice(slash + 2, slash + 2 + hex);
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) decline();
        const code = parseInt(digits, 16);
        if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) decline();
        text += String.fromCodePoint(code);
        k = slash + 2 + hex;
      } else {
        const char = ESCAPES[e];
        if (char === undefined) decline();
        text += char;
        k = slash + 2;
      }
    }
  }

  /** A flow sequence or mapping starting at column `at`, closed on the same line: its value and the column after it. */
  private flow(line: string, at: number): [unknown, number] {
    if (++this.depth > MAX_DEPTH) decline();
    const close = line[at] === '[' ? ']' : '}';
    const items: unknown[] = [];
    const map: Record<string, unknown> = {};
    let k = skipSpaces(line, at + 1);
    while (line[k] !== close) {
      if (close === ']') {
        const [item, end] = this.flowNode(line, k);
        items.push(item);
        k = skipSpaces(line, end);
      } else {
        const [key, colon] = this.flowKey(line, k);
        if (line.charCodeAt(colon + 1) !== 32) decline();
        const v = skipSpaces(line, colon + 1);
        const [item, end] = line[v] === ',' || line[v] === '}' ? [null, v] : this.flowNode(line, v);
        setKey(map, key, item);
        k = skipSpaces(line, end);
      }
      if (line[k] === ',') k = skipSpaces(line, k + 1);
      else if (line[k] !== close) decline();
    }
    this.depth--;
    return [close === ']' ? items : map, k + 1];
  }

  /** A key of a flow mapping at column `at` (quoted, or plain up to its `:`): the key and the column of the `:`. */
  private flowKey(line: string, at: number): [string, number] {
    if (line[at] === '"' || line[at] === "'") {
      const [key, end] = this.quoted(line, at);
      return line[end] === ':' ? [key, end] : decline();
    }
    let k = at;
    while (k < line.length && line[k] !== ':' && !FLOW_END.has(line[k]!)) k++;
    const raw = line.slice(at, k);
    if (line[k] !== ':' || NOT_PLAIN_START.has(line[at]!) || raw.includes(' #') || trimSpaces(raw) !== raw) decline();
    return [plainKey(raw), k];
  }

  /** A value inside a flow collection at column `at`: its value and the column after it. */
  private flowNode(line: string, at: number): [unknown, number] {
    const c = line[at];
    if (c === '[' || c === '{') return this.flow(line, at);
    if (c === '"' || c === "'") return this.quoted(line, at);
    if (c === undefined || NOT_PLAIN_START.has(c) || isEntry(line, at)) decline();
    let k = at;
    while (k < line.length && !FLOW_END.has(line[k]!)) {
      if (line[k] === ':' || (line[k] === '#' && line[k - 1] === ' ')) decline();
      k++;
    }
    const raw = trimSpaces(line.slice(at, k));
    if (raw === '<<') decline();
    return [corePlain(raw), k];
  }
}
