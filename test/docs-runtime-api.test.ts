/**
 * The generated docs document the whole runtime surface a user configures and catches: every option of
 * `ClientOptions` and of the per-call options, and every field of every error class, found in every package
 * README and in generated/docs/client.md; error fields also in every REFERENCE.md and the common contract. The
 * expected names come from the TypeScript compiler's view of the runtime's exported types — not from a list kept
 * by hand, and not from the generator's own reading of the sources, which this checks as well.
 */
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import type { SpecIR } from '../generator/ir.js';
import { runtimeApi } from '../generator/emitters/docs/runtime-api.js';
import { readSpec } from '../generator/spec/read.js';
import { LOG_LEVEL_ENV } from '../runtime/src/index.js';
import { startMock } from '../mock/server.js';
import { markdownFiles } from './helpers/generated-markdown.js';

const repo = path.resolve(import.meta.dirname, '..');

interface Surface {
  /** Option names (with the type as the compiler prints it). */
  options: Record<'ClientOptions' | 'RequestOptions' | 'PageOptions', Map<string, string>>;
  /** Error class → its fields beyond Error's (own and inherited), with the base class. */
  errors: Map<string, { base: string; fields: Set<string>; own: Set<string> }>;
}

/** The runtime's exported options types and error classes, as the compiler sees them from runtime/src/index.ts. */
function compilerSurface(): Surface {
  const index = path.join(repo, 'runtime/src/index.ts');
  const program = ts.createProgram([index], { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [], noEmit: true });
  const checker = program.getTypeChecker();
  const exports = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(index)!)!).map((s) => (s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s));
  const byName = new Map(exports.map((s) => [s.name, s]));
  const props = (name: string) => {
    const type = checker.getDeclaredTypeOfSymbol(byName.get(name)!);
    return new Map(checker.getPropertiesOfType(type).map((p) => [p.name, checker.typeToString(checker.getTypeOfSymbol(p))]));
  };
  const errorBase = checker.getDeclaredTypeOfSymbol(checker.resolveName('Error', undefined, ts.SymbolFlags.Type, false)!);
  const baseFields = new Set(checker.getPropertiesOfType(errorBase).map((p) => p.name));
  const errors: Surface['errors'] = new Map();
  for (const symbol of exports) {
    if (!(symbol.flags & ts.SymbolFlags.Class)) continue;
    const type = checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType;
    const bases = checker.getBaseTypes(type);
    const chain = (t: ts.Type): string[] => [t.symbol?.name ?? '', ...checker.getBaseTypes(t as ts.InterfaceType).flatMap(chain)];
    if (!chain(type).includes('Error')) continue;
    const fields = new Set(checker.getPropertiesOfType(type).map((p) => p.name).filter((n) => !baseFields.has(n)));
    const inherited = new Set(bases.flatMap((b) => checker.getPropertiesOfType(b).map((p) => p.name)));
    errors.set(symbol.name, { base: bases[0]?.symbol?.name ?? '', fields, own: new Set([...fields].filter((f) => !inherited.has(f))) });
  }
  return { options: { ClientOptions: props('ClientOptions'), RequestOptions: props('RequestOptions'), PageOptions: props('PageOptions') }, errors };
}

let surface: Surface;
let ir: SpecIR;
let md: Map<string, string>;
beforeAll(async () => {
  surface = compilerSurface();
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  md = markdownFiles();
});

/** First cells of the Markdown table rows of a page: the names its tables document. */
const rowNames = (page: string) => new Set([...page.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!));

