/**
 * The intermediate representation: the whole spec, resolved and normalized into one typed model.
 * Emitters read structural facts from it (is this action paginated? which param is the cursor?) and never
 * branch on connector names. Every list is sorted (entities and params by name, actions in vocabulary
 * order) so output never depends on key order in the YAML.
 */
import type { BaseType } from './spec/type-expr.js';

/** A JSON literal allowed in enums, consts and defaults. */
export type Literal = string | number | boolean;

/**
 * Where an item is written in the spec. The locations normalize makes are lazy (yaml-source.ts keyLocation): `line` is
 * a getter on their prototype, located in the YAML text when first read, so a run that prints no diagnostic never
 * parses positions. Being no own property, `line` is absent from JSON.stringify and from a structured clone: the IR an
 * emitter receives in a worker thread carries `file` only, and emitters never read `line` (generated output holds no
 * spec line numbers). diff, checks and diagnostics read it on the main thread.
 */
export interface SourceLocation {
  /** Spec file path, e.g. `spec/connectors/payments.yaml`. */
  readonly file: string;
  /** 1-based line of the item's key (lazy: see above). */
  readonly line: number;
}

/**
 * A value format the contract states or the spec assumes: `currency_lower_iso` (lowercase three-letter ISO code),
 * `md5_of_lower_email` (hex MD5 of the lowercase email), `unix_time_string` (Unix seconds as a decimal string,
 * e.g. `1712345678.000100`), `url` (absolute http(s) URL), `date_time` (an ISO 8601 date-time,
 * `2024-04-05T10:00:00Z`; UTC where it gives no offset), `lowercase_name` (no uppercase letter and no whitespace: a
 * team-messaging channel name).
 */
export type ValueFormat = 'currency_lower_iso' | 'date_time' | 'lowercase_name' | 'md5_of_lower_email' | 'unix_time_string' | 'url';

/** The pattern each value format's strings match (validators, the OpenAPI export and `diff` read it). */
export const FORMAT_PATTERNS: Record<ValueFormat, string> = {
  currency_lower_iso: '^[a-z]{3}$',
  date_time: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?$',
  lowercase_name: '^[^A-Z\\s]*$',
  md5_of_lower_email: '^[0-9a-f]{32}$',
  unix_time_string: '^[0-9]+(\\.[0-9]+)?$',
  url: '^https?://[^\\s/?#]+[^\\s]*$',
};

/** Where the rules below come from when the contract does not state them. */
export interface RuleDocs {
  /** A transcription decision. */
  note?: string;
  /** Where a fact not in the contract comes from. */
  provenance?: string;
  /** What is assumed where the contract is silent. */
  assumption?: string;
}

/** How a value is derived from the stored record: a copy of another field (in the value's format), or a constant. */
export interface DeriveIR {
  /** Record field (dotted path) the value is copied from; converted to the value's `format` when it has one. */
  from?: string;
  /** The constant the value always holds. */
  value?: Literal | null;
}

/** A list param that filters records by matching record fields. */
export interface MatchIR extends RuleDocs {
  /** Record fields (dotted paths) compared; a record is kept when any matches. */
  fields: string[];
  /** exact: the whole value; contains: a substring; prefix: a leading part. */
  mode: 'exact' | 'contains' | 'prefix';
  /** Whether letter case must match. */
  caseSensitive: boolean;
}

/** What a boolean list param leaves out when it is true (`exclude_archived`, `vip_only`); false or absent: nothing. */
export interface ExcludesIR extends RuleDocs {
  /** The record field (dotted path) read. */
  field: string;
  /** The values that leave a record out (null also stands for a missing field), sorted. */
  values: (string | number | boolean | null)[];
}

/** One value of a sorting param and the record field it sorts by. */
export interface SortFieldIR {
  /** The param's value (`create_time`, `alphabetical`). */
  value: string;
  /** The record field (dotted path) it sorts by. */
  field: string;
}

/** How a list param sorts the results (`sort_field`, `orderBy`): the field each of its values names and the direction. */
export interface SortByIR extends RuleDocs {
  /** The values the spec maps to record fields, sorted by value; other values leave the order as it is. */
  fields: SortFieldIR[];
  /**
   * How a value is written: `plain` (one value), `signed` (`-value` descending, `value` or `+value` ascending), or
   * `clauses` (comma-separated `value` or `value desc`, the first sorting first).
   */
  syntax: 'plain' | 'signed' | 'clauses';
  /** The param whose value gives the direction (`sort_dir`), when another param does. */
  directionParam?: string;
  /** Values of `directionParam` that mean descending (every other value: ascending). */
  descending?: Literal[];
  /** The direction when the request gives none. */
  defaultDirection: 'asc' | 'desc';
}

