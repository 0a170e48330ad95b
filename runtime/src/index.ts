/**
 * The hand-written runtime of the generated Connector Execution Service SDKs (published as `<scope>/runtime`).
 * Everything connector-specific arrives as data (descriptors); see README.md.
 */

export {
  ConnectorClient,
  type CallDescriptor,
  type CreateSourceBody,
  type ExecuteResponse,
  type MethodDescriptor,
  type Page,
  type ResourceTable,
  type ServiceDescriptor,
  type Source,
} from './client.js';
export { callDownload, type DownloadResponse } from './download.js';
export {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PaginationError,
  LimitError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type ApiErrorInit,
  type FieldError,
} from './errors.js';
export type {
  ClientOptions,
  Fetch,
  FetchHeaders,
  FetchInit,
  FetchOptions,
  FetchResponse,
  Logger,
  LogLevel,
  PageOptions,
  RequestOptions,
} from './options.js';
export { APIPromise, type CallResult, type WithResponse } from './promise.js';
export { DEFAULT_MAX_RESPONSE_BYTES, LOG_LEVEL_ENV, MAX_RETRIES, type Exchange } from './transport.js';
export { PagePromise, nextFromUrl, type PaginationDescriptor } from './pagination.js';
export { checkParams, type ParamSchema, type ParamType } from './params.js';
export { createResponseValidators, type ResponseValidators } from './response-validation.js';
export { MIN_SECRET_LENGTH } from './redact.js';
export type { Clock } from './retry.js';
export type {
  ExactlyOne,
  SearchFilter,
  SearchHit,
  SearchOperators,
  SearchRequest,
  SearchResult,
  SearchSort,
} from './search.js';
export {
  ParamValidationError,
  ResponseValidationError,
  describeIssues,
  nestedDeeperThan,
  type ResponseValidation,
  type ValidationIssue,
  type ValidationProblem,
  type Validator,
} from './validation.js';
// Agent tools (each package's `/tools` entry re-exports them); a client never imports them, so they tree-shake away.
export {
  DEFAULT_MAX_CHARS,
  FIELDS_ARGUMENT,
  agentInputSchema,
  renderText,
  runTool,
  toolError,
  type JsonSchema,
  type RunToolOptions,
  type ToolAnnotations,
  type ToolDefinition,
  type ToolError,
  type ToolOutcome,
} from './tools.js';
export {
  anthropicTools,
  mcpResult,
  mcpTools,
  openaiResponsesTools,
  openaiTools,
  runAnthropicToolUse,
  runOpenAIToolCall,
  vercelTools,
  type AnthropicTool,
  type AnthropicToolResult,
  type McpTool,
  type McpToolResult,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type OpenAIToolCall,
  type VercelTool,
} from './tool-adapters.js';
