/**
 * Agent tools: one {@link ToolDefinition} per entity–action pair (generated into each package's `/tools` entry, with
 * its JSON Schema and a description written for a model), run against a client by {@link runTool}, which bounds
 * what one call returns (the output guard) and says how to continue. The framework shapes (MCP, OpenAI, Anthropic,
 * Vercel AI SDK) are in tool-adapters.ts. Nothing here is imported by a client: a program that only makes calls
 * does not bundle it.
 */
import { ApiError, PaginationError, isRecord } from './errors.js';
import type { RequestOptions } from './options.js';
import { nextFromUrl, walk, type PageView, type PaginationDescriptor } from './pagination.js';
import { ParamValidationError } from './validation.js';

/** A JSON Schema object. */
export type JsonSchema = { [key: string]: unknown };

/** Hints for tool users (the MCP tool annotations): what calling the tool does. */
export interface ToolAnnotations {
  /** Human title. */
  title: string;
  /** The action only reads. */
  readOnlyHint: boolean;
  /** The action may destroy data (delete). */
  destructiveHint: boolean;
  /** Calling it twice with the same arguments has no further effect (get, list, search, …). */
  idempotentHint: boolean;
  /** It reaches a third-party system whose data changes outside this tool. */
  openWorldHint: boolean;
}

/** One entity–action pair as a tool; `C` is the connector's client class. */
export interface ToolDefinition<C = unknown> {
  /** Stable tool name, `<connector>_<entity>_<action>`: at most 64 characters of `[a-zA-Z0-9_-]`. */
  name: string;
  /** Human title. */
  title: string;
  /** What the tool does, returns and how to page, written for a model. */
  description: string;
  /** Connector id. */
  connector: string;
  /** Entity as sent in the execute body. */
  entity: string;
  /** Action as sent in the execute body. */
  action: string;
  /** Whether the action reads or writes. */
  kind: 'read' | 'write';
  /** list (records + meta), single (one record), hits (uniform search), binary (download). */
  result: 'list' | 'single' | 'hits' | 'binary';
  /** MCP tool annotations. */
  annotations: ToolAnnotations;
  /** JSON Schema (2020-12) of the params, from the spec; search: the filter/sort grammar of the entity's searchable fields. */
  inputSchema: JsonSchema;
  /** How list and hits results page (absent: one page). */
  paging?: PaginationDescriptor;
  /** Calls the action on a client of the connector. */
  call(client: C, params: Record<string, unknown>, options?: RequestOptions): PromiseLike<unknown>;
}

/** Name of the argument every list, get and search tool takes besides the spec's params: fields to keep. */
export const FIELDS_ARGUMENT = '_fields';

/** Default bound of one result's JSON text, in characters. */
export const DEFAULT_MAX_CHARS = 20_000;

/** How {@link runTool} runs a call. */
export interface RunToolOptions extends RequestOptions {
  /** Largest JSON text of one result, in characters (default {@link DEFAULT_MAX_CHARS}); longer results are cut and say so. */
  maxChars?: number;
}

/** What a failed call reports: the API's message and field errors, or the invalid arguments. */
export interface ToolError {
  /** One readable sentence (the token never appears in it). */
  message: string;
  /** HTTP status, when the service answered. */
  status?: number;
  /** The error body's first error code. */
  code?: string;
  /** Which params were wrong and why. */
  field_errors?: { field?: string; message?: string; error_code?: string }[];
}

/** The outcome of one tool call: structured content, a compact text rendering, and whether it failed. */
export interface ToolOutcome {
  /** false: `structured.error` says why. */
  ok: boolean;
  /**
   * The result as an object: records/meta, record, hits, file, or error; plus `next`, `truncated`, and
   * `absent_fields` (names of `_fields` no record of the result holds).
   */
  structured: Record<string, unknown>;
  /** A compact rendering of the same for a model's context. */
  text: string;
}

/** Keeps only `paths` (dotted) of a record. */
function project(value: unknown, paths: readonly string[]): unknown {
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const parts = path.split('.');
    let from: unknown = value;
    for (const part of parts) from = isRecord(from) ? from[part] : undefined;
    if (from === undefined) continue;
    let to = out;
    parts
      .slice(0, -1)
      .forEach((part) => (to = (isRecord(to[part]) ? to[part] : (to[part] = {})) as Record<string, unknown>));
    to[parts[parts.length - 1]!] = from;
  }
  return out;
}

