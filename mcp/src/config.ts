/**
 * The MCP server's configuration, from flags and the environment (a flag wins over its variable). The token is read
 * from the environment only — a flag would sit in shell history and process lists — and is never printed.
 */

/**
 * Flags of the server: node:util parseArgs options, each with its help (`value` placeholder, `description`, and the
 * `choices` a flag allows). Each has an environment variable too (ENVIRONMENT); a flag wins over its variable. No flag
 * has a `default`: an absent flag falls back to its variable, then to the default resolveConfig applies.
 */
export const MCP_OPTIONS = {
  'base-url': {
    type: 'string',
    value: 'URL',
    description: 'Service address (CONNECTOR_BASE_URL). The token is read from CONNECTOR_TOKEN only.',
  },
  source: {
    type: 'string',
    multiple: true,
    value: 'C=ID',
    description:
      'Source ID serves connector C; repeatable (CONNECTOR_SOURCES="payments=src_1,crm=src_2").\n"--source C" uses the source id C; "--source \'*\'" maps every connector to its own id (the mock).',
  },
  connectors: { type: 'string', value: 'A,B', description: 'Expose only these connectors (CONNECTOR_MCP_CONNECTORS).' },
  entities: {
    type: 'string',
    value: 'C.E,…',
    description: 'Expose only these entities, as C.E or E (CONNECTOR_MCP_ENTITIES).',
  },
  actions: { type: 'string', value: 'list,get', description: 'Expose only these actions (CONNECTOR_MCP_ACTIONS).' },
  'read-only': { type: 'boolean', description: 'No create, update or delete tools (CONNECTOR_MCP_READ_ONLY=1).' },
  tools: {
    type: 'string',
    value: 'MODE',
    choices: ['static', 'dynamic', 'auto'],
    description:
      'static (one tool per pair), dynamic (list, describe, execute) or auto (the default: dynamic when\nmore than 50 tools would be exposed) (CONNECTOR_MCP_TOOLS).',
  },
  transport: {
    type: 'string',
    value: 'T',
    choices: ['stdio', 'http'],
    description: 'stdio (the default) or http: Streamable HTTP at /mcp (CONNECTOR_MCP_TRANSPORT).',
  },
  host: {
    type: 'string',
    value: 'H',
    description: 'Interface the http transport listens on; default 127.0.0.1 (CONNECTOR_MCP_HOST).',
  },
  port: {
    type: 'string',
    value: 'N',
    description: 'Port of the http transport; default 3333, 0 picks a free one (CONNECTOR_MCP_PORT).',
  },
  'max-chars': {
    type: 'string',
    value: 'N',
    description:
      'Largest result text of one call; default 20000. Longer results are cut and say how to go\non (CONNECTOR_MCP_MAX_CHARS).',
  },
} as const;

/** Path the Streamable HTTP endpoint answers on. */
export const MCP_PATH = '/mcp';

/** Name of the variable holding the service token. */
export const TOKEN_VARIABLE = 'CONNECTOR_TOKEN';

/** The environment variable of each flag. */
export const ENVIRONMENT: Record<keyof typeof MCP_OPTIONS, string> = {
  'base-url': 'CONNECTOR_BASE_URL',
  source: 'CONNECTOR_SOURCES',
  connectors: 'CONNECTOR_MCP_CONNECTORS',
  entities: 'CONNECTOR_MCP_ENTITIES',
  actions: 'CONNECTOR_MCP_ACTIONS',
  'read-only': 'CONNECTOR_MCP_READ_ONLY',
  tools: 'CONNECTOR_MCP_TOOLS',
  transport: 'CONNECTOR_MCP_TRANSPORT',
  host: 'CONNECTOR_MCP_HOST',
  port: 'CONNECTOR_MCP_PORT',
  'max-chars': 'CONNECTOR_MCP_MAX_CHARS',
};

/** Usage lines of the server's flags (from MCP_OPTIONS): each flag and its placeholder, then its description. */
export const MCP_USAGE: readonly string[] = Object.entries(MCP_OPTIONS).flatMap(([name, option]) => {
  const label = `--${name}${'value' in option ? ` ${option.value}` : ''}`;
  return option.description.split('\n').map((text, i) => `${(i === 0 ? label : '').padEnd(21)}${text}`);
});

/** Tool modes. */
export type ToolMode = 'static' | 'dynamic' | 'auto';