/** One bound of an interval on a record field (the field is `rangeOf` of the param or of its parent object). */
export interface BoundIR {
  /** lower: records at or after the value; upper: at or before. */
  side: 'lower' | 'upper';
  /** Whether a record equal to the bound is kept. */
  inclusive: boolean;
  /** A boolean param that makes the bound inclusive when true. */
  inclusiveParam?: string;
}

/** The default order of list results. */
export interface OrderingIR {
  /** Record field (dotted path) compared. */
  field: string;
  /** asc: smallest first; desc: largest first. */
  direction: 'asc' | 'desc';
}

/** Records a list leaves out unless asked for. */
export interface DefaultFilterIR extends RuleDocs {
  /** Record field (dotted path) tested. */
  field: string;
  /** Values whose records are left out, sorted. */
  exclude: Literal[];
  /** A param whose presence lifts the default (then the param's own filter applies). */
  unlessParam?: string;
  /** Description from the spec. */
  description?: string;
}

/** Record fields whose values the key param of a get, update, delete or download also takes (`issueIdOrKey`). */
export interface AlternateKeysIR extends RuleDocs {
  /** Record fields (dotted paths), in the order a record is looked up by them after its key. */
  fields: string[];
}

/** One param of a parent rule and the parent record's field whose value it gives. */
export interface ParentParamIR {
  /** The param, as actions of the entity take it. */
  param: string;
  /** The parent record's field (dotted path) the param's value equals. */
  field: string;
}

/**
 * The entity's records each belong to one record of another entity (a channel's messages, a repository's issues),
 * named by params: every action of the entity that takes all of them acts within that record.
 */
export interface ParentIR extends RuleDocs {
  /** The parent entity of the connector (whose records own this entity's). */
  entity: string;
  /** The params naming the parent record, sorted by param. */
  params: ParentParamIR[];
  /**
   * The record's own field (dotted path) that holds the parent's value of the first param's field (a list member's
   * `list_id`), when the record shows one: the fixtures fill it and a create sets it.
   */
  field?: string;
}

/** Params that must be given together or alternatively. */
export interface ParamGroupIR extends RuleDocs {
  /** oneOf: exactly one alternative is given in full; atLeastOne: at least one is. */
  kind: 'oneOf' | 'atLeastOne';
  /** The alternatives, each a sorted list of param names; sorted. */
  alternatives: string[][];
  /** Description from the spec. */
  description?: string;
}

/** A comparison between two values. */
export type CompareOp = 'eq' | 'neq' | 'lt' | 'lte' | 'gt' | 'gte';

/** A rule every record of a shape holds. */
export type InvariantIR = RuleDocs & { description?: string } & (
    | {
        /** The boolean `field` is true exactly when `left op right` holds. */
        kind: 'iff';
        /** Boolean field the rule defines. */
        field: string;
        /** Left operand (a field). */
        left: string;
        /** Comparison. */
        op: CompareOp;
        /** Right operand (a field). */
        right: string;
      }
    | {
        /** `left op right` always holds. */
        kind: 'compare';
        /** Left operand (a field). */
        left: string;
        /** Comparison. */
        op: CompareOp;
        /** Right operand (a field). */
        right: string;
      }
    | {
        /** The fields are null unless the source is an account of kind `account`. */
        kind: 'accountOnly';
        /** The kind of account the fields belong to (e.g. `platform`). */
        account: string;
        /** The fields, sorted. */
        fields: string[];
      }
  );

