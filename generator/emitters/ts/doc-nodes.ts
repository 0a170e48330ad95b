/** The document nodes the printer reads (prettier's, loosely typed), and what its passes share. */
import { builders } from 'prettier/doc';

/** A document node; `flat` and `flatWidth` are the printer's own notes on a group (prepare.ts). */
export interface Node {
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
  /** Of a group: its text printed flat, when flatWidth is a finite number (else ''). */
  flat?: string;
  /**
   * Of a group, found before printing: the width of its text printed flat; Infinity when it is wider than the print
   * width (it never prints flat); undefined when unknown (the printer walks its contents).
   */
  flatWidth?: number;
  /** Of a group with a noted width: whether its flat text starts with a line's space (counted in flatWidth). */
  flatSpace?: boolean;
  /** Of a group: the pass of prepare.ts that noted it last. */
  pass?: number;
}

/** A document this printer does not lay out (doc.ts gives it to prettier instead). */
export class UnsupportedDocError extends Error {
  override name = 'UnsupportedDocError';
}

/** prettier's hardline (a hard line and a breakParent), the commonest node: recognised whole. */
export const HARDLINE: unknown = builders.hardline;
/** The line of HARDLINE. */
export const HARD_LINE = builders.hardline[0] as unknown as Node;
