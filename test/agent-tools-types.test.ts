/**
 * Type tests: the `/tools` shapes compile against the tool APIs' own types — OpenAI (Chat Completions and
 * Responses), Anthropic, the Vercel AI SDK (`tool()`, `generateText`) and MCP — although the packages import none of
 * them. `npm test` runs tsc over this file; the calls sit in functions that are never invoked.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, Tool as AnthropicApiTool, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { CallToolResult, Tool as McpApiTool } from '@modelcontextprotocol/sdk/types.js';
import { generateText, jsonSchema, tool, type LanguageModel, type ToolSet } from 'ai';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool, ChatCompletionToolMessageParam } from 'openai/resources/chat/completions';
import type { FunctionTool } from 'openai/resources/responses/responses';
import { describe, expect, expectTypeOf, test } from 'vitest';
import { PaymentsClient } from '@connector-sdk/payments';
import {
  anthropicTools,
  mcpTools,
  openaiResponsesTools,
  openaiTools,
  runAnthropicToolUse,
  runOpenAIToolCall,
  tools,
  vercelTools,
  type ToolDefinition,
} from '@connector-sdk/payments/tools';

const client = new PaymentsClient({ baseUrl: 'http://127.0.0.1', token: 't', sourceId: 'payments' });

describe('the /tools shapes fit the libraries’ types', () => {
  test('the definitions are typed by the client they call', () => {
    expectTypeOf(tools).toEqualTypeOf<readonly ToolDefinition<PaymentsClient>[]>();
    // @ts-expect-error a definition of one connector does not take another's client
    void (() => openaiTools(tools, new URL('http://x')));
    expect(tools.length).toBe(39);
  });

  test('OpenAI Chat Completions and Responses', () => {
    void (async () => {
      const openai = new OpenAI();
      const chatTools: ChatCompletionTool[] = openaiTools(tools, client);
      const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'How many customers signed up this week?' }];
      const completion = await openai.chat.completions.create({ model: 'gpt-4.1', messages, tools: openaiTools(tools, client) });
      for (const call of completion.choices[0]!.message.tool_calls ?? []) {
        if (call.type !== 'function') continue;
        const reply: ChatCompletionToolMessageParam = await runOpenAIToolCall(openaiTools(tools, client), call);
        messages.push(reply);
      }
      const responseTools: FunctionTool[] = openaiResponsesTools(tools, client);
      await openai.responses.create({ model: 'gpt-4.1', input: 'List customers', tools: responseTools });
      void chatTools;
    });
  });

  test('Anthropic Messages', () => {
    void (async () => {
      const anthropic = new Anthropic();
      const toolset = anthropicTools(tools, client);
      const apiTools: AnthropicApiTool[] = toolset;
      const messages: MessageParam[] = [{ role: 'user', content: 'Find the customer with email a@example.com' }];
      const message = await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages, tools: toolset });
      const results: ToolResultBlockParam[] = [];
      for (const block of message.content) if (block.type === 'tool_use') results.push(await runAnthropicToolUse(toolset, block));
      messages.push({ role: 'user', content: results });
      void apiTools;
    });
  });

  test('Vercel AI SDK: a ToolSet for generateText, and each tool accepted by tool()', () => {
    void (async (model: LanguageModel) => {
      const toolset: ToolSet = vercelTools(tools, client, jsonSchema);
      const one = tool(vercelTools(tools, client, jsonSchema)['payments_customers_list']!);
      await generateText({ model, prompt: 'How many customers do we have?', tools: { ...toolset, one } });
    });
  });

  test('MCP: tools/list entries and tools/call results', () => {
    void (async () => {
      const [first] = mcpTools(tools, client);
      const listed: McpApiTool = first!;
      const result: CallToolResult = await first!.execute({ limit: 1 });
      void listed;
      void result;
    });
  });
});