/** The shape of a value: a record field, a meta key, a searchable field or a param. */
export interface SchemaIR {
  /** Base types the value may take (never null: see `nullable`). */
  types: BaseType[];
  /** Whether null is allowed. */
  nullable: boolean;
  /** Allowed values (for separator params: allowed entries). */
  enum?: Literal[];
  /** The one value the field always holds (`object: 'customer'`). */
  const?: Literal;
  /** Element shape of arrays, when known. */
  items?: SchemaIR;
  /** Inner fields of objects (or of array elements via `items`), when known; sorted by name. */
  properties?: PropertyIR[];
  /** Description from the spec. */
  description?: string;
  /** Why the item is deprecated, when it is. */
  deprecated?: string;
  /** The package release (MAJOR.MINOR.PATCH) that first shipped the deprecation, when the spec states it. */
  deprecatedSince?: string;
  /** A transcription decision written next to the item. */
  note?: string;
  /** Where a fact not in the contract comes from. */
  provenance?: string;
  /** What is assumed where the contract is silent. */
  assumption?: string;
  /** Default value (params). */
  default?: Literal;
  /** Inclusive lower bound (params). */
  minimum?: number;
  /** Inclusive upper bound (params). */
  maximum?: number;
  /** Minimum string length (params). */
  minLength?: number;
  /** Maximum string length (params). */
  maxLength?: number;
  /** Regular expression the string must match (params). */
  pattern?: string;
  /** Minimum number of array elements or separated entries (params). */
  minItems?: number;
  /** Maximum number of array elements or separated entries (params). */
  maxItems?: number;
  /** The string holds a list joined by this separator (params). */
  separator?: string;
  /** The param carries a query in this language (params). */
  queryLanguage?: 'search_query' | 'filter_groups' | 'jql' | 'code_search' | 'drive_query';
  /** The value's format. */
  format?: ValueFormat;
  /** Fields: how the value follows from the stored record (searchable-only and derived fields). */
  derive?: DeriveIR;
  /** Objects with `properties`: the seed's words where not all inner fields are shown (the object is open). */
  unspecified?: string;
  /** Params: how the param filters list results. */
  matches?: MatchIR;
  /** Params: what a boolean list param leaves out when true. */
  excludes?: ExcludesIR;
  /** Params: how the param sorts list results. */
  sortBy?: SortByIR;
  /** Params: the record field an interval param (or an interval object's bounds) constrains. */
  rangeOf?: string;
  /** Params: the bound of the interval this param (or interval member) sets. */
  bound?: BoundIR;
}

/** A named value inside an object: a record field, meta key, searchable field or param. */
export interface PropertyIR extends SchemaIR {
  /** Name as written in the contract (case-sensitive; may contain dots, e.g. `assignee.any`). */
  name: string;
  /** Params: whether the caller must give it. Record fields and meta keys: always true. */
  required: boolean;
  /** Where the item is written. */
  source: SourceLocation;
  /**
   * Params written as `name: common`: where the connector-level definition they resolve to is written (one edit
   * there changes every action that uses it). Not a fact of the contract: an inline copy means the same.
   */
  common?: SourceLocation;
}

/** A record or meta shape. */
export interface ShapeIR {
  /** Name within its connector (`customer`, `list`). */
  name: string;
  /** Description from the spec. */
  description?: string;
  /** Known fields, sorted by name. */
  properties: PropertyIR[];
  /** The seed's words where it does not show (all or the rest of) the fields; the shape is then open. */
  unspecified?: string;
  /** A transcription decision. */
  note?: string;
  /** What is assumed where the contract is silent. */
  assumption?: string;
  /** Fixtures: identifiers of this record start with this prefix. */
  idPrefix?: string;
  /** Fixtures: shape of generated string identifiers (record's own, else the connector's default). */
  idFormat?: IdFormat;
  /** The field (dotted path) that identifies a record, when the spec names it. */
  key?: string;
  /** Rules every record holds, in spec order. */
  invariants?: InvariantIR[];
  /** Where the shape is written. */
  source: SourceLocation;
}

/** Shapes of generated string identifiers. */
export type IdFormat = 'numeric' | 'numeric_string' | 'hex' | 'base62' | 'uuid';

/** One way to stop walking pages. */
export interface StopConditionIR {
  /** metaFalse, metaTrue, metaMissing, nextMissing, emptyPage, shortPage or totalReached. */
  when: 'metaFalse' | 'metaTrue' | 'metaMissing' | 'nextMissing' | 'emptyPage' | 'shortPage' | 'totalReached';
  /** Meta key path read by metaFalse, metaTrue, metaMissing and totalReached. */
  key?: string;
}

