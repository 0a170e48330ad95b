/**
 * The command line of the MCP server: flags and environment → configuration → catalogue → stdio or Streamable
 * HTTP. Logs go to stderr (stdout is the stdio transport's channel). Configuration errors exit with code 2 and say
 * what to change; the token is never printed.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { buildCatalogue, toolMode, type ConnectorEntry, type ServerIdentity } from './catalogue.js';
import { ConfigError, MCP_OPTIONS, MCP_USAGE, resolveConfig, TOKEN_VARIABLE, type McpFlagValues } from './config.js';
import { serveHttp } from './http.js';
import { createMcpServer, stopCalls } from './server.js';

/** Where the command writes. */
export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Record<string, string | undefined>;
}

/** Help text. */
export function usage(bin: string): string {
  return [
    `Usage: ${bin} [options]   (MCP server of the Connector Execution Service)`,
    '',
    ...MCP_USAGE.map((l) => `  ${l}`),
    `  -h, --help           Show this help.`,
    '',
    `The token is read from ${TOKEN_VARIABLE}; there is no flag for it.`,
  ].join('\n');
}

/** A running server; `done` settles when it stops (a signal, or stdin closing for stdio). */
export interface RunningServer {
  /** What it listens on: `stdio` or the HTTP endpoint's URL. */
  endpoint: string;
  /** Settles when the server has stopped. */
  done: Promise<void>;
  /** Stops it. */
  close(): Promise<void>;
}

/** Starts the server from parsed flag values; throws ConfigError for a wrong configuration. */
export async function startServer(
  identity: ServerIdentity,
  connectors: readonly ConnectorEntry[],
  values: McpFlagValues,
  io: CliIO,
): Promise<RunningServer> {
  const config = resolveConfig(
    values,
    io.env,
    connectors.map((c) => c.id),
  );
  let catalogue;
  try {
    catalogue = buildCatalogue(config, connectors);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  if (catalogue.exposed.size === 0)
    throw new ConfigError(
      'no tool is exposed: the --connectors, --entities, --actions and --read-only filters leave nothing',
    );
  const mode = toolMode(config, catalogue);
  const summary = `${catalogue.exposed.size} actions of ${new Set([...catalogue.exposed.values()].map((b) => b.tool.connector)).size} connectors, ${mode} tools${config.readOnly ? ', read-only' : ''}`;
  if (config.transport === 'http') {
    const endpoint = await serveHttp(
      () => createMcpServer(identity, config, catalogue),
      config.host,
      config.port,
      (line) => io.stderr(`${line}\n`),
    );
    io.stderr(`${identity.name} listening on ${endpoint.url} (${summary})\n`);
    let stop!: () => void;
    const done = new Promise<void>((resolve) => (stop = resolve));
    // Stopping ends the calls still waiting on the service first: a slow or hung one would hold the server up.
    const close = async () => {
      stopCalls(catalogue);
      await endpoint.close();
      stop();
    };
    return { endpoint: endpoint.url, done, close };
  }
  const server = createMcpServer(identity, config, catalogue);
  const transport = new StdioServerTransport();
  const done = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  // The stdio transport does not notice its input ending: a client that goes away ends the server, once the requests
  // it sent before are answered (`… | server` piping a few requests, then EOF, gets every answer).
  const unanswered = new Set<string | number>();
  let inputEnded = false;
  const closeWhenAnswered = () => inputEnded && unanswered.size === 0 && void server.close();
  const receive = transport.onmessage;
  transport.onmessage = (message) => {
    if ('method' in message && 'id' in message) unanswered.add(message.id);
    receive?.(message); // the stdio transport passes no extra
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message); // the stdio transport takes no options
    if (!('method' in message) && 'id' in message && message.id !== undefined && unanswered.delete(message.id))
      closeWhenAnswered();
  };
  process.stdin.once('end', () => {
    inputEnded = true;
    closeWhenAnswered();
  });
  io.stderr(`${identity.name} on stdio (${summary})\n`);
  return { endpoint: 'stdio', done, close: () => (stopCalls(catalogue), server.close()) };
}

/** Runs the command; resolves with the exit code once the server stops. */
export async function main(
  identity: ServerIdentity,
  connectors: readonly ConnectorEntry[],
  argv: string[],
  io: CliIO,
): Promise<number> {
  if (argv.includes('--token') || argv.some((a) => a.startsWith('--token='))) {
    io.stderr(
      `refusing --token: a token on the command line shows in process lists and shell history; set ${TOKEN_VARIABLE} instead\n`,
    );
    return 2;
  }
  let values: McpFlagValues;
  try {
    values = parseArgs({
      args: argv,
      options: { ...MCP_OPTIONS, help: { type: 'boolean', short: 'h' } },
      allowPositionals: false,
    }).values as McpFlagValues & { help?: boolean };
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${usage(identity.name)}\n`);
    return 2;
  }
  if ((values as { help?: boolean }).help) {
    io.stdout(`${usage(identity.name)}\n`);
    return 0;
  }
  try {
    const running = await startServer(identity, connectors, values, io);
    const stop = () => void running.close();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await running.done;
    return 0;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr(`${identity.name}: ${error.message}\n`);
    return 2;
  }
}
