/** Builds TypeScript files with ts-morph: a whole file from structures in one call (no node-by-node edits). */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import type { OptionalKind, SourceFileStructure } from 'ts-morph';
import { generatedHeader } from '../header.js';

// ts-morph (and TypeScript, 9 MB of CommonJS) loads through require: an ESM import would first have Node's
// CommonJS export scanner read all of it, which costs more than using it.
const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
const { printStructure } = tsMorph;

/** ts-morph's enums, for files that build structures. */
export const { Scope, StructureKind, VariableDeclarationKind } = tsMorph;

export { generatedHeader } from '../header.js';

/**
 * Prints a file built from `structure`, starting with the generated header. ts-morph's structure printer writes the
 * text directly: no source file is created, so TypeScript never parses what we only need to write.
 */
export function printTsFile(_fileName: string, specFile: string, structure: OptionalKind<SourceFileStructure>): string {
  const text = printStructure({ ...structure, kind: StructureKind.SourceFile, leadingTrivia: generatedHeader(specFile) }, { indentNumberOfSpaces: 2, useSingleQuote: true });
  return text.endsWith('\n') ? text : `${text}\n`;
}
