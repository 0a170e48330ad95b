/**
 * The pass over a document before it is printed: prettier's propagateBreaks (a group breaks when it contains a
 * breakParent or a broken group), and for every group the text it prints flat with its width, noted on the group
 * (Node.flat, Node.flatWidth). The printer then measures and prints a flat group as one string instead of walking its
 * contents again, and stops measuring one it knows is wider than the line; most groups of generated code are small
 * and flat.
 *
 * A group's flat text is noted only where printing it whole is exactly what walking it gives: no break of any kind,
 * no fill, no ifBreak naming another group, no group with an id inside (its mode must be recorded), and text after
 * every line's space, with no two spaces in a row (prettier's fits counts a space only when text follows it, and two in
 * a row once). A group may start with a line's space (`key:` and its value on the next line or after a space): fits
 * counts that one and none pending before it (Node.flatSpace).
 */
import { HARDLINE, UnsupportedDocError, type Node } from './doc-nodes.js';
import { widthUpTo } from './widths.js';

// What is known of the flat text of the group being walked (the innermost one).
/** Its text so far is `text`, `width` wide. */
const OPEN = 0;
/** Its text is known to be wider than the print width (its start already is). */
const WIDE = 1;
/** Not known: something the printer must walk comes first. */
const UNKNOWN = 2;

let state = UNKNOWN;
let text = '';
let width = 0;
/** Whether anything (text, a line's space) came in the group so far. */
let started = false;
/** Whether the group's text starts with a line's space. */
let leadingSpace = false;
/** Whether a line's space came after the last text. */
let spacePending = false;
/** The print width: a group wider than it never prints flat, and its text is not kept. */
let maxWidth = 0;
/** The number of this pass, marked on each group it meets (a document may share a group, and be printed again). */
let pass = 0;

/**
 * Marks the groups of `doc` that break and notes each group's flat text (see above) for a print width. Throws
 * UnsupportedDocError on a node the printer does not lay out, before anything is printed.
 */
export function prepare(doc: unknown, printWidth: number): void {
  state = UNKNOWN;
  text = '';
  width = 0;
  started = false;
  leadingSpace = false;
  spacePending = false;
  maxWidth = printWidth;
  pass++;
  propagate(doc);
  text = '';
}

/**
 * Adds text to the group being walked (its state is OPEN). `valueWidth` may be any number over the room left once the
 * text cannot fit (widthUpTo: a long text is not measured to its end).
 */
function addText(value: string, valueWidth: number): void {
  text += value;
  width += valueWidth;
  started = true;
  spacePending = false;
  if (width > maxWidth) {
    state = WIDE;
    text = '';
  }
}

/**
 * prettier's propagateBreaks, noting flat texts on the way: returns whether `doc` breaks its enclosing group. A
 * conditionalGroup is never broken this way and stops the propagation (groups inside its states are marked).
 */
function propagate(doc: unknown): boolean {
  if (Array.isArray(doc)) {
    if (doc === HARDLINE) {
      if (state === OPEN) state = UNKNOWN;
      return true;
    }
    let breaks = false;
    for (let i = 0; i < doc.length; i++) {
      const part: unknown = doc[i];
      if (typeof part === 'string') {
        if (state === OPEN && part !== '') addText(part, widthUpTo(part, maxWidth - width));
      } else if (propagate(part)) breaks = true;
    }
    return breaks;
  }
  if (typeof doc === 'string') {
    if (state === OPEN && doc !== '') addText(doc, widthUpTo(doc, maxWidth - width));
    return false;
  }
  if (doc === null || typeof doc !== 'object') throw new UnsupportedDocError(`not a document: ${String(doc)}`);
  const node = doc as Node;
  switch (node.type) {
    case 'group':
      if (node.pass !== pass) {
        // A group met again (shared) was marked and noted on the first visit.
        node.pass = pass;
        noteGroup(node);
      }
      if (state === OPEN) {
        if (node.break || node.id || node.flatWidth === undefined || (node.flatSpace && spacePending)) state = UNKNOWN;
        else if (node.flatWidth === Number.POSITIVE_INFINITY) {
          state = WIDE;
          text = '';
        } else if (node.flat !== '') {
          if (node.flatSpace && !started) leadingSpace = true;
          addText(node.flat!, node.flatWidth);
        }
      }
      return Boolean(node.break);
    case 'line':
      if (state === OPEN) {
        if (node.hard) state = UNKNOWN;
        else if (!node.soft) {
          if (spacePending) state = UNKNOWN;
          else {
            if (!started) leadingSpace = true;
            started = true;
            spacePending = true;
            text += ' ';
            width += 1;
          }
        }
      }
      return false;
    case 'break-parent':
      if (state === OPEN) state = UNKNOWN;
      return true;
    case 'indent':
      return propagate(node.contents);
    case 'align': {
      const n = node.n;
      // Widths and strings only: dedent (negative), dedentToRoot (-Infinity) and markAsRoot go to prettier.
      if (!((typeof n === 'number' && (Number.isNaN(n) || (n >= 0 && Number.isFinite(n)))) || typeof n === 'string')) throw new UnsupportedDocError(`align ${String(n)}`);
      return propagate(node.contents);
    }
    case 'if-break': {
      // Flat, an ifBreak of its own group prints its flat branch; one naming another group depends on that group.
      if (node.groupId && state === OPEN) state = UNKNOWN;
      const outer = state;
      state = UNKNOWN;
      const inBreak = propagate(node.breakContents);
      state = outer;
      return propagate(node.flatContents) || inBreak;
    }
    case 'fill':
      if (!Array.isArray(node.parts)) throw new UnsupportedDocError('fill without parts');
      if (state === OPEN) state = UNKNOWN;
      return propagate(node.parts);
    default:
      throw new UnsupportedDocError(`document type ${String(node.type)}`);
  }
}

/** Walks a group met for the first time: marks it broken when its contents break, and notes its flat text. */
function noteGroup(node: Node): void {
  // The enclosing group's notes, taken up again after this one.
  const outerState = state;
  const outerText = text;
  const outerWidth = width;
  const outerStarted = started;
  const outerLeadingSpace = leadingSpace;
  const outerSpacePending = spacePending;
  if (node.expandedStates) {
    if (!Array.isArray(node.expandedStates)) throw new UnsupportedDocError('expandedStates is not an array');
    // A conditionalGroup prints one of its states: the printer walks it.
    state = UNKNOWN;
    for (const expanded of node.expandedStates) propagate(expanded);
    node.flatWidth = undefined;
  } else {
    state = node.break ? UNKNOWN : OPEN;
    text = '';
    width = 0;
    started = false;
    leadingSpace = false;
    spacePending = false;
    // prettier writes 'propagated'; only truthiness is read, and a boolean keeps the field's type (no deoptimization).
    if (propagate(node.contents) && !node.break) node.break = true;
    if (spacePending && state === OPEN) state = UNKNOWN;
    node.flatWidth = node.break || state === UNKNOWN ? undefined : state === WIDE ? Number.POSITIVE_INFINITY : width;
  }
  node.flat = state === OPEN && node.flatWidth !== undefined ? text : '';
  node.flatSpace = node.flatWidth !== undefined && leadingSpace;
  state = outerState;
  text = outerText;
  width = outerWidth;
  started = outerStarted;
  leadingSpace = outerLeadingSpace;
  spacePending = outerSpacePending;
}
