/** Types of compile.mjs (plain JavaScript, so worker threads can load it without a TypeScript loader). */
import type { Piece } from './piece.mjs';

export declare function compilePieces(schemas: object[]): Piece[];