const size = (value: unknown) => JSON.stringify(value)?.length ?? 0;

/** The length of `bytes` without a UTF-8 character its end cuts short (a lead byte and fewer continuation bytes than it announces). */
function completeUtf8Length(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back for its lead
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** A download read into text (UTF-8 when it decodes) or base64, at most `max` characters as sent. */
async function fileOf(result: unknown, max: number): Promise<Record<string, unknown>> {
  const download = result as {
    contentType?: string;
    filename?: string;
    contentLength?: number;
    body: AsyncIterable<Uint8Array>;
  };
  const chunks: Uint8Array[] = [];
  let read = 0;
  let cut = false;
  for await (const chunk of download.body) {
    chunks.push(chunk.subarray(0, Math.max(0, max - read)));
    read += chunk.length;
    if (read >= max) {
      cut = read > max;
      break;
    }
  }
  let bytes = new Uint8Array(Math.min(read, max));
  let at = 0;
  for (const c of chunks) bytes.set(c, (at += c.length) - c.length);
  let content: string;
  let encoding: 'utf8' | 'base64' = 'utf8';
  try {
    // A cut may split a character: its first bytes are dropped (up to 3), not taken for binary content.
    content = new TextDecoder('utf-8', { fatal: true }).decode(
      cut ? bytes.subarray(0, completeUtf8Length(bytes)) : bytes,
    );
    // max counts the text as sent (JSON escapes included): quotes and control characters take more than one.
    for (let over = escapedLength(content) - max; over > 0; over = escapedLength(content) - max) {
      content = content.slice(0, Math.max(0, content.length - Math.ceil(over / 2)));
      if (
        content.length &&
        content.charCodeAt(content.length - 1) >= 0xd800 &&
        content.charCodeAt(content.length - 1) < 0xdc00
      )
        content = content.slice(0, -1); // no lone half of a surrogate pair
      cut = true;
    }
  } catch {
    encoding = 'base64';
    // Base64 takes 4 characters for every 3 bytes: max counts the characters.
    const fits = Math.floor(max / 4) * 3;
    if (bytes.length > fits) [bytes, cut] = [bytes.subarray(0, fits), true];
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    content = btoa(binary);
  }
  return {
    file: {
      filename: download.filename ?? null,
      content_type: download.contentType ?? null,
      size: download.contentLength ?? null,
      encoding,
      content,
    },
    ...(cut
      ? {
          truncated: {
            reason: `the content is cut to ${content.length} characters, under ${max}; ask for a byte range for the rest where the action takes one`,
          },
        }
      : {}),
  };
}

/** The length of `text` as a JSON string, without its quotes. */
const escapedLength = (text: string) => JSON.stringify(text).length - 2;

/**
 * The arguments of the call that fetches the page after `loaded` (taken as the first page), or null on the last
 * page: the runtime's walker, run one step, says which params it would load next. A scheme without `read` whose
 * next value is a URL gets {@link nextFromUrl} (tool descriptors are plain data), as generated clients give it.
 */
async function nextArgs(
  scheme: PaginationDescriptor | undefined,
  args: Record<string, unknown>,
  params: Record<string, unknown>,
  loaded: PageView,
): Promise<Record<string, unknown> | null> {
  if (!scheme) return null;
  if (scheme.next.queryParam !== undefined && !scheme.read) scheme = { ...scheme, read: nextFromUrl };
  let asked: Record<string, unknown> | undefined;
  const load = (next: Record<string, unknown> | undefined) => ((asked = next), Promise.resolve(loaded));
  try {
    // Two pages at most: the given one, then the one whose params are wanted.
    for await (const _ of walk(Promise.resolve(loaded), load, params, scheme, { maxPages: 2 }));
  } catch (error) {
    // The server repeated a paging value: following it would loop, so there is no next page to offer.
    if (error instanceof PaginationError) return null;
    throw error;
  }
  return asked ? { ...args, [scheme.param]: asked[scheme.param] } : null;
}

/** Cuts items off the end until the result's JSON fits `maxChars`; returns how many stay. */
async function fitItems(build: (count: number) => unknown, total: number, maxChars: number): Promise<number> {
  if (size(await build(total)) <= maxChars) return total;
  let low = 0;
  let high = total;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (size(await build(mid)) <= maxChars) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** The structured result of a list or hits page, guarded and with the arguments of the next call. */
async function pageOutcome(
  tool: ToolDefinition<never>,
  args: Record<string, unknown>,
  params: Record<string, unknown>,
  page: Record<string, unknown>,
  fields: readonly string[] | undefined,
  maxChars: number,
): Promise<Record<string, unknown>> {
  const hits = tool.result === 'hits';
  const raw = (hits ? page['hits'] : page['records']) as unknown[];
  const items = !fields
    ? raw
    : raw.map((item) =>
        hits && isRecord(item) ? { ...item, data: project(item['data'], fields) } : project(item, fields),
      );
  const meta = hits ? page : page['meta'];
  const scheme = tool.paging;
  // Paging reads the records as the server sent them (a projection may have dropped the cursor field).
  const next = await nextArgs(scheme, args, params, { items: raw, meta });
  const build = (count: number, continuation = next) =>
    hits
      ? { ...page, hits: items.slice(0, count), next: continuation }
      : { records: items.slice(0, count), meta: meta ?? null, next: continuation };
  const all = await fitItems(build, items.length, maxChars);
  if (all === items.length) return build(all);
  // Cut short: where the scheme continues after a given record, continue after the last one shown; otherwise the
  // server's next page follows the whole page, and the model is told to ask for fewer items to see the rest. The
  // note about the cut counts toward the limit too, so fewer items may stay.
  const what = hits ? 'hits' : 'records';
  const cut = async (kept: number): Promise<Record<string, unknown>> => {
    const resumes =
      scheme !== undefined && (scheme.next.from === 'last_record' || scheme.next.from === 'offset') && kept > 0;
    // The page is not over after the kept items, so no stop condition applies (a short page is short by the cut).
    const continuation = resumes
      ? await nextArgs({ ...scheme, stop: [] }, args, params, { items: raw.slice(0, kept), meta })
      : next;
    const omitted = items.length - kept;
    const reason = resumes
      ? `${omitted} of ${items.length} ${what} were left out to stay under ${maxChars} characters; 'next' continues after the last one shown`
      : `${omitted} of ${items.length} ${what} were left out to stay under ${maxChars} characters; ask again with a smaller limit or ${FIELDS_ARGUMENT} to see them${next ? "; 'next' is the page after this whole page" : ''}`;
    return { ...build(kept, continuation), truncated: { shown: kept, of: items.length, reason } };
  };
  return cut(await fitItems(cut, all, maxChars));
}

/** A single record, its top-level fields dropped from the end until it fits. */
async function recordOutcome(record: unknown, maxChars: number): Promise<Record<string, unknown>> {
  if (!isRecord(record) || size({ record }) <= maxChars) return { record: record ?? null };
  const keys = Object.keys(record);
  const kept = await fitItems(
    (count) => ({ record: Object.fromEntries(keys.slice(0, count).map((k) => [k, record[k]])) }),
    keys.length,
    maxChars - 200,
  );
  return {
    record: Object.fromEntries(keys.slice(0, kept).map((k) => [k, record[k]])),
    truncated: {
      omitted_fields: keys.slice(kept),
      reason: `fields left out to stay under ${maxChars} characters; ask for them with ${FIELDS_ARGUMENT}`,
    },
  };
}

/** What an error says, as a tool error. */
export function toolError(error: unknown): ToolError {
  if (error instanceof ParamValidationError) {
    return {
      message: error.message,
      field_errors: error.problems.map((p) => ({ field: p.path, message: p.message, error_code: p.constraint })),
    };
  }
  if (error instanceof ApiError) {
    return {
      message: error.message,
      ...(error.status !== undefined ? { status: error.status } : {}),
      ...(error.code ? { code: error.code } : {}),
      ...(error.fieldErrors.length ? { field_errors: error.fieldErrors } : {}),
    };
  }
  return { message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}

/** The compact text a model reads: one summary line, then the data as compact JSON (one line per item). */
export function renderText(tool: Pick<ToolDefinition, 'name'>, structured: Record<string, unknown>): string {
  const error = structured['error'] as ToolError | undefined;
  if (error) {
    const fields = (error.field_errors ?? [])
      .map((f) => `\n- ${f.field ?? '(body)'}: ${f.message ?? f.error_code ?? 'invalid'}`)
      .join('');
    return `Error from ${tool.name}: ${error.message}${fields}`;
  }
  const lines: string[] = [];
  const items = (structured['records'] ?? structured['hits']) as unknown[] | undefined;
  if (items) {
    const rest = Object.fromEntries(
      Object.entries(structured).filter(
        ([k]) => k !== 'records' && k !== 'hits' && k !== 'next' && k !== 'truncated' && k !== 'absent_fields',
      ),
    );
    lines.push(
      `${items.length} ${structured['hits'] ? 'hits' : 'records'}${Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''}`,
    );
    for (const item of items) lines.push(JSON.stringify(item));
  } else {
    lines.push(JSON.stringify(structured['record'] ?? structured['file'] ?? null));
  }
  const truncated = structured['truncated'] as { reason?: string } | undefined;
  if (truncated?.reason) lines.push(`Truncated: ${truncated.reason}.`);
  const absent = structured['absent_fields'] as string[] | undefined;
  if (absent)
    lines.push(
      `No record holds ${absent.join(', ')} (${FIELDS_ARGUMENT}): check the names against the tool's description.`,
    );
  if ('next' in structured)
    lines.push(
      structured['next'] ? `More: call ${tool.name} with ${JSON.stringify(structured['next'])}` : 'Last page.',
    );
  return lines.join('\n');
}

/**
 * Runs one tool call: the spec's params go to the client (which checks them before sending); `_fields` keeps only
 * the named fields; the result is cut to `maxChars` and says how to get the rest; the page's `next` holds the
 * arguments of the call that continues. Never throws for a failed call: the outcome carries the error.
 */
export async function runTool<C>(
  tool: ToolDefinition<C>,
  client: C,
  args: unknown,
  options: RunToolOptions = {},
): Promise<ToolOutcome> {
  const { maxChars = DEFAULT_MAX_CHARS, ...requestOptions } = options;
  const given = isRecord(args) ? args : {};
  const { [FIELDS_ARGUMENT]: rawFields, ...params } = given;
  const fields = Array.isArray(rawFields) && rawFields.length ? rawFields.map(String) : undefined;
  let structured: Record<string, unknown>;
  try {
    const result = await tool.call(client, params, requestOptions);
    if (tool.result === 'binary') structured = await fileOf(result, maxChars);
    else if (tool.result === 'single') {
      // A get answers with its record: anything else (null, a string) would read to a model as a found, empty record.
      if (tool.action === 'get' && !isRecord(result))
        throw new ApiError(`response: expected a record, got ${String(JSON.stringify(result ?? null)).slice(0, 80)}`);
      structured = await recordOutcome(fields ? project(result, fields) : result, maxChars);
    } else
      structured = await pageOutcome(
        tool as ToolDefinition<never>,
        given,
        params,
        result as Record<string, unknown>,
        fields,
        maxChars,
      );
    // A _fields name no record holds (misspelt, or no field of the record) would just leave the records empty: said.
    if (fields) {
      const records =
        tool.result === 'single'
          ? [result]
          : tool.result === 'hits'
            ? (result as { hits?: { data?: unknown }[] }).hits?.map((h) => h.data)
            : (result as { records?: unknown[] }).records;
      const absent = records?.length
        ? fields.filter((f) => records.every((r) => Object.keys(project(r, [f]) ?? {}).length === 0))
        : [];
      if (absent.length) structured = { ...structured, absent_fields: absent };
    }
  } catch (error) {
    structured = { error: toolError(error) };
  }
  return { ok: !('error' in structured), structured, text: renderText(tool, structured) };
}

/**
 * The input schema a model sees: the spec's params plus `_fields` (list, get and search tools), which keeps only the
 * named fields of each record and so keeps large records from flooding the context.
 */
export function agentInputSchema(tool: Pick<ToolDefinition, 'inputSchema' | 'result'>): JsonSchema {
  if (tool.result === 'binary') return tool.inputSchema;
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, unknown>;
  return {
    ...tool.inputSchema,
    properties: {
      ...properties,
      [FIELDS_ARGUMENT]: {
        type: 'array',
        items: { type: 'string' },
        description: `Only these fields of each ${tool.result === 'hits' ? "hit's data" : 'record'} are returned (dotted paths, e.g. "id", "address.city"); use it to keep large results small.`,
      },
    },
  };
}
