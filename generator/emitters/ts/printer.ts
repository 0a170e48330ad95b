/**
 * Lays out prettier documents (doc.ts) exactly as prettier's `printDocToString` does, for the part of the document
 * language the emitters build: strings, arrays, group (with `id`, `shouldBreak`, and `expandedStates` of
 * conditionalGroup), indent, align (a width or a string), line / softline / hardline / literalline, breakParent,
 * ifBreak (with and without `groupId`) and fill. It is prettier's algorithm without its generality: one pass marks the
 * groups a hard break breaks, then a loop over a command stack (one flat array, no object per command; a node with one
 * child goes straight on to it) prints, measuring what fits only up to the remaining width, with indentation strings
 * made once per style and nesting, and string widths taken as `.length` for printable ASCII.
 *
 * A document with anything else (cursor, trim, lineSuffix, label, indentIfBreak, dedent, markAsRoot, …) is not printed
 * here: `printDocFast` throws UnsupportedDocError before printing and doc.ts hands that document to prettier.
 */
import { createRequire } from 'node:module';
import { builders } from 'prettier/doc';

/** The options of prettier's document printer that generated code depends on. */
export interface PrintOptions {
  /** Line width. */
  printWidth: number;
  /** Columns per indentation level (and per tab). */
  tabWidth: number;
  /** Indent with tabs. */
  useTabs: boolean;
}

/** A document this printer does not lay out (doc.ts gives it to prettier instead). */
export class UnsupportedDocError extends Error {
  override name = 'UnsupportedDocError';
}

/** The document nodes read here (prettier's, loosely typed). */
interface Node {
  type: string;
  contents?: unknown;
  parts?: unknown[];
  break?: boolean | 'propagated';
  id?: unknown;
  expandedStates?: unknown[];
  breakContents?: unknown;
  flatContents?: unknown;
  groupId?: unknown;
  n?: unknown;
  hard?: boolean;
  soft?: boolean;
  literal?: boolean;
}

/** The rest of a fill from part `offset` on (prettier copies the fill with a hidden offset instead). */
class FillRest {
  readonly type = 'fill-rest';
  constructor(
    readonly parts: unknown[],
    readonly offset: number,
  ) {}
}

// Modes are truthy: prettier reads `groupModeMap[id] || MODE_FLAT`.
const MODE_BREAK = 1;
const MODE_FLAT = 2;

/** prettier's hardline (a hard line and a breakParent), the commonest node: recognised whole. */
const HARDLINE: unknown = builders.hardline;
const HARD_LINE = builders.hardline[0] as unknown as Node;

// ---------------------------------------------------------------------------------------------------------------------
// Breaks

/**
 * Marks every group that a hard break inside it breaks (prettier's propagateBreaks: a group breaks when it contains a
 * breakParent or a broken group, through both branches of an ifBreak; a conditionalGroup is never broken this way and
 * stops the propagation, though groups inside its states are marked). Returns whether `doc` breaks its enclosing
 * group. Throws UnsupportedDocError on a node this printer does not lay out, before anything is printed.
 */
