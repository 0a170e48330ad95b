/**
 * The MCP server of the Connector Execution Service, as a library: start it from code (`startServer`, or `main` with
 * command-line arguments) over every connector (`connectors`) or entries of your own, and read its configuration
 * rules (`resolveConfig`, `buildCatalogue`). The executable is bin.ts. The MCP SDK the server runs on is bundled
 * into the package, so no type of it is part of this API.
 */
export {
  buildCatalogue,
  DYNAMIC_THRESHOLD,
  DYNAMIC_TOOLS,
  toolMode,
  type BoundTool,
  type Catalogue,
  type ConnectorEntry,
  type ServerIdentity,
} from './catalogue.js';
export { main, startServer, usage, type CliIO, type RunningServer } from './cli.js';
export {
  ConfigError,
  ENVIRONMENT,
  MCP_OPTIONS,
  MCP_PATH,
  MCP_USAGE,
  resolveConfig,
  TOKEN_VARIABLE,
  type McpFlagValues,
  type McpServerConfig,
  type ToolMode,
} from './config.js';
export { connectors, identity } from './connectors.js';
export { redactToken } from './redact.js';
