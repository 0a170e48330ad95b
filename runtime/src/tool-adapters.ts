/**
 * The tool definitions of a package's `/tools` entry in the shapes of the tool APIs people use — MCP tools, OpenAI
 * function tools (Chat Completions and Responses), Anthropic tools, Vercel AI SDK tools — each with an `execute`
 * bound to a client. Plain objects typed structurally: no framework is imported. Each object can be handed to its
 * SDK as it is (`execute` is a function, which JSON leaves out of the request). One description and one input
 * schema per tool serve every shape.
 */
import {
  agentInputSchema,
  runTool,
  type JsonSchema,
  type RunToolOptions,
  type ToolDefinition,
  type ToolOutcome,
} from './tools.js';

/** An MCP tool (the `tools/list` entry) with the `tools/call` result of running it. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: ToolDefinition['annotations'];
  /** Runs the tool: structured content, a compact text rendering, and `isError` for a failed call. */
  execute(args: unknown): Promise<McpToolResult>;
}

/** The result of an MCP `tools/call`. */
export interface McpToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent: Record<string, unknown>;
  isError: boolean;
}

/** An MCP `tools/call` result from an outcome. */
export function mcpResult(outcome: ToolOutcome): McpToolResult {
  return {
    content: [{ type: 'text', text: outcome.text }],
    structuredContent: outcome.structured,
    isError: !outcome.ok,
  };
}

function inputSchema(tool: ToolDefinition<never>): JsonSchema & { type: 'object' } {
  return agentInputSchema(tool) as JsonSchema & { type: 'object' };
}

/** Arguments as a model sends them: an object, or (OpenAI) its JSON text. */
function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args || '{}');
  } catch {
    return { __invalid_json__: args };
  }
}

/** MCP tools (`tools/list` entries with `execute` for `tools/call`). */
export function mcpTools<C>(tools: readonly ToolDefinition<C>[], client: C, options?: RunToolOptions): McpTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchema(tool as ToolDefinition<never>),
    annotations: tool.annotations,
    execute: async (args) => mcpResult(await runTool(tool, client, args, options)),
  }));
}

/** An OpenAI Chat Completions function tool (`ChatCompletionTool`) with `execute`. */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema; strict: false };
  /** Runs the tool with the call's arguments (JSON text or object); resolves with the tool message's content. */
  execute(args: unknown): Promise<string>;
}

/** OpenAI Chat Completions tools (`tools: openaiTools(tools, client)`). */
export function openaiTools<C>(
  tools: readonly ToolDefinition<C>[],
  client: C,
  options?: RunToolOptions,
): OpenAIChatTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: inputSchema(tool as ToolDefinition<never>),
      strict: false,
    },
    execute: async (args) => (await runTool(tool, client, parseArgs(args), options)).text,
  }));
}

/** A tool call of a Chat Completions response (`message.tool_calls[i]`). */
export interface OpenAIToolCall {
  id: string;
  type?: string;
  function: { name: string; arguments: string };
}

/** Runs one Chat Completions tool call; resolves with the `tool` message to append to the conversation. */
export async function runOpenAIToolCall(
  tools: readonly OpenAIChatTool[],
  call: OpenAIToolCall,
): Promise<{ role: 'tool'; tool_call_id: string; content: string }> {
  const tool = tools.find((t) => t.function.name === call.function.name);
  const content = tool
    ? await tool.execute(call.function.arguments)
    : `Error: unknown tool ${JSON.stringify(call.function.name)}`;
  return { role: 'tool', tool_call_id: call.id, content };
}

/** An OpenAI Responses API function tool (`FunctionTool`) with `execute`. */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: JsonSchema;
  strict: false;
  /** Runs the tool with the call's arguments (JSON text or object); resolves with the output text. */
  execute(args: unknown): Promise<string>;
}

/** OpenAI Responses API tools (`tools: openaiResponsesTools(tools, client)`). */
export function openaiResponsesTools<C>(
  tools: readonly ToolDefinition<C>[],
  client: C,
  options?: RunToolOptions,
): OpenAIResponsesTool[] {
  return tools.map((tool) => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: inputSchema(tool as ToolDefinition<never>),
    strict: false,
    execute: async (args) => (await runTool(tool, client, parseArgs(args), options)).text,
  }));
}

/** An Anthropic Messages API tool (`Tool`) with `execute`. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema & { type: 'object' };
  /** Runs the tool with a `tool_use` block's input; resolves with the `tool_result` block to send back. */
  execute(input: unknown, toolUseId?: string): Promise<AnthropicToolResult>;
}

/** A `tool_result` content block. */
export interface AnthropicToolResult {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** Anthropic tools (`tools: anthropicTools(tools, client)`); run `tool_use` blocks with {@link runAnthropicToolUse}. */
export function anthropicTools<C>(
  tools: readonly ToolDefinition<C>[],
  client: C,
  options?: RunToolOptions,
): AnthropicTool[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: inputSchema(tool as ToolDefinition<never>),
    execute: async (input, toolUseId = '') => {
      const outcome = await runTool(tool, client, input, options);
      return { type: 'tool_result', tool_use_id: toolUseId, content: outcome.text, is_error: !outcome.ok };
    },
  }));
}

/** Runs one `tool_use` content block; resolves with its `tool_result` block. */
export async function runAnthropicToolUse(
  tools: readonly AnthropicTool[],
  block: { id: string; name: string; input: unknown },
): Promise<AnthropicToolResult> {
  const tool = tools.find((t) => t.name === block.name);
  if (!tool)
    return {
      type: 'tool_result',
      tool_use_id: block.id,
      content: `Error: unknown tool ${JSON.stringify(block.name)}`,
      is_error: true,
    };
  return tool.execute(block.input, block.id);
}

/** A Vercel AI SDK tool: what its `tool()` takes and returns, with the input schema wrapped by its `jsonSchema()`. */
export interface VercelTool<S> {
  description: string;
  inputSchema: S;
  /** Resolves with the structured result (or `{ error }`), which the SDK hands back to the model as JSON. */
  execute(input: unknown): Promise<Record<string, unknown>>;
}

/**
 * Vercel AI SDK tools, keyed by name, for `generateText({ tools })`. Pass the SDK's own `jsonSchema` (from 'ai'), so
 * this package does not depend on it: `vercelTools(tools, client, jsonSchema)`.
 */
export function vercelTools<C, S>(
  tools: readonly ToolDefinition<C>[],
  client: C,
  jsonSchema: (schema: JsonSchema & { type: 'object' }) => S,
  options?: RunToolOptions,
): Record<string, VercelTool<S>> {
  return Object.fromEntries(
    tools.map((tool) => [
      tool.name,
      {
        description: tool.description,
        inputSchema: jsonSchema(inputSchema(tool as ToolDefinition<never>)),
        execute: async (input: unknown) => (await runTool(tool, client, input, options)).structured,
      },
    ]),
  );
}
