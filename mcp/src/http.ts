/**
 * Streamable HTTP transport, stateless: every POST to /mcp gets a server and a transport of its own (the catalogue
 * and its clients are shared), answered as JSON. Bound to loopback by default; then only loopback Host headers are
 * served, so a web page cannot reach the server through DNS rebinding, and a request a browser sends for a page of
 * another origin (its Origin header) is refused, as the MCP transport asks.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { MCP_PATH } from './config.js';

/** Largest request body read, in bytes. */
const MAX_BODY = 4 * 1024 * 1024;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Whether an Origin header names a page served from this machine (`null`, a sandboxed or file page, does not). */
function loopbackOrigin(origin: string): boolean {
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  /** The endpoint's URL, e.g. http://127.0.0.1:3333/mcp. */
  url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/** JSON-RPC error codes of the transport's own answers (a body that is no JSON is a parse error). */
const PARSE_ERROR = -32700;
const SERVER_ERROR = -32000;

function jsonRpcError(res: ServerResponse, status: number, message: string, code = SERVER_ERROR): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** A request body over MAX_BODY (answered 413). */
class BodyTooLarge extends Error {}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyTooLarge(`request body over ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Serves `newServer()` per request at `http://host:port/mcp`; resolves once listening. */
export async function serveHttp(
  newServer: () => Server,
  host: string,
  port: number,
  log: (line: string) => void,
): Promise<HttpEndpoint> {
  const loopbackOnly = LOOPBACK.has(host);
  const http: HttpServer = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path !== MCP_PATH) return jsonRpcError(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);
      const hostname = (req.headers.host ?? '').replace(/:\d+$/, '');
      if (loopbackOnly && !LOOPBACK.has(hostname))
        return jsonRpcError(res, 403, `host ${JSON.stringify(hostname)} is not allowed`);
      const origin = req.headers.origin;
      if (loopbackOnly && origin !== undefined && !loopbackOrigin(origin))
        return jsonRpcError(res, 403, `origin ${JSON.stringify(origin)} is not allowed`);
      if (req.method !== 'POST')
        return jsonRpcError(res, 405, 'this server is stateless: POST JSON-RPC messages to it');
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (error) {
        if (error instanceof BodyTooLarge)
          return jsonRpcError(res.setHeader('connection', 'close'), 413, error.message);
        return jsonRpcError(res, 400, `malformed request: ${(error as Error).message}`, PARSE_ERROR);
      }
      const server = newServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    })().catch((error: unknown) => {
      log(`internal error: ${(error as Error).message}`);
      if (!res.headersSent) jsonRpcError(res, 500, 'internal error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, resolve);
  });
  const address = http.address() as AddressInfo;
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${MCP_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
