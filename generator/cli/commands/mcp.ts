/**
 * `connector-codegen mcp`: runs the generated MCP server (`<output>/mcp`) from a checkout, with the flags of its
 * own executable. Its sources and the connector packages it serves are bundled with esbuild straight from the
 * output directory (package names resolved through `<output>/tsconfig.paths.json`), so no build is needed; the MCP
 * SDK and ajv come from this installation. The token is read from CONNECTOR_TOKEN only.
 */
// Synchronous (small files): node:fs/promises would load with the CLI's start for every command.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENVIRONMENT, MCP_OPTIONS, TOKEN_VARIABLE } from '../../../mcp/src/config.js';
import { displayPath } from '../../lib/display-path.js';
import { UsageError } from '../args.js';
import { MIN_SECRET_LENGTH } from '../../../runtime/src/redact.js';
import type { Command } from './types.js';
import { sha256 } from '../../lib/sha256.js';
import { nativeImport } from '../../lib/native-import.js';

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
  if (!existsSync(path.join(dir, 'cli.ts'))) throw new Error(`${displayPath(outDir)} holds no MCP server (no ${displayPath(dir)}/cli.ts): run \`npx connector-codegen generate --out ${displayPath(outDir)}\` first`);
  const pathsFile = path.join(outDir, 'tsconfig.paths.json');
  const paths = (JSON.parse(readFileSync(pathsFile, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  // The map points the runtime at the repository's hand-written sources (../runtime/src, for its own tests): the output
  // holds a copy of them (runtime/src), which works wherever the output is.
  const own = (target: string) => (target.startsWith('../') && existsSync(path.join(outDir, target.slice(3))) ? path.join(outDir, target.slice(3)) : path.resolve(outDir, target));
  const alias = Object.fromEntries(Object.entries(paths).map(([name, [target]]) => [name, own(target!)]));
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
  const file = path.join(cache, `server-${sha256(code).slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    mkdirSync(cache, { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, code);
    renameSync(temp, file);
  }
  return (await nativeImport(pathToFileURL(file).href)) as ServerModule;
}

/** The mcp command. */
export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'Run the generated MCP server (<output>/mcp) over stdio or Streamable HTTP.',
  description: [
    `The service token is read from ${TOKEN_VARIABLE} only (there is no flag for it); each flag also has an`,
    `environment variable (${ENVIRONMENT['base-url']}, ${ENVIRONMENT.source}, …), which the flag overrides. The server is`,
    'bundled from the output directory on first use, so no build is needed. Stops on Ctrl-C, SIGTERM, or (stdio) when',
    'its input closes.',
  ].join('\n'),
  options: {
    ...MCP_OPTIONS,
    out: { type: 'string', value: 'DIR', description: 'Output directory holding the server (default: the config\'s "output", else generated).' },
    // Declared only to refuse it with the reason, instead of "unknown option".
    token: { type: 'string', value: 'T', description: `Refused: a token on the command line shows in process lists and shell history; set\n${TOKEN_VARIABLE} instead.` },
  },
  examples: [
    { command: "mcp --base-url http://127.0.0.1:4010 --source '*'", description: 'Every connector of a local mock (connector-codegen mock --port 4010), over stdio: dynamic tools.' },
    { command: 'mcp --base-url https://api.example.com --source payments=src_1 --read-only --tools static', description: 'One tool per read action of payments, for source src_1 (CONNECTOR_TOKEN set).' },
    { command: 'mcp --base-url https://api.example.com --source crm=src_2 --transport http --port 3333', description: 'Streamable HTTP at http://127.0.0.1:3333/mcp.' },
  ],
  async run(values, _positionals, io, context) {
    if (values.token !== undefined) throw new UsageError(`refusing --token: a token on the command line shows in process lists and shell history; set ${TOKEN_VARIABLE} instead`, 'mcp');
    const server = await loadServer(context.config().outDir);
    const token = process.env[TOKEN_VARIABLE];
    // As the server and the clients scrub: a token shorter than MIN_SECRET_LENGTH is a test token, left in place.
    const safe = (text: string) => (token && token.length >= MIN_SECRET_LENGTH ? text.split(token).join('[REDACTED]') : text);
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
