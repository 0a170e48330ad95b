/**
 * Generated TypeScript is printed the way prettier prints it, without running prettier: the emitters build prettier's
 * own document language (`prettier/doc`: groups that break only when they do not fit, indents, soft lines) in the
 * shapes prettier's TypeScript printer builds for the same syntax, and printer.ts lays them out exactly as prettier's
 * document printer would (faster, for the constructs used here; prettier's printer takes any other document). The
 * result passes `prettier --check` with the style below at a fraction of the cost of formatting (no parsing). A
 * construct this module does not model (an identifier too long for any line) shows as a line over the print width;
 * format.ts sends such a file through prettier itself.
 */
import { builders, printer } from 'prettier/doc';
import { GENERATED_STYLE } from '../../format/style.js';
import { printDocFast, UnsupportedDocError } from './printer.js';

/** A prettier document. */
export type Doc = builders.Doc;

export const { group, indent, line, softline, hardline, join, ifBreak, fill, align, conditionalGroup } = builders;

/** The prettier options generated code is printed for (the repository's .prettierrc.json says the same). */
export interface CodeStyle {
  /** Line width. */
  printWidth: number;
  /** Spaces per indentation level. */
  tabWidth: number;
  /** Indent with tabs. */
  useTabs: boolean;
}

export { GENERATED_STYLE };

/** A document printer: lays out a document for a style. */
export type DocPrinter = (doc: Doc, style: CodeStyle) => string;

/** prettier's own document printer. */
export const prettierDocPrinter: DocPrinter = (doc, style) =>
  printer.printDocToString(doc, { printWidth: style.printWidth, tabWidth: style.tabWidth, useTabs: style.useTabs }).formatted;

/**
 * printer.ts, the same layout as prettier's at a fraction of the cost; a document it does not lay out (a construct
 * outside the subset, or nesting too deep for its first pass) goes to prettier's printer.
 */
export const fastDocPrinter: DocPrinter = (doc, style) => {
  try {
    return printDocFast(doc, style);
  } catch (error) {
    if (error instanceof UnsupportedDocError || error instanceof RangeError) return prettierDocPrinter(doc, style);
    throw error;
  }
};

let activePrinter: DocPrinter = fastDocPrinter;

/** Lays out a document. */
export function printDoc(doc: Doc, style: CodeStyle = GENERATED_STYLE): string {
  return activePrinter(doc, style);
}

/** Makes printDoc use `docPrinter` (tests compare printers on every document the emitters print); returns the previous one. */
export function setDocPrinter(docPrinter: DocPrinter): DocPrinter {
  const previous = activePrinter;
  activePrinter = docPrinter;
  return previous;
}
