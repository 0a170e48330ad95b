/**
 * Every TypeScript example of the generated Markdown compiles: each ```ts block becomes a module in a temp
 * folder and tsc (strict, NodeNext) checks them all against the generated packages, imported by their npm
 * names through generated/tsconfig.paths.json — the way a user's project would import them. The per-action
 * examples are the methods' own `@example` JSDoc, so those are checked too.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';
import { codeBlocks, generatedDir, markdownFiles } from './helpers/generated-markdown.js';

const repo = path.resolve(import.meta.dirname, '..');

/** The package-name → source map of the repo, with absolute targets (the temp folder is elsewhere), plus undici. */
function absolutePaths(): Record<string, string[]> {
  const file = path.join(generatedDir, 'tsconfig.paths.json');
  const paths = (JSON.parse(readFileSync(file, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  const packages = Object.fromEntries(Object.entries(paths).map(([name, targets]) => [name, targets.map((t) => path.resolve(generatedDir, t))]));
  // The proxy recipe imports undici, as a user's project would have it installed.
  return { ...packages, undici: [path.join(repo, 'node_modules/undici/index.d.ts')] };
}

test('every TypeScript example in the generated Markdown type-checks against the generated packages', () => {
  // Inside the repository, so examples that use a framework (openai, ai, @anthropic-ai/sdk) resolve it as a user's project would.
  const cache = path.join(repo, 'node_modules/.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'docs-examples-'));
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  // Identical examples (the docs tree and the package copies share pages) are compiled once.
  const origins = new Map<string, string[]>();
  for (const [rel, text] of markdownFiles()) {
    for (const block of codeBlocks(text, 'ts')) origins.set(block.code, [...(origins.get(block.code) ?? []), `generated/${rel}:${block.line}`]);
  }
  const files = [...origins.keys()].map((code, i) => {
    const file = path.join(dir, `example-${String(i).padStart(4, '0')}.ts`);
    writeFileSync(file, code);
    return { file, origin: origins.get(code)![0]! };
  });
  expect(files.length).toBeGreaterThan(346);

  const program = ts.createProgram(
    files.map((f) => f.file),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: ['node'],
      typeRoots: [path.join(repo, 'node_modules/@types')],
      paths: absolutePaths(),
      skipLibCheck: true,
      noUncheckedIndexedAccess: true,
    },
  );
  const origin = new Map(files.map((f) => [f.file, f.origin]));
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file) return message;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    const where = origin.get(path.resolve(d.file.fileName)) ?? d.file.fileName;
    return `${where} (example line ${line + 1}): ${message}`;
  });
  rmSync(dir, { recursive: true, force: true });
  expect(problems).toEqual([]);
}, 180_000);
