/**
 * Types of spec files as written (after the meta-schema has accepted them). Only normalize.ts reads these;
 * everything downstream reads the IR.
 */
import type { CompareOp, Literal, ValueFormat } from '../ir.js';

/** Labels any rule may carry. */
export interface RawDocs {
  note?: string;
  provenance?: string;
  assumption?: string;
}

/** A field as written: a type expression, or an object. */
export type RawField = string | RawFieldObject;

/** The object form of a field. */
export interface RawFieldObject {
  type: string;
  description?: string;
  enum?: Literal[];
  const?: Literal;
  items?: RawField;
  fields?: Record<string, RawField>;
  deprecated?: string;
  deprecatedSince?: string;
  note?: string;
  provenance?: string;
  assumption?: string;
  format?: ValueFormat;
  derive?: { from?: string; value?: Literal | null };
  unspecified?: string;
}

/** A param as written: a type expression, `common`, or an object. */
export type RawParam = string | RawParamObject;

/** The object form of a param. */
export interface RawParamObject {
  type: string;
  required?: boolean;
  description?: string;
  enum?: Literal[];
  const?: Literal;
  default?: Literal;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  items?: RawParam;
  minItems?: number;
  maxItems?: number;
  separator?: string;
  queryLanguage?: 'search_query' | 'filter_groups' | 'jql' | 'code_search' | 'drive_query';
  properties?: Record<string, RawParam>;
  deprecated?: string;
  deprecatedSince?: string;
  note?: string;
  provenance?: string;
  assumption?: string;
  format?: ValueFormat;
  matches?: RawDocs & { fields: string[]; mode: 'exact' | 'contains' | 'prefix'; caseSensitive: boolean };
  excludes?: RawDocs & { field: string; values: (string | number | boolean | null)[] };
  sortBy?: RawDocs & { fields: Record<string, string>; syntax?: 'plain' | 'signed' | 'clauses'; directionParam?: string; descending?: (string | number | boolean)[]; defaultDirection?: 'asc' | 'desc' };
  rangeOf?: string;
  bound?: { side: 'lower' | 'upper'; inclusive: boolean; inclusiveParam?: string };
}

/** An ordering as written. */
export type RawOrdering = { field: string; direction: 'asc' | 'desc' }[];

/** An invariant as written (the meta-schema checks the keys; normalize checks which ones each kind needs). */
export interface RawInvariant extends RawDocs {
  kind: 'iff' | 'compare' | 'accountOnly';
  field?: string;
  left?: string;
  op?: CompareOp;
  right?: string;
  account?: string;
  fields?: string[];
  description?: string;
}

/** A record or meta shape as written. */
export interface RawShape {
  description?: string;
  idPrefix?: string;
  idFormat?: 'numeric' | 'numeric_string' | 'hex' | 'base62' | 'uuid';
  fields?: Record<string, RawField>;
  unspecified?: string;
  note?: string;
  provenance?: string;
  assumption?: string;
  key?: string;
  invariants?: RawInvariant[];
}

/** A paging scheme as written. */
export interface RawPagination {
  style: 'cursor' | 'page' | 'offset' | 'token' | 'link' | 'since_id';
  description?: string;
  param: string;
  sizeParam?: string;
  previousParam?: string;
  next: { from: 'meta' | 'last_record' | 'page_number' | 'offset'; path?: string; queryParam?: string; start?: number };
  stop: { when: 'metaFalse' | 'metaTrue' | 'metaMissing' | 'nextMissing' | 'emptyPage' | 'shortPage' | 'totalReached'; key?: string }[];
  note?: string;
  provenance?: string;
  assumption?: string;
}