/** A paging scheme as data; one runtime iterator interprets every scheme. */
export interface PaginationIR {
  /** Scheme name within its connector (the service's search scheme is `search`). */
  name: string;
  /** Informational label of the style. */
  style: 'cursor' | 'page' | 'offset' | 'token' | 'link' | 'since_id';
  /** How a caller pages, in words. */
  description?: string;
  /** Request param that carries the cursor, page number, offset or token. */
  param: string;
  /** Request param that sets the page size, if any. */
  sizeParam?: string;
  /**
   * Request param that pages backwards, if any: it takes the key a `last_record` cursor takes, and the page holds the
   * records just before that record (payments `ending_before`).
   */
  previousParam?: string;
  /** Where the next value of `param` comes from. */
  next: {
    /** meta: a meta key; last_record: a field of the last record; page_number: page + 1; offset: offset + records. */
    from: 'meta' | 'last_record' | 'page_number' | 'offset';
    /** Dotted meta path or record field (meta, last_record). */
    path?: string;
    /** The value at `path` is a URL; the next value is this query param of it. */
    queryParam?: string;
    /** First page number (page_number); default 1. */
    start?: number;
  };
  /** The last page is reached when any of these holds. */
  stop: StopConditionIR[];
  /** What is assumed where the contract is silent. */
  assumption?: string;
  /** Where a fact not in the contract comes from. */
  provenance?: string;
  /** Where the scheme is written. */
  source: SourceLocation;
}

/** Action names of the contract's vocabulary. */
export type ActionName = 'list' | 'get' | 'create' | 'update' | 'delete' | 'api_search' | 'search' | 'download';

/** Canonical action order (the contract's table): actions are listed in this order everywhere. */
export const ACTION_ORDER: readonly ActionName[] = ['list', 'get', 'create', 'update', 'delete', 'api_search', 'search', 'download'];

/** Sort key of an action name; names outside the vocabulary sort last. */
export function actionRank(name: string): number {
  const i = ACTION_ORDER.indexOf(name as ActionName);
  return i < 0 ? ACTION_ORDER.length : i;
}

/**
 * The property a dotted path names among known fields (`data.id`, descending into object fields and array
 * elements), or undefined when a segment is not known. `lenient`: a segment below a field whose inner fields are
 * not known is accepted (the field is returned).
 */
export function propertyAt(properties: readonly PropertyIR[], dotted: string, lenient = false): PropertyIR | undefined {
  let props: readonly PropertyIR[] | undefined = properties;
  let found: PropertyIR | undefined;
  for (const segment of dotted.split('.')) {
    if (!props) return lenient ? found : undefined;
    found = props.find((p) => p.name === segment);
    if (!found) return undefined;
    props = found.properties ?? found.items?.properties;
  }
  return found;
}

/**
 * What a source's auth_config holds: the connector's auth fields and the configuration variables supplied there
 * (`suppliedIn: auth_config`), sorted by name. A variable with a default is optional (the service applies the
 * default when it is left out). Clients type it, the OpenAPI export describes it and the mock checks it from this.
 */