function propagateBreaks(doc: unknown, seen: Set<Node>): boolean {
  if (Array.isArray(doc)) {
    if (doc === HARDLINE) return true;
    let breaks = false;
    for (let i = 0; i < doc.length; i++) {
      const part: unknown = doc[i];
      if (typeof part !== 'string' && propagateBreaks(part, seen)) breaks = true;
    }
    return breaks;
  }
  if (typeof doc === 'string') return false;
  if (doc === null || typeof doc !== 'object') throw new UnsupportedDocError(`not a document: ${String(doc)}`);
  const node = doc as Node;
  switch (node.type) {
    case 'group': {
      // A group met again (shared) was marked on the first visit.
      if (seen.has(node)) return Boolean(node.break);
      seen.add(node);
      if (node.expandedStates) {
        if (!Array.isArray(node.expandedStates)) throw new UnsupportedDocError('expandedStates is not an array');
        for (const state of node.expandedStates) propagateBreaks(state, seen);
        return Boolean(node.break);
      }
      // prettier writes 'propagated'; only truthiness is read, and a boolean keeps the field's type (no deoptimization).
      if (propagateBreaks(node.contents, seen) && !node.break) node.break = true;
      return Boolean(node.break);
    }
    case 'line':
      return false;
    case 'break-parent':
      return true;
    case 'indent':
      return propagateBreaks(node.contents, seen);
    case 'align': {
      const n = node.n;
      // Widths and strings only: dedent (negative), dedentToRoot (-Infinity) and markAsRoot go to prettier.
      if (!((typeof n === 'number' && (Number.isNaN(n) || (n >= 0 && Number.isFinite(n)))) || typeof n === 'string')) throw new UnsupportedDocError(`align ${String(n)}`);
      return propagateBreaks(node.contents, seen);
    }
    case 'if-break': {
      const inBreak = propagateBreaks(node.breakContents, seen);
      return propagateBreaks(node.flatContents, seen) || inBreak;
    }
    case 'fill':
      if (!Array.isArray(node.parts)) throw new UnsupportedDocError('fill without parts');
      return propagateBreaks(node.parts, seen);
    default:
      throw new UnsupportedDocError(`document type ${String(node.type)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------------
// Indentation

/** One step of an indentation: an indent, or an align by a width or a string (prettier's indent queue). */
type IndentStep = { kind: 'indent' } | { kind: 'width'; width: number } | { kind: 'string'; string: string };

/** An indentation: its text and width; the indentations nested in it are made once and kept. */
interface Indentation {
  value: string;
  /** A line break and the indentation. */
  newline: string;
  length: number;
  queue: IndentStep[];
  indented?: Indentation;
  aligned?: Map<number | string, Indentation>;
}

const INDENT: IndentStep = { kind: 'indent' };

/** Root indentations by style (`tabWidth/useTabs`): their nested indentations persist across documents. */
const roots = new Map<string, Indentation>();

/** prettier's generateIndent: aligns become spaces, or tabs (one per align) when an indent follows them with useTabs. */
function makeIndentation(queue: IndentStep[], options: PrintOptions): Indentation {
  let value = '';
  let length = 0;
  let lastTabs = 0;
  let lastSpaces = 0;
  const addTabs = (count: number) => {
    value += '\t'.repeat(count);
    length += options.tabWidth * count;
  };
  const addSpaces = (count: number) => {
    value += ' '.repeat(count);
    length += count;
  };
  const flush = () => {
    if (options.useTabs) {
      if (lastTabs > 0) addTabs(lastTabs);
    } else if (lastSpaces > 0) addSpaces(lastSpaces);
    lastTabs = 0;
    lastSpaces = 0;
  };
  for (const step of queue) {
    if (step.kind === 'indent') {
      flush();
      if (options.useTabs) addTabs(1);
      else addSpaces(options.tabWidth);
    } else if (step.kind === 'string') {
      flush();
      value += step.string;
      length += step.string.length;
    } else {
      lastTabs += 1;
      lastSpaces += step.width;
    }
  }
  if (lastSpaces > 0) addSpaces(lastSpaces);
  return { value, newline: `\n${value}`, length, queue };
}

function rootIndentation(options: PrintOptions): Indentation {
  const key = `${options.tabWidth}/${options.useTabs}`;
  let root = roots.get(key);
  if (!root) roots.set(key, (root = { value: '', newline: '\n', length: 0, queue: [] }));
  return root;
}

function indented(parent: Indentation, options: PrintOptions): Indentation {
  return (parent.indented ??= makeIndentation([...parent.queue, INDENT], options));
}

function aligned(parent: Indentation, n: number | string, options: PrintOptions): Indentation {
  if (!n) return parent; // 0, NaN, '': prettier keeps the indentation
  parent.aligned ??= new Map();
  let child = parent.aligned.get(n);
  if (!child) {
    const step: IndentStep = typeof n === 'number' ? { kind: 'width', width: n } : { kind: 'string', string: n };
    parent.aligned.set(n, (child = makeIndentation([...parent.queue, step], options)));
  }
  return child;
}

// ---------------------------------------------------------------------------------------------------------------------
// Widths

let prettierStringWidth: ((text: string) => number) | undefined;

/**
 * Characters whose width prettier takes as 1 whatever surrounds them: Latin-1 and Latin Extended letters and signs,
 * general punctuation (dashes, quotes, ellipsis) and the four simple arrows. None is an emoji, a mark, wide, or part
 * of an emoji sequence (© ®, ‼ ⁉ and ↔… are, and are left out).
 */
function isPlainWide(code: number): boolean {
  if (code >= 0xa0 && code <= 0x2ff) return code !== 0xa9 && code !== 0xae;
  if (code >= 0x2010 && code <= 0x205f) return code !== 0x203c && code !== 0x2049;
  return code >= 0x2190 && code <= 0x2193;
}

/**
 * prettier's getStringWidth: printable ASCII counts its length; control characters count 0; east-asian wide and
 * fullwidth characters 2, combining marks 0, emoji sequences 1 or 2, which prettier's own function (loaded on first
 * need) measures.
 */
export function stringWidth(text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7f) return otherWidth(text);
  }
  return n;
}

/**
 * The width of `text`, or some number over `max` once its start alone is wider: fits() need not measure the rest of
 * a long text (a tool's description) that cannot fit anyway. Widths are never negative, so a printable ASCII start
 * wider than `max` settles it; anything else is measured whole.
 */
function widthUpTo(text: string, max: number): number {
  const n = text.length;
  if (n <= max) return stringWidth(text);
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code >= 0x7f) return stringWidth(text);
    if (i >= max) return i + 1;
  }
  return n;
}

/** The width of a text that is not all printable ASCII (DEL, which counted 1 there, now counts 0, as in prettier). */
function otherWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) width++;
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) continue;
    else if (isPlainWide(code)) width++;
    else {
      prettierStringWidth ??= (createRequire(import.meta.url)('prettier') as { util: { getStringWidth: (text: string) => number } }).util.getStringWidth;
      return prettierStringWidth(text);
    }
  }
  return width;
}

// ---------------------------------------------------------------------------------------------------------------------
// Printing

/**
 * The command stack of printDocFast: triples of document, indentation and mode (prettier allocates an object per
 * command). A command whose document has one child does not go through the stack: the loop goes on with the child.
 */
const stack: unknown[] = [];
/** fits()'s own stack: pairs of document and mode. */
const fitStack: unknown[] = [];
/** The mode each group with an id was printed in (of the document being printed). */
let groupModes: Record<PropertyKey, number> = Object.create(null) as Record<PropertyKey, number>;

/** Lays out `doc` as prettier's printDocToString does; throws UnsupportedDocError (before printing) on a document outside the subset. */
export function printDocFast(doc: unknown, options: PrintOptions): string {
  propagateBreaks(doc, new Set());
  groupModes = Object.create(null) as Record<PropertyKey, number>;
  try {
    return print(doc, options);
  } finally {
    stack.length = 0;
    fitStack.length = 0;
  }
}

function print(doc: unknown, options: PrintOptions): string {
  const width = options.printWidth;
  /** The output: written texts, joined at the end. */
  const out: string[] = [];
  /** Whether the output may end with spaces or tabs (trimmed at the next line break). */
  let trailing = false;
  let position = 0;
  let shouldRemeasure = false;
  let top = 0;
  let d: unknown = doc;
  let indent = rootIndentation(options);
  let mode = MODE_BREAK;
  for (;;) {
    let node: Node | undefined;
    if (typeof d === 'string') {
      if (d !== '') {
        out.push(d);
        position += stringWidth(d);
        const last = d.charCodeAt(d.length - 1);
        trailing = last === 32 || last === 9;
      }
    } else if (Array.isArray(d)) {
      if (d === HARDLINE) node = HARD_LINE;
      else if (d.length > 0) {
        for (let i = d.length - 1; i > 0; i--) {
          stack[top++] = d[i];
          stack[top++] = indent;
          stack[top++] = mode;
        }
        d = d[0];
        continue;
      }
    } else node = d as Node;

    if (node !== undefined) {
      switch (node.type) {
        case 'line':
          if (mode === MODE_FLAT) {
            if (!node.hard) {
              if (!node.soft) {
                out.push(' ');
                position += 1;
                trailing = true;
              }
              break;
            }
            shouldRemeasure = true;
          }
          if (node.literal) {
            // The root indentation is always empty here (no markAsRoot): a literal line starts at column 0, untrimmed.
            out.push('\n');
            position = 0;
            trailing = false;
          } else {
            if (trailing) trimEnd(out);
            out.push(indent.newline);
            position = indent.length;
            trailing = indent.value !== '';
          }
          break;
        case 'group': {
          let contents = node.contents;
          let next: number;
          if (mode === MODE_FLAT && !shouldRemeasure) {
            next = node.break ? MODE_BREAK : MODE_FLAT;
          } else {
            shouldRemeasure = false;
            const remaining = width - position;
            if (!node.break && fits(contents, MODE_FLAT, remaining, top, false)) next = MODE_FLAT;
            else if (!node.expandedStates) next = MODE_BREAK;
            else {
              const states = node.expandedStates;
              next = MODE_BREAK;
              contents = states[states.length - 1];
              if (!node.break) {
                for (let i = 1; i < states.length - 1; i++) {
                  if (fits(states[i], MODE_FLAT, remaining, top, false)) {
                    next = MODE_FLAT;
                    contents = states[i];
                    break;
                  }
                }
              }
            }
          }
          if (node.id) groupModes[node.id as PropertyKey] = next;
          d = contents;
          mode = next;
          continue;
        }
        case 'indent':
          indent = indented(indent, options);
          d = node.contents;
          continue;
        case 'align':
          indent = aligned(indent, node.n as number | string, options);
          d = node.contents;
          continue;
        case 'if-break': {
          const groupMode = node.groupId ? groupModes[node.groupId as PropertyKey] : mode;
          // A groupId of a group not printed yet prints neither branch (as prettier does).
          const contents = groupMode === MODE_BREAK ? node.breakContents : groupMode === MODE_FLAT ? node.flatContents : undefined;
          if (contents) {
            d = contents;
            continue;
          }
          break;
        }
        case 'break-parent':
          break;
        case 'fill':
          top = fill(node.parts!, 0, indent, mode, width - position, top);
          break;
        case 'fill-rest':
          top = fill((node as unknown as FillRest).parts, (node as unknown as FillRest).offset, indent, mode, width - position, top);
          break;
        default:
          throw new UnsupportedDocError(`document type ${String(node.type)}`);
      }
    }
    if (top === 0) break;
    mode = stack[--top] as number;
    indent = stack[--top] as Indentation;
    d = stack[--top];
  }
  return out.join('');
}

/**
 * prettier's fill, from part `offset` on: each content flat when it fits, each separator broken when the next
 * content does not fit after it. Pushes onto the stack above `top`; returns the new top.
 */
function fill(parts: unknown[], offset: number, indent: Indentation, mode: number, remaining: number, top: number): number {
  const length = parts.length - offset;
  if (length === 0) return top;
  const content = parts[offset];
  const contentFits = fits(content, MODE_FLAT, remaining, 0, true);
  let contentMode = contentFits ? MODE_FLAT : MODE_BREAK;
  let whitespaceMode = contentMode;
  if (length >= 3) {
    stack[top++] = new FillRest(parts, offset + 2);
    stack[top++] = indent;
    stack[top++] = mode;
    const bothFit = fits([content, parts[offset + 1], parts[offset + 2]], MODE_FLAT, remaining, 0, true);
    whitespaceMode = bothFit ? MODE_FLAT : MODE_BREAK;
    if (bothFit) contentMode = MODE_FLAT;
  }
  if (length >= 2) {
    stack[top++] = parts[offset + 1];
    stack[top++] = indent;
    stack[top++] = whitespaceMode;
  }
  stack[top++] = content;
  stack[top++] = indent;
  stack[top++] = contentMode;
  return top;
}

/**
 * prettier's fits: whether `next` (in `nextMode`), followed by the commands on the stack below `rest`, prints up to
 * its first line break within `remaining` columns. A pending space of a flat line costs only when text follows.
 */
function fits(next: unknown, nextMode: number, remaining: number, rest: number, mustBeFlat: boolean): boolean {
  if (remaining === Number.POSITIVE_INFINITY) return true;
  if (!(remaining >= 0)) return false; // NaN too, as prettier's `while (remainingWidth >= 0)`
  let top = 0;
  let pendingSpace = false;
  let d = next;
  let mode = nextMode;
  for (;;) {
    if (typeof d === 'string') {
      if (d !== '') {
        if (pendingSpace) {
          remaining -= 1;
          pendingSpace = false;
        }
        remaining -= widthUpTo(d, remaining);
        if (remaining < 0) return false;
      }
    } else if (Array.isArray(d)) {
      if (d === HARDLINE) return true;
      if (d.length > 0) {
        for (let i = d.length - 1; i > 0; i--) {
          fitStack[top++] = d[i];
          fitStack[top++] = mode;
        }
        d = d[0];
        continue;
      }
    } else {
      const node = d as Node;
      switch (node.type) {
        case 'line':
          if (mode === MODE_BREAK || node.hard) return true;
          if (!node.soft) pendingSpace = true;
          break;
        case 'group': {
          if (mustBeFlat && node.break) return false;
          const groupMode = node.break ? MODE_BREAK : mode;
          const states = node.expandedStates;
          d = states && groupMode === MODE_BREAK ? states[states.length - 1] : node.contents;
          mode = groupMode;
          continue;
        }
        case 'indent':
        case 'align':
          d = node.contents;
          continue;
        case 'if-break': {
          const groupMode = node.groupId ? groupModes[node.groupId as PropertyKey] || MODE_FLAT : mode;
          const contents = groupMode === MODE_BREAK ? node.breakContents : node.flatContents;
          if (contents) {
            d = contents;
            continue;
          }
          break;
        }
        case 'fill':
        case 'fill-rest': {
          const parts = node.type === 'fill' ? node.parts! : (node as unknown as FillRest).parts;
          const start = node.type === 'fill' ? 0 : (node as unknown as FillRest).offset;
          if (parts.length > start) {
            for (let i = parts.length - 1; i > start; i--) {
              fitStack[top++] = parts[i];
              fitStack[top++] = mode;
            }
            d = parts[start];
            continue;
          }
          break;
        }
        // break-parent: nothing to measure
      }
    }
    if (top > 0) {
      mode = fitStack[--top] as number;
      d = fitStack[--top];
    } else if (rest > 0) {
      rest -= 3;
      d = stack[rest];
      mode = stack[rest + 2] as number;
    } else return true;
  }
}

/** Drops the spaces and tabs at the end of the output (prettier trims nothing else, and never past a line break). */
function trimEnd(out: string[]): void {
  for (let i = out.length - 1; i >= 0; i--) {
    const text = out[i]!;
    let end = text.length;
    while (end > 0) {
      const code = text.charCodeAt(end - 1);
      if (code !== 32 && code !== 9) break;
      end--;
    }
    if (end > 0) {
      if (end < text.length) out[i] = text.slice(0, end);
      return;
    }
    out.pop();
  }
}