/** Everything the server needs to start. */
export interface McpServerConfig {
  /** Service address. */
  baseUrl: string;
  /** Bearer token of the service (from CONNECTOR_TOKEN). */
  token: string;
  /** Connector id → source id. */
  sources: Map<string, string>;
  /** Only these connectors (undefined: every mapped one). */
  connectors?: string[];
  /** Only these entities, as `connector.entity` or `entity` (undefined: all). */
  entities?: string[];
  /** Only these actions (undefined: all). */
  actions?: string[];
  /** No write tools. */
  readOnly: boolean;
  /** static, dynamic or auto. */
  tools: ToolMode;
  /** stdio or http. */
  transport: 'stdio' | 'http';
  /** HTTP interface. */
  host: string;
  /** HTTP port (0: a free one). */
  port: number;
  /** Largest result text of one call, in characters. */
  maxChars: number;
}

/** A configuration error: said to the user as it is, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function integer(
  value: string | undefined,
  flag: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback;
  const n = /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ConfigError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T))
    throw new ConfigError(`--${flag} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
  return value as T;
}

/** `payments=src_1`, `payments` (source id = connector id) or `*` (every connector, each its own id). */
function sourceMap(entries: string[], known: readonly string[]): Map<string, string> {
  const sources = new Map<string, string>();
  for (const entry of entries) {
    if (entry === '*') {
      for (const id of known) if (!sources.has(id)) sources.set(id, id);
      continue;
    }
    const at = entry.indexOf('=');
    const connector = (at < 0 ? entry : entry.slice(0, at)).trim();
    const source = (at < 0 ? connector : entry.slice(at + 1)).trim();
    if (!known.includes(connector))
      throw new ConfigError(
        `--source ${JSON.stringify(entry)}: unknown connector '${connector}' (known: ${known.join(', ')})`,
      );
    if (!source) throw new ConfigError(`--source ${JSON.stringify(entry)}: the source id is empty`);
    if (sources.has(connector) && sources.get(connector) !== source)
      throw new ConfigError(
        `--source: connector '${connector}' is mapped twice; one server serves one source per connector`,
      );
    sources.set(connector, source);
  }
  return sources;
}

/** Parsed flag values (node:util parseArgs). */
export type McpFlagValues = {
  [K in keyof typeof MCP_OPTIONS]?: (typeof MCP_OPTIONS)[K] extends { multiple: true }
    ? string[]
    : (typeof MCP_OPTIONS)[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

/** The configuration from flag values and the environment; `known` are the connector ids the server can serve. */
export function resolveConfig(
  values: McpFlagValues,
  env: Record<string, string | undefined>,
  known: readonly string[],
): McpServerConfig {
  const str = (flag: Exclude<keyof typeof MCP_OPTIONS, 'source' | 'read-only'>) =>
    (values[flag] as string | undefined) ?? (env[ENVIRONMENT[flag]] || undefined);
  const token = env[TOKEN_VARIABLE];
  if (!token)
    throw new ConfigError(`set ${TOKEN_VARIABLE} to the service token (it is read from the environment only)`);
  const baseUrl = str('base-url');
  if (!baseUrl) throw new ConfigError(`the service address is missing: --base-url URL or ${ENVIRONMENT['base-url']}`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`--base-url is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  // Refused here, not at every call: fetch speaks http(s) only, and refuses a URL with credentials, whose error
  // message would repeat them to the model.
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError(`--base-url must be an http or https URL, not ${url.protocol.slice(0, -1)}:`);
  if (url.username || url.password)
    throw new ConfigError(
      `--base-url must not hold a user name or password: the service token (${TOKEN_VARIABLE}) authenticates`,
    );
  const sourceEntries = values.source?.length ? values.source : (list(env[ENVIRONMENT.source]) ?? []);
  const sources = sourceMap(sourceEntries, known);
  if (sources.size === 0)
    throw new ConfigError(`no source mapped: --source CONNECTOR=SOURCE_ID (connectors: ${known.join(', ')})`);
  const connectors = list(str('connectors'));
  for (const c of connectors ?? [])
    if (!sources.has(c))
      throw new ConfigError(`--connectors: '${c}' has no source (mapped: ${[...sources.keys()].join(', ')})`);
  const readOnlyEnv = env[ENVIRONMENT['read-only']];
  const config: McpServerConfig = {
    baseUrl,
    token,
    sources,
    readOnly:
      values['read-only'] ??
      (readOnlyEnv !== undefined && !['', '0', 'false', 'no'].includes(readOnlyEnv.toLowerCase())),
    tools: oneOf(str('tools'), 'tools', ['static', 'dynamic', 'auto'] as const, 'auto'),
    transport: oneOf(str('transport'), 'transport', ['stdio', 'http'] as const, 'stdio'),
    host: str('host') ?? '127.0.0.1',
    port: integer(str('port'), 'port', 3333, 0, 65535),
    maxChars: integer(str('max-chars'), 'max-chars', 20_000, 500),
  };
  const entities = list(str('entities'));
  const actions = list(str('actions'));
  if (connectors) config.connectors = connectors;
  if (entities) config.entities = entities;
  if (actions) config.actions = actions;
  return config;
}
