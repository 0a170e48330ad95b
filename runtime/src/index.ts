/**
 * @connector-sdk/runtime: the hand-written runtime of the generated Connector Execution Service SDKs.
 * Everything connector-specific arrives as data (descriptors); see README.md.
 */

export {
  ConnectorClient,
  type CallDescriptor,
  type CreateSourceBody,
  type ExecuteResponse,
  type Page,
  type ServiceDescriptor,
  type Source,
} from './client.js';
export type { DownloadResponse } from './download.js';
export {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  InvalidRequestError,
  NotFoundError,
  PaginationError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type FieldError,
} from './errors.js';
export type { ClientOptions, PageOptions, RequestOptions } from './options.js';
export { PagePromise, type PaginationDescriptor } from './pagination.js';
export type { Clock } from './retry.js';
export type { ExactlyOne, SearchFilter, SearchHit, SearchOperators, SearchRequest, SearchResult, SearchSort } from './search.js';
export {
  ParamValidationError,
  ResponseValidationError,
  describeIssues,
  type ResponseValidation,
  type ValidationIssue,
  type ValidationProblem,
  type Validator,
} from './validation.js';
