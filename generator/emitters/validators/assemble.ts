/**
 * One validators file's ajv code, joined from the pieces (piece.mjs) of its schemas: what ajv's standaloneCode writes
 * for one Ajv instance holding them all, without compiling them together. Names are numbered per prefix by first
 * appearance in the file (validate0, schema0, pattern0, …), a value that refers to nothing else (a pattern, a helper)
 * is declared once, and ajv's runtime helpers are inlined once at the top (esm-only.ts). The file depends only on its
 * own exports and their pieces, never on what else a run compiled.
 *
 * The code is ajv's as written, about 40–240 KB a file, read by no reviewer and costing seconds to format: each
 * top-level statement is marked `// prettier-ignore` (prettier's own way to keep code as written), so the file passes
 * `prettier --check` unformatted.
 */
import { helperSources, inlineRequires } from './esm-only.js';
import type { Piece } from './piece.mjs';

const MARK = '// prettier-ignore\n';
const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;

/**
 * The file's ajv code: `export const <name> = validateN;` and the statements of each piece, in order. With
 * `exportType` (TypeScript), each export is declared as that type (`export const <name>: Validator = validateN;`), so
 * its declaration names the type, not the signature tsc would infer from ajv's function.
 */
export function assemblePieces(exports: readonly (readonly [name: string, piece: Piece])[], what: string, exportType?: string): string {
  const counters = new Map<string, number>();
  const fresh = (prefix: string) => {
    const n = counters.get(prefix) ?? 0;
    counters.set(prefix, n + 1);
    return `${prefix}${n}`;
  };
  /** Shared values already declared (Piece statement `shared`) → their name in this file. */
  const declared = new Map<string, string>();
  const helpers = new Set<string>();
  const out: string[] = [];
  for (const [name, piece] of exports) {
    if (!EXPORT_NAME.test(name)) throw new Error(`internal: validator export name ${JSON.stringify(name)} of ${what} is not an identifier`);
    const names: (string | undefined)[] = new Array<string | undefined>(piece.prefixes.length);
    // Values this file already declares keep their first name; their declarations are left out.
    const skip = piece.statements.map((s) => {
      const existing = s.shared === undefined ? undefined : declared.get(s.shared);
      if (existing !== undefined) names[s.declares!] = existing;
      return existing !== undefined;
    });
    const nameOf = (i: number) => (names[i] ??= fresh(piece.prefixes[i]!));
    out.push(`export const ${name}${exportType ? `: ${exportType}` : ''} = ${nameOf(piece.entry)};`);
    piece.statements.forEach((statement, i) => {
      if (skip[i]) return;
      let text = '';
      for (const part of statement.parts) text += typeof part === 'string' ? part : nameOf(part);
      if (statement.shared !== undefined) declared.set(statement.shared, names[statement.declares!]!);
      out.push(text.includes('require(') ? inlineRequires(text, what, helpers) : text);
    });
  }
  return [...helperSources(helpers), ...out].map((statement) => MARK + statement).join('\n');
}
