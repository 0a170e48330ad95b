/**
 * The MCP server of the Connector Execution Service, as a library: start it from code (`startServer`), or build the
 * MCP `Server` over a catalogue of your own (`createMcpServer`, `buildCatalogue`). The executable is bin.ts.
 */
export { buildCatalogue, DYNAMIC_THRESHOLD, toolMode, type BoundTool, type Catalogue, type ConnectorEntry } from './catalogue.js';
export { main, startServer, usage, type CliIO, type RunningServer } from './cli.js';
export { ConfigError, ENVIRONMENT, MCP_OPTIONS, MCP_USAGE, resolveConfig, TOKEN_VARIABLE, type McpFlagValues, type McpServerConfig, type ToolMode } from './config.js';
export { connectors, identity } from './connectors.js';
export { MCP_PATH, serveHttp, type HttpEndpoint } from './http.js';
export { createMcpServer, DYNAMIC_TOOLS, type ServerIdentity } from './server.js';