/** A page's section by its `## ` heading, up to the next one. */
const section = (page: string, heading: string) => page.split(/^## /m).find((s) => s.startsWith(`${heading}\n`)) ?? '';

describe('the client guide in every package README and in generated/docs/client.md', () => {
  const guides = () => [...ir.connectors.map((c) => `${c.id}/README.md`), 'docs/client.md'];

  test('documents every option of ClientOptions, RequestOptions and PageOptions with a type, a default and a description', () => {
    expect(surface.options.ClientOptions.size).toBeGreaterThanOrEqual(17);
    for (const file of guides()) {
      const options = section(md.get(file)!, 'Client options');
      for (const [name, props] of Object.entries(surface.options)) {
        for (const option of props.keys()) {
          const row = options.split('\n').find((l) => l.startsWith(`| \`${option}\` |`));
          expect(row, `${file}: ${name}.${option}`).toBeDefined();
          const cells = row!.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
          expect(cells, `${file}: ${name}.${option}`).toHaveLength(4);
          expect(cells.every((c) => c.length > 0), `${file}: ${name}.${option} has an empty cell`).toBe(true);
        }
      }
      // The options the issue names, by name.
      for (const option of ['timeoutMs', 'maxRetries', 'retryDelay', 'fetch', 'fetchOptions', 'logger', 'logLevel', 'headers', 'validateParams', 'validateResponses', 'signal', 'maxResponseBytes', 'maxPages']) {
        expect(rowNames(options).has(option), `${file}: ${option}`).toBe(true);
      }
    }
  });

  test('documents every error class (when it is thrown) and every field of each', () => {
    expect(surface.errors.size).toBeGreaterThanOrEqual(13);
    for (const file of guides()) {
      const errors = section(md.get(file)!, 'Errors');
      const names = rowNames(errors);
      for (const [name, { fields }] of surface.errors) {
        expect(names.has(name), `${file}: class ${name}`).toBe(true);
        for (const field of fields) expect(names.has(field), `${file}: ${name}.${field}`).toBe(true);
      }
      for (const field of ['status', 'code', 'body', 'headers', 'fieldErrors', 'retryAfterMs', 'requestId']) expect(names.has(field), `${file}: ${field}`).toBe(true);
    }
  });

  test('covers raw responses, retries, timeouts and abort, limits, logging with its variable, a proxy recipe and the mock', () => {
    for (const file of guides()) {
      const page = md.get(file)!;
      for (const heading of ['Promises, raw responses and request ids', 'Retries, timeouts and cancellation', 'Limits', 'Logging', 'Custom fetch and proxies', 'Testing against the mock']) {
        expect(section(page, heading), `${file}: ${heading}`).not.toBe('');
      }
      expect(page).toContain(`\`${LOG_LEVEL_ENV}\``);
      expect(section(page, 'Custom fetch and proxies')).toContain('new ProxyAgent(');
      expect(section(page, 'Promises, raw responses and request ids')).toContain(`\`${ir.service.requestIdHeader}\``);
    }
  });

  test("the mock's source ids in the docs are the ones the mock starts with", async () => {
    const mock = await startMock({ ir, port: 0 });
    try {
      const table = section(md.get('docs/client.md')!, 'Testing against the mock');
      for (const { id } of mock.sources) expect(table, id).toContain(`| \`${id}\` |`);
      for (const c of ir.connectors) expect(section(md.get(`${c.id}/README.md`)!, 'Testing against the mock'), c.id).toContain(`sourceId: '${mock.sources.find((s) => s.connector === c.id)!.id}'`);
    } finally {
      await mock.close();
    }
  });
});

describe('error fields in the reference', () => {
  test('every REFERENCE.md and the common contract list every ApiError field', () => {
    const apiError = surface.errors.get('ApiError')!;
    for (const file of [...ir.connectors.map((c) => `${c.id}/REFERENCE.md`), 'docs/service.md']) {
      const names = rowNames(md.get(file)!);
      for (const field of apiError.fields) expect(names.has(field), `${file}: ${field}`).toBe(true);
      for (const name of surface.errors.keys()) expect(names.has(name), `${file}: ${name}`).toBe(true);
    }
  });
});

describe("the generator's reading of the runtime sources", () => {
  test('finds exactly the options, error classes and fields the compiler sees, each documented', () => {
    const api = runtimeApi();
    const own = (members: { name: string }[]) => members.map((m) => m.name).sort();
    expect(own(api.clientOptions)).toEqual([...surface.options.ClientOptions.keys()].sort());
    expect(own(api.requestOptions)).toEqual([...surface.options.RequestOptions.keys()].sort());
    expect([...own(api.requestOptions), ...own(api.pageOptions)].sort()).toEqual([...surface.options.PageOptions.keys()].sort());
    expect(api.errors.map((e) => e.name).sort()).toEqual([...surface.errors.keys()].sort());
    for (const e of api.errors) {
      const seen = surface.errors.get(e.name)!;
      expect(e.extends, e.name).toBe(seen.base);
      expect(own(e.fields), e.name).toEqual([...seen.own].sort());
    }
    for (const m of api.clientOptions) expect(m.doc, m.name).not.toBe('');
  });
});