export function authConfigFields(auth: AuthIR): (PropertyIR | AuthVariableIR)[] {
  const variables = auth.variables
    .filter((v) => v.suppliedIn === 'auth_config')
    .map((v) => ({ ...v, required: v.required && v.default === undefined && v.defaultUnspecified === undefined }));
  return [...auth.fields, ...variables].sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** The entity whose records an entity's actions address: itself, or the one its recordsFrom names. */
export function recordsEntity(connector: ConnectorIR, entity: EntityIR): EntityIR {
  return (entity.recordsFrom !== undefined && connector.entities.find((e) => e.name === entity.recordsFrom)) || entity;
}

/**
 * The parent rules an action of `entity` acts within, nearest first: the rule of the entity whose records it addresses
 * (recordsFrom followed) when the action takes every param it names, then that parent's own rule while the action
 * names its params too (code_hosting comments list: the issue's `number`, then the repository's `repo`). Empty: the
 * action sees every record. Bounded, though validate rules cycles out.
 */
export function parentChain(connector: ConnectorIR, entity: EntityIR, action: ActionIR): ParentIR[] {
  const chain: ParentIR[] = [];
  const named = (rule: ParentIR) => rule.params.every((p) => action.params.some((x) => x.name === p.param));
  for (let rule = recordsEntity(connector, entity).parent; rule && named(rule) && chain.length < 8; rule = connector.entities.find((e) => e.name === rule!.entity)?.parent) chain.push(rule);
  return chain;
}

/** The parent rule an action of `entity` acts within (parentChain's nearest), or undefined: it sees every record. */
export function parentScope(connector: ConnectorIR, entity: EntityIR, action: ActionIR): ParentIR | undefined {
  return parentChain(connector, entity, action)[0];
}

/** Whether every value of `from` is a value of `to`'s type, nullability aside (integers are numbers; `any` fits all). */
export function typesFit(from: SchemaIR, to: SchemaIR): boolean {
  if (to.types.includes('any') || from.types.includes('any')) return true;
  return from.types.every((t) => to.types.includes(t) || (t === 'integer' && to.types.includes('number')));
}

/** The result shapes an action can return. */
export type ResultShape = 'list' | 'single' | 'hits' | 'binary';

/** One entity–action pair: one call of the execute endpoint. */
export interface ActionIR {
  /** Action name as sent in the execute body. */
  name: ActionName;
  /** read or write (from the service's action vocabulary). */
  kind: 'read' | 'write';
  /** Description from the spec, else the vocabulary's meaning. */
  description: string;
  /** Known params, sorted by name (for search: the uniform search params). */
  params: PropertyIR[];
  /** The seed's words where params are not shown (alone: unknown; beside params: list cut off). */
  paramsUnspecified?: string;
  /** What the action returns. */
  result: {
    /** list (records + meta), single (one record), hits (uniform search), binary (download). */
    shape: ResultShape;
    /** Record name within the connector (list and single shapes). */
    record?: string;
    /** Meta name within the connector (list shape), when the connector defines one. */
    meta?: string;
  };
  /** How the action pages: a scheme name, `none` (one page), or `unspecified` (params not shown). */
  pagination: string;
  /** Download param carrying a partial-content range. */
  rangeParam?: string;
  /** Largest content the action returns, in bytes. */
  maxBytes?: number;
  /** A transcription decision. */
  note?: string;
  /** Why the action is deprecated, when it is. */
  deprecated?: string;
  /** list: the default order of results (absent: the contract states none). */
  ordering?: OrderingIR[];
  /**
   * list taking the connector's `defaults.ordering`: where that default is written (one edit there changes every
   * list that takes it). Not a fact of the contract: the same order written on the action means the same.
   */
  orderingFrom?: SourceLocation;
  /** list: records left out unless asked for. */
  defaultFilter?: DefaultFilterIR;
  /** Params that must be given together or alternatively. */
  paramGroups?: ParamGroupIR[];
  /** get, update, delete, download: the param that carries the identifier of the record addressed, when the action has one. */
  keyParam?: string;
  /** The key param also finds a record by the value of these fields (after its key), when the spec says so. */
  alternateKeys?: AlternateKeysIR;
  /** update: `partial` when the contract says an update changes only the fields it is given; absent: not stated. */
  updateSemantics?: 'partial';
  /** The package release (MAJOR.MINOR.PATCH) that first shipped the deprecation, when the spec states it. */
  deprecatedSince?: string;
  /** Where the action is written. */
  source: SourceLocation;
}

/** An entity of a connector. */
export interface EntityIR {
  /** Name as sent in the execute body (`payment_intents`). */
  name: string;
  /** Description from the spec. */
  description?: string;
  /** Default record name of the entity's actions. */
  record?: string;
  /** Searchable fields, for entities with the search action. */
  searchable?: {
    /** Known searchable fields, sorted by name. */
    properties: PropertyIR[];
    /** The seed's words where they are not shown. */
    unspecified?: string;
  };
  /** Actions in vocabulary order. */
  actions: ActionIR[];
  /** A transcription decision. */
  note?: string;
  /** The entity has no records of its own: its actions address the records of this entity of the connector. */
  recordsFrom?: string;
  /** Each record belongs to one record of another entity, named by params (lists, reads and writes act within it). */
  parent?: ParentIR;
  /** What is assumed where the contract is silent. */
  assumption?: string;
  /** Where a fact not in the contract comes from. */
  provenance?: string;
  /** Where the entity is written. */
  source: SourceLocation;
}

/** A configuration variable of a connector's sources. */
export interface AuthVariableIR extends PropertyIR {
  /** The seed's words where the default is not shown. */
  defaultUnspecified?: string;
  /** Where a client supplies it over HTTP (absent: not decided). */
  suppliedIn?: 'auth_config';
  /** The seed's words on what it does not show about the variable (e.g. where it is supplied). */
  suppliedUnspecified?: string;
}

/** How sources of a connector authenticate to the third-party system (auth_config). */
export interface AuthIR {
  /** api_key, access_token, oauth2, … or `unspecified`. */
  method: string;
  /** Description from the spec. */
  description?: string;
  /** auth_config fields, sorted by name. */
  fields: PropertyIR[];
  /** Configuration variables (e.g. advertising region_url), sorted by name. */
  variables: AuthVariableIR[];
  /** The seed's words where the method is not shown. */
  unspecified?: string;
}

/** One connector kind. */
export interface ConnectorIR {
  /** Connector id (`payments`). */
  id: string;
  /** Human title. */
  title: string;
  /** Contract document it transcribes. */
  seed: string;
  /** Spec file path. */
  file: string;
  /** One paragraph on the connector. */
  description: string;
  /** Where the connector's own words are written (title, description, seed, transitions), for diff's locations. */
  docSources?: Partial<Record<'title' | 'description' | 'seed' | 'transitionsUnspecified', SourceLocation>>;
  /** What readers of every connector need of this one (indexes, totals, limits), made from `entities` by normalize. */
  outline: ConnectorOutline;
  /** Authentication (auth_config). */
  auth: AuthIR;
  /** Paging schemes, sorted by name. */
  pagination: PaginationIR[];
  /** Meta shapes, sorted by name. */
  meta: ShapeIR[];
  /** Record shapes, sorted by name. */
  records: ShapeIR[];
  /** Entities, sorted by name. */
  entities: EntityIR[];
  /** The seed's words where state transitions are not shown. */
  transitionsUnspecified?: string;
  /** The npm package generated for the connector (named by the config, versioned by the release state). */
  package: ConnectorPackageIR;
}

/**
 * A connector's entities and actions by name: all that the files made from every connector (indexes, totals, the MCP
 * server's tool list) and the Limits table's matching read of it. They read this, not `entities`, so a one-connector
 * edit never loads the other connectors' entities from the IR cache (cache/ir-cache.ts keeps the outline apart).
 */
export interface ConnectorOutline {
  /** `auth.method`. */
  authMethod: string;
  /** The names of `auth.fields`, in their order. */
  authFields: string[];
  /** Its entities, in `entities`' order, each with its actions in their order. */
  entities: OutlineEntity[];
}

/** An entity of ConnectorOutline. */
export interface OutlineEntity {
  /** Entity name. */
  name: string;
  /** Its actions: name, kind, and the names of its known params (ActionIR.params). */
  actions: { name: ActionName; kind: 'read' | 'write'; params: string[] }[];
}

/** One generated npm package. */
export interface PackageIR {
  /** npm name, e.g. `@connector-sdk/issue-tracking` (config `packages.name`). */
  name: string;
  /** Version, MAJOR.MINOR.PATCH (release/versions.json; the runtime's from runtime/package.json). */
  version: string;
}

/** A connector's package: name, version and its changelog entries (from the project's release state). */
export interface ConnectorPackageIR extends PackageIR {
  /** The changelog's entries, newest first, without a title (release/changelogs/<id>.md, or the first release's entry). */
  changelog: string;
}

/** How the generated packages are named, described and published (the config's `packages`, defaults applied). */
export interface PackagingIR {
  /** npm scope of every package, e.g. `@connector-sdk`. */
  scope: string;
  /** The runtime package every connector package depends on. */
  runtime: PackageIR;
  /** SPDX license of every package. */
  license: string;
  /** package.json `author`, when configured. */
  author?: string;
  /** package.json `homepage`, when configured. */
  homepage?: string;
  /** package.json `repository`, when configured (`directory` may hold `{id}` / `{connector}`). */
  repository?: string | { type?: string; url: string; directory?: string };
  /** Registry the packages publish to (publishConfig.registry), when configured. */
  registry?: string;
  /** npm access of the scoped packages (publishConfig.access), when configured. */
  access?: 'public' | 'restricted';
}

/** A value the spec assumes where the contract is silent. */
export interface AssumptionIR {
  /** Stable id (`envelope`, or `payments/meta/search_page/next_page`). */
  id: string;
  /** The contract's words on what it does not show. */
  contract: string;
  /** Where the assumed value comes from. */
  source: string;
  /** The assumed value. */
  value: unknown;
  /** Where it is written. */
  location: SourceLocation;
}

/** One row of the contract's Limits table. */
export interface LimitIR {
  /** Where the limit applies, in the seed's words. */
  where: string;
  /** The limit, in the seed's words. */
  limit: string;
  /** The constraint the params carry. */
  expect?: Record<string, Literal>;
  /** Params it constrains, as `connector/entity/action/param` (or `search/param`). */
  appliesTo: string[];
  /** The seed's words where the limit is not given. */
  unspecified?: string;
}

/** One HTTP endpoint of the service. */
export interface EndpointIR {
  /** HTTP method. */
  method: string;
  /** Path template with `{source_id}`. */
  path: string;
  /** Placeholders of the path template (`source_id`) → what each one is; sorted by name. */
  pathParams: Record<string, string>;
  /** What it does. */
  description?: string;
  /** Required headers; `<AUTH_TOKEN>` is a placeholder. */
  headers: Record<string, string>;
  /** The body the endpoint takes: the execute body or the source-creation body. */
  body: 'executeBody' | 'sourceCreation';
  /** What it answers, in words. */
  response?: string;
}

/**
 * The shape of one sort element of the uniform search (assumption sortElement), normalized for comparison:
 * `{ "<searchable field>": "asc" | "desc" }` gives key `<searchable field>` and directions [asc, desc].
 */
export interface SortElementIR {
  /** The assumed shape as written, whitespace removed (JSON text when it is not a string). */
  text: string;
  /** The one key of the element, when the text has the form `{ "<key>": "a" | "b" }`. */
  key?: string;
  /** The values the key takes, sorted, when the text has that form. */
  directions?: string[];
}

/** The common contract (seed 000). */
export interface ServiceIR {
  /** Service title. */
  title: string;
  /** Contract document. */
  seed: string;
  /** What the service does. */
  description: string;
  /** The execute endpoint. */
  execute: EndpointIR;
  /** The source-creation endpoint. */
  createSource: EndpointIR;
  /** Envelope keys of every response (an assumption). */
  envelope: { records: string; meta: string };
  /** Lower-cased response header carrying the service's request id (an assumption); absent when the spec assumes none. */
  requestIdHeader?: string;
  /** Action vocabulary in contract order. */
  actions: { name: ActionName; kind: 'read' | 'write'; description: string }[];
  /** Write actions the contract allows, as `connector/entity/action`, sorted. */
  writeActions: string[];
  /** Connector ids in contract order. */
  connectorIds: string[];
  /** Fields of the execute body. */
  executeBody: PropertyIR[];
  /** Meta key vocabulary of the contract. */
  metaKeys: string[];
  /** The uniform search action. */
  search: {
    /** Params of every search action. */
    params: PropertyIR[];
    /** Operators with their operand kind. */
    operators: { name: string; operand: 'value' | 'values' | 'text' | 'filter' | 'filters'; description?: string }[];
    /** Fields of the hit response. */
    hit: PropertyIR[];
    /** How search results page. */
    pagination: PaginationIR;
    /** Shape of a sort element (assumption sortElement). */
    sort: SortElementIR;
  };
  /** The source-creation body. */
  sourceCreation: ShapeIR;
  /** Bearer authentication of every call. */
  authentication: { header: string; scheme: string; description?: string; unspecified?: string; placeholders: string[] };
  /** Error body and statuses (assumptions). */
  errors: {
    /** The error body as the spec writes it (an example-like sketch: field → type expression, arrays of one element). */
    body: unknown;
    /** The same body as typed fields (what clients read: `message`, `errors[].error_code`), sorted by name. */
    fields: PropertyIR[];
    /** Status (`404`, `5xx`) → what it means. */
    statuses: Record<string, string>;
  };
  /** Limits table. */
  limits: LimitIR[];
  /** Versioning. */
  versioning: { pathSegment: string; description?: string; unspecified?: string };
  /** Events (none described). */
  events?: string;
  /** Every assumption of the spec, service-level first, then per connector; sorted by id within each. */
  assumptions: AssumptionIR[];
  /**
   * Where the sections of service.yaml are written, by dotted key (`service`, `endpoints.execute`,
   * `endpoints.createSource`, `versioning`, `authentication`, `actions`, `executeBody`, `sourceCreation`,
   * `search.operators`, `limits`), for locating changes.
   */
  sources: Record<string, SourceLocation>;
}

/** The whole spec. */
export interface SpecIR {
  /** The common contract. */
  service: ServiceIR;
  /** Connectors in contract order (only those the config selects, when it selects). */
  connectors: ConnectorIR[];
  /** How the generated packages are named and described. */
  packaging: PackagingIR;
}
