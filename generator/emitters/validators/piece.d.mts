/** Types of piece.mjs (plain JavaScript, so worker threads can load it without a TypeScript loader). */

/** A top-level statement of a piece: text, with each top-level name as its index in Piece.prefixes. */
export interface PieceStatement {
  /** Text and name indexes, in order. */
  parts: (string | number)[];
  /** The name a `const` or `function` statement declares. */
  declares?: number;
  /** Of a `const` whose value refers to no other top-level name: its prefix and value (a file declares it once). */
  shared?: string;
}

/** One schema's ajv standalone code, its top-level names replaced by indexes (first appearance). */
export interface Piece {
  /** The prefix (`validate`, `schema`, `pattern`, `func`, …) of each name. */
  prefixes: string[];
  /** The validate function the schema's export names. */
  entry: number;
  /** Top-level statements, in ajv's order (declarations before use). */
  statements: PieceStatement[];
}

export declare function topLevelStatements(code: string): string[] | undefined;
export declare function pieceOf(code: string): Piece;
