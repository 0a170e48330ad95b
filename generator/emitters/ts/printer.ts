/**
 * Lays out prettier documents (doc.ts) exactly as prettier's `printDocToString` does, for the part of the document
 * language the emitters build: strings, arrays, group (with `id`, `shouldBreak`, and `expandedStates` of
 * conditionalGroup), indent, align (a width or a string), line / softline / hardline / literalline, breakParent,
 * ifBreak (with and without `groupId`) and fill. It is prettier's algorithm without its generality: one pass
 * (prepare.ts) marks the groups a hard break breaks and notes each group's flat text, then a loop over a command stack
 * (one flat array, no object per command; a node with one child goes straight on to it) prints, measuring what fits
 * only up to the remaining width, a flat group whose text is noted as one string, with indentation strings made once
 * per style and nesting (indentation.ts), and string widths taken as `.length` for printable ASCII (widths.ts).
 *
 * A document with anything else (cursor, trim, lineSuffix, label, indentIfBreak, dedent, markAsRoot, …) is not printed
 * here: `printDocFast` throws UnsupportedDocError before printing and doc.ts hands that document to prettier.
 */
import { HARD_LINE, HARDLINE, UnsupportedDocError, type Node } from './doc-nodes.js';
import { aligned, indented, rootIndentation, type Indentation } from './indentation.js';
import { prepare } from './prepare.js';
import { stringWidth, widthUpTo } from './widths.js';

export { UnsupportedDocError } from './doc-nodes.js';
export { stringWidth } from './widths.js';

/** The options of prettier's document printer that generated code depends on. */
export interface PrintOptions {
  /** Line width. */
  printWidth: number;
  /** Columns per indentation level (and per tab). */
  tabWidth: number;
  /** Indent with tabs. */
  useTabs: boolean;
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
  prepare(doc, options.printWidth);
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
  /**
   * The column after `out[measured - 1]`: texts after it are measured only when a group or fill needs the column, so a
   * line that has none (a comment, a statement, a long string) is never measured.
   */
  let position = 0;
  let measured = 0;
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
              }
              break;
            }
            shouldRemeasure = true;
          }
          if (node.literal) {
            // The root indentation is always empty here (no markAsRoot): a literal line starts at column 0, untrimmed.
            out.push('\n');
            position = 0;
            measured = out.length;
          } else {
            // Spaces and tabs at the end of the line go (the last text's end is read here, not at every text).
            trimEnd(out);
            out.push(indent.newline);
            position = indent.length;
            measured = out.length;
          }
          break;
        case 'group': {
          let contents = node.contents;
          let next: number;
          if (mode === MODE_FLAT && !shouldRemeasure) {
            next = node.break ? MODE_BREAK : MODE_FLAT;
          } else {
            shouldRemeasure = false;
            position += widthOf(out, measured);
            measured = out.length;
            const remaining = width - position;
            if (!node.break && fits(node, MODE_FLAT, remaining, top, false)) next = MODE_FLAT;
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
          const flatWidth = node.flatWidth;
          if (next === MODE_FLAT && flatWidth !== undefined && flatWidth < Number.POSITIVE_INFINITY) {
            // Its flat text, noted before printing (prepare.ts).
            const flat = node.flat!;
            if (flat !== '') {
              position += widthOf(out, measured) + flatWidth;
              out.push(flat);
              measured = out.length;
            }
            break;
          }
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
          position += widthOf(out, measured);
          measured = out.length;
          top = fill(node.parts!, 0, indent, mode, width - position, top);
          break;
        case 'fill-rest':
          position += widthOf(out, measured);
          measured = out.length;
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

/** The width of the texts `out[from…]` (on one line). */
function widthOf(out: string[], from: number): number {
  let sum = 0;
  for (let i = from; i < out.length; i++) sum += stringWidth(out[i]!);
  return sum;
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
          if (groupMode === MODE_FLAT && node.flatWidth !== undefined) {
            // Flat, its width is noted (Infinity: wider than any line, prepare.ts).
            if (node.flat !== '' || node.flatWidth !== 0) {
              // A pending space counts before the group's text, unless the text starts with a space of its own (one
              // counts for a run of them).
              if (pendingSpace && !node.flatSpace) remaining -= 1;
              pendingSpace = false;
              remaining -= node.flatWidth;
              if (remaining < 0) return false;
            }
            break;
          }
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
