/**
 * `connector-codegen mcp`: runs the generated MCP server (`<output>/mcp`) from a checkout, with the flags of its
 * own executable. Its sources and the connector packages it serves are bundled with esbuild straight from the
 * output directory (package names resolved through `<output>/tsconfig.paths.json`), so no build is needed; the MCP
 * SDK and ajv come from this installation. The token is read from CONNECTOR_TOKEN only.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MCP_OPTIONS, MCP_USAGE, TOKEN_VARIABLE } from '../../../mcp/src/config.js';
import { displayPath } from '../../lib/display-path.js';
import type { Command } from './types.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** What the bundle exports (mcp/src/cli.ts and the generated connectors.ts). */
interface ServerModule {
  startServer(identity: unknown, connectors: unknown, values: object, io: { stdout(t: string): void; stderr(t: string): void; env: NodeJS.ProcessEnv }): Promise<{ done: Promise<void>; close(): Promise<void> }>;
  ConfigError: new (message: string) => Error;
  identity: unknown;
  connectors: unknown;
}

/** Bundles the output's MCP server into this installation's cache (once per content) and loads it. */
async function loadServer(outDir: string): Promise<ServerModule> {
  const dir = path.join(outDir, 'mcp/src');
  if (!existsSync(path.join(dir, 'cli.ts'))) throw new Error(`${displayPath(outDir)} holds no MCP server (no ${displayPath(dir)}/cli.ts): run \`npx connector-codegen generate\` first`);
  const pathsFile = path.join(outDir, 'tsconfig.paths.json');
  const paths = (JSON.parse(await readFile(pathsFile, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  const alias = Object.fromEntries(Object.entries(paths).map(([name, [target]]) => [name, path.resolve(outDir, target!)]));
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: `export { startServer } from './cli.ts';\nexport { ConfigError } from './config.ts';\nexport { connectors, identity } from './connectors.ts';\n`, loader: 'ts', resolveDir: dir },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    alias,
    external: ['@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*', 'ajv', 'ajv/*'],
  });
  const code = result.outputFiles[0]!.text;
  // Inside this installation's node_modules, so the externals resolve to its copies.
  const cache = path.join(repo, 'node_modules/.cache/connector-codegen-mcp');
  const file = path.join(cache, `server-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    await mkdir(cache, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, code);
    await rename(temp, file);
  }
  return (await import(pathToFileURL(file).href)) as ServerModule;
}

/** The mcp command. */
export const mcpCommand: Command = {
  name: 'mcp',
  usage: [
    'mcp                   Run the generated MCP server (<output>/mcp) over stdio or Streamable HTTP; the token',
    `                      is read from ${TOKEN_VARIABLE}. Its flags:`,
    ...MCP_USAGE.map((line) => `    ${line}`),
    '    --out DIR         Output directory holding the server (default: the config\'s "output", else generated).',
  ],
  options: { ...MCP_OPTIONS, out: { type: 'string' }, token: { type: 'string' } },
  async run(values, positionals, io, context) {
    if (values.token !== undefined) {
      io.stderr(`connector-codegen mcp: refusing --token: a token on the command line shows in process lists and shell history; set ${TOKEN_VARIABLE} instead\n`);
      return 2;
    }
    if (positionals.length) {
      io.stderr(`connector-codegen mcp: unexpected argument '${positionals[0]}'\n`);
      return 2;
    }
    const server = await loadServer(context.config().outDir);
    const token = process.env[TOKEN_VARIABLE];
    const safe = (text: string) => (token ? text.split(token).join('[REDACTED]') : text);
    const { out: _out, token: _token, ...flags } = values;
    try {
      const running = await server.startServer(server.identity, server.connectors, flags, { stdout: io.stdout, stderr: (t) => io.stderr(safe(t)), env: process.env });
      const stop = () => void running.close();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await running.done;
      return 0;
    } catch (error) {
      if (!(error instanceof server.ConfigError)) throw new Error(safe((error as Error).message));
      io.stderr(`connector-codegen mcp: ${safe(error.message)}\n`);
      return 2;
    }
  },
};
