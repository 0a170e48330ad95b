/**
 * Generated TypeScript is printed the way prettier prints it, without running prettier: the emitters build prettier's
 * own document language (`prettier/doc`: groups that break only when they do not fit, indents, soft lines) in the
 * shapes prettier's TypeScript printer builds for the same syntax, and prettier's document printer lays them out. The
 * result passes `prettier --check` with the style below at a fraction of the cost of formatting (no parsing). A
 * construct this module does not model (an identifier too long for any line) shows as a line over the print width;
 * format.ts sends such a file through prettier itself.
 */
import { builders, printer } from 'prettier/doc';
import { GENERATED_STYLE } from '../../format/style.js';

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

/** Lays out a document. */
export function printDoc(doc: Doc, style: CodeStyle = GENERATED_STYLE): string {
  return printer.printDocToString(doc, { printWidth: style.printWidth, tabWidth: style.tabWidth, useTabs: style.useTabs }).formatted;
}