/** An action as written. */
export interface RawAction {
  description?: string;
  params?: Record<string, RawParam>;
  unspecifiedParams?: string;
  pagination?: string;
  result?: { shape?: 'list' | 'single' | 'hits' | 'binary'; record?: string; meta?: string };
  rangeParam?: string;
  maxBytes?: number;
  deprecated?: string;
  deprecatedSince?: string;
  note?: string;
  provenance?: string;
  assumption?: string;
  ordering?: RawOrdering;
  defaultFilter?: RawDocs & { field: string; exclude: Literal[]; unlessParam?: string; description?: string };
  paramGroups?: (RawDocs & { kind: 'oneOf' | 'atLeastOne'; params?: string[]; alternatives?: string[][]; description?: string })[];
  updateSemantics?: 'partial';
  keyParam?: string;
  alternateKeys?: RawDocs & { fields: string[] };
}

/** An entity as written. */
export interface RawEntity {
  description?: string;
  record?: string;
  searchableFields?: { fields?: Record<string, RawField>; unspecified?: string; note?: string };
  actions: Record<string, RawAction>;
  note?: string;
  recordsFrom?: string;
  parent?: RawDocs & { entity: string; params: Record<string, string>; field?: string };
  provenance?: string;
  assumption?: string;
}

/** A connector file as written. */
export interface RawConnector {
  id: string;
  title: string;
  seed: string;
  description: string;
  note?: string;
  defaults?: { pagination?: string; meta?: string; idFormat?: 'numeric' | 'numeric_string' | 'hex' | 'base62' | 'uuid'; ordering?: RawOrdering };
  transitions?: { unspecified: string };
  pagination?: Record<string, RawPagination>;
  meta?: Record<string, RawShape>;
  records: Record<string, RawShape>;
  params?: Record<string, RawParam>;
  entities: Record<string, RawEntity>;
}

/** An assumption as written in service.yaml. */
export interface RawAssumption {
  contract: string;
  source: string;
  value: unknown;
}

/** One endpoint as written. */
export interface RawEndpoint {
  method: string;
  path: string;
  description?: string;
  pathParams?: Record<string, string>;
  headers: Record<string, string>;
  body: 'executeBody' | 'sourceCreation';
  response?: string;
}

/** One Limits row as written. */
export interface RawLimit {
  where: string;
  limit: string;
  appliesTo?: { connector?: string; service?: 'search'; entities?: string[]; actions?: string[]; param?: string | string[] };
  expect?: Record<string, Literal>;
  unspecified?: string;
}

/** An auth entry as written. */
export interface RawAuth {
  method: string;
  description?: string;
  fields: Record<string, RawParam>;
  variables?: Record<
    string,
    {
      type: string;
      required?: boolean;
      description?: string;
      default?: string | { unspecified: string };
      note?: string;
      unspecified?: string;
      suppliedIn?: 'auth_config';
      format?: ValueFormat;
      assumption?: string;
      provenance?: string;
    }
  >;
}

/** service.yaml as written. */
export interface RawService {
  service: { title: string; seed: string; description: string };
  assumptions: Record<string, RawAssumption> & { envelope: RawAssumption & { value: { records: string; meta: string } }; requestIdHeader?: RawAssumption & { value: string } };
  endpoints: { execute: RawEndpoint; createSource: RawEndpoint };
  baseUrl?: { description?: string };
  actions: Record<string, { kind: 'read' | 'write'; description: string }>;
  writeActions: Record<string, Record<string, string[]>>;
  connectors: string[];
  executeBody: Record<string, RawParam>;
  result: { description?: string; metaKeys?: string[] };
  search: {
    description?: string;
    params: Record<string, RawParam>;
    operators: Record<string, { operand: 'value' | 'values' | 'text' | 'filter' | 'filters'; description?: string }>;
    hit: Record<string, RawField>;
    pagination: RawPagination;
  };
  sourceCreation: RawShape;
  authentication: {
    description?: string;
    header: string;
    scheme: string;
    unspecified?: string;
    placeholders?: string[];
    connectors: Record<string, RawAuth>;
  };
  limits: RawLimit[];
  events?: { unspecified?: string };
  versioning: { pathSegment: string; description?: string; unspecified?: string };
}
