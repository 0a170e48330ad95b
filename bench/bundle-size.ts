/**
 * What a user's bundle costs: a program that imports one generated client and calls one method, bundled as a user
 * would (esbuild --bundle --minify, ESM) and compressed with gzip -9; beside it, the same execute call made with
 * openapi-fetch. Packages resolve to their sources here (generated/tsconfig.paths.json), which is what their
 * dist/esm is compiled from. The bench prints the figures; test/bundle-size.test.ts holds the budget.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { ConnectorIR } from '../generator/ir.js';
import { clientClassName } from '../generator/emitters/clients/client-names.js';
import { camelCase } from '../generator/emitters/naming.js';

const repo = path.resolve(import.meta.dirname, '..');

/** The budget of a one-method program, runtime included (issue: "≤ 6 KB gzipped"). */
export const ONE_METHOD_BUDGET_BYTES = 6 * 1024;

/** Sizes of one bundle. */
export interface BundleSize {
  /** Minified bytes. */
  minified: number;
  /** gzip -9 bytes. */
  gzipped: number;
  /** The bundle itself. */
  code: string;
}

/** Package name → source file, from the same map tsc and vitest use. */
function aliases(): Record<string, string> {
  const file = path.join(repo, 'generated/tsconfig.paths.json');
  const paths = (JSON.parse(readFileSync(file, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  return Object.fromEntries(Object.entries(paths).map(([name, [target]]) => [name, path.resolve(path.dirname(file), target!)]));
}

/** Bundles a program given as text (minified unless told otherwise) and measures it. */
export async function bundleProgram(source: string, { minify = true } = {}): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: source, loader: 'ts', resolveDir: repo },
    bundle: true,
    minify,
    format: 'esm',
    write: false,
    logLevel: 'silent',
    alias: aliases(),
  });
  const code = result.outputFiles[0]!.text;
  return { minified: Buffer.byteLength(code), gzipped: gzipSync(code, { level: 9 }).byteLength, code };
}

/** The method a one-method program calls: a get where the connector has one (the README's example), else the first. */
export function sampleMethod(connector: ConnectorIR): { entity: string; action: string } {
  const entity = connector.entities.find((e) => e.actions.some((a) => a.name === 'get')) ?? connector.entities[0]!;
  const action = entity.actions.find((a) => a.name === 'get') ?? entity.actions[0]!;
  return { entity: entity.name, action: action.name };
}

/** A program that imports one client and calls one method of it. */
export function oneMethodProgram(connector: ConnectorIR): string {
  const { entity, action } = sampleMethod(connector);
  const client = clientClassName(connector);
  return [
    `import { ${client} } from '${connector.package.name}';`,
    `const client = new ${client}({ baseUrl: 'https://api.example.com', token: 'token', sourceId: 'source' });`,
    `(client.${camelCase(entity)}.${camelCase(action)} as (params: object) => Promise<unknown>)({ id: '1' }).then(console.log);`,
  ].join('\n');
}

/** A program that hands one connector's agent tools to a framework (OpenAI's shape): client, definitions, adapters. */
export function toolsProgram(connector: ConnectorIR): string {
  const client = clientClassName(connector);
  return [
    `import { ${client} } from '${connector.package.name}';`,
    `import { openaiTools, tools } from '${connector.package.name}/tools';`,
    `console.log(openaiTools(tools, new ${client}({ baseUrl: 'https://api.example.com', token: 'token', sourceId: 'source' })));`,
  ].join('\n');
}

/** The same execute call made with openapi-fetch (paths typed by the OpenAPI export; types cost no bytes). */
export function openapiFetchProgram(connector: ConnectorIR): string {
  const { entity, action } = sampleMethod(connector);
  return [
    "import createClient from 'openapi-fetch';",
    "const client = createClient<any>({ baseUrl: 'https://api.example.com', headers: { authorization: 'Bearer token' } });",
    "client.POST('/api/v1/connectors/sources/{source_id}/execute', {",
    "  params: { path: { source_id: 'source' } },",
    `  body: { entity: '${entity}', action: '${action}', params: { id: '1' } },`,
    '}).then(({ data, error }) => console.log(data ?? error));',
  ].join('\n');
}
