/** Builds TypeScript files with ts-morph: a whole file from structures in one call (no node-by-node edits). */
import { printStructure, StructureKind, type OptionalKind, type SourceFileStructure } from 'ts-morph';
import { generatedHeader } from './header.js';

export { generatedHeader } from './header.js';

/**
 * Prints a file built from `structure`, starting with the generated header. ts-morph's structure printer writes the
 * text directly: no source file is created, so TypeScript never parses what we only need to write.
 */
export function printTsFile(_fileName: string, specFile: string, structure: OptionalKind<SourceFileStructure>): string {
  const text = printStructure({ ...structure, kind: StructureKind.SourceFile, leadingTrivia: generatedHeader(specFile) }, { indentNumberOfSpaces: 2, useSingleQuote: true });
  return text.endsWith('\n') ? text : `${text}\n`;
}
