/**
 * Every check of `connector-codegen diff`, as one table: a stable id, its severity, the direction it concerns
 * and the semver bump it asks for. The comparer may only emit ids listed here, the docs table is rendered from
 * it (`diff --list-checks`, generator/diff/CHECKS.md), and the JSON Schema of the output enumerates them.
 *
 * The rule, as in the best API-diff tools: narrowing what requests may carry, or widening what responses may
 * carry, breaks clients. Params and searchable fields are requests (a client sends them); record, meta and
 * search-hit fields are responses (a client reads them). auth_config fields and variables are compared as
 * params: they are what a client sends when it creates a source.
 */

/** How much a change can hurt a client. */
export type Severity = 'breaking' | 'warning' | 'non-breaking';
/** Whether the change concerns what clients send or what they receive. */
export type Direction = 'request' | 'response';
/** The semver part a change asks to bump. */
export type Bump = 'major' | 'minor' | 'patch';

/** One row of the table. */
export interface CheckInfo {
  /** Stable id, e.g. `param-required-added`. */
  id: string;
  /** Severity of every change with this id. */
  severity: Severity;
  /** What the check is about: requests, responses, or either (it follows the item that changed). */
  direction: Direction | 'either';
  /** Semver part the change asks for (below 1.0.0 the minor plays the major's role). */
  bump: Bump;
  /** One line for the docs. */
  summary: string;
}

type Row = [severity: Severity, bump: Bump, summary: string];

/** Facets compared on every param (action params, search params, auth_config fields and variables). */
const PARAM: Record<string, Row> = {
  added: ['non-breaking', 'minor', 'An optional param was added.'],
  'required-added': ['breaking', 'major', 'A required param was added: existing calls lack it.'],
  removed: ['breaking', 'major', 'A param was removed: calls that send it no longer compile or are rejected.'],
  'became-required': ['breaking', 'major', 'An optional param became required.'],
  'became-optional': ['non-breaking', 'minor', 'A required param became optional.'],
  'type-changed': ['breaking', 'major', 'The param takes another type (or a narrower one).'],
  'type-widened': ['non-breaking', 'minor', 'The param accepts a wider type (e.g. integer → number).'],
  'enum-value-added': ['non-breaking', 'minor', 'The param accepts one more enum value.'],
  'enum-value-removed': ['breaking', 'major', 'An enum value the param accepted was removed.'],
  'enum-added': ['breaking', 'major', 'The param is now restricted to a list of values.'],
  'enum-removed': ['non-breaking', 'minor', 'The param is no longer restricted to a list of values.'],
  'const-added': ['breaking', 'major', 'The param now takes one literal value only.'],
  'const-changed': ['breaking', 'major', 'The literal value the param takes changed.'],
  'const-removed': ['non-breaking', 'minor', 'The param no longer takes one literal value only.'],
  'default-added': ['non-breaking', 'patch', 'The spec now states the default of a param.'],
  'default-changed': ['warning', 'patch', 'The default of a param changed: calls that omit it behave differently.'],
  'default-removed': ['warning', 'patch', 'The param no longer has a stated default.'],
  'limit-tightened': ['breaking', 'major', 'A bound was added or tightened (minimum, maximum, minLength, maxLength, minItems, maxItems, pattern).'],
  'limit-loosened': ['non-breaking', 'minor', 'A bound was loosened or removed.'],
  'pattern-changed': ['breaking', 'major', 'The pattern the param must match changed.'],
  'separator-changed': ['breaking', 'major', 'The separator joining the entries of a list param changed.'],
  deprecated: ['warning', 'minor', 'The param was deprecated.'],
};

/** Facets compared on searchable fields (what a search filter may name and compare with). */
const SEARCHABLE: Record<string, Row> = {
  added: ['non-breaking', 'minor', 'A field became searchable.'],
  removed: ['breaking', 'major', 'A field is no longer searchable: filters that name it are rejected.'],
  'type-changed': ['breaking', 'major', 'A searchable field takes another (or a narrower) type.'],
  'type-widened': ['non-breaking', 'minor', 'A searchable field accepts a wider type.'],
  'became-nullable': ['non-breaking', 'minor', 'A searchable field may be compared with null.'],
  'became-non-nullable': ['breaking', 'major', 'A searchable field may no longer be compared with null.'],
  'enum-value-added': ['non-breaking', 'minor', 'A searchable field accepts one more enum value.'],
  'enum-value-removed': ['breaking', 'major', 'An enum value of a searchable field was removed.'],
  'enum-added': ['breaking', 'major', 'A searchable field is now restricted to a list of values.'],
  'enum-removed': ['non-breaking', 'minor', 'A searchable field is no longer restricted to a list of values.'],
  'const-added': ['breaking', 'major', 'A searchable field now holds one literal value only.'],
  'const-changed': ['breaking', 'major', 'The literal value of a searchable field changed.'],
  'const-removed': ['non-breaking', 'minor', 'A searchable field no longer holds one literal value only.'],
  deprecated: ['warning', 'minor', 'A searchable field was deprecated.'],
};

/** Facets compared on response fields (record fields, meta keys, search-hit fields; nested ones too). */
const RESPONSE: Record<string, Row> = {
  added: ['non-breaking', 'minor', 'A field was added to a response.'],
  removed: ['breaking', 'major', 'A response field was removed: code that reads it breaks.'],
  'type-changed': ['breaking', 'major', 'A response field was retyped (or may hold more types than before).'],
  'type-narrowed': ['non-breaking', 'patch', 'A response field holds fewer types than before.'],
  'became-nullable': ['breaking', 'major', 'A response field may now be null.'],
  'became-non-nullable': ['non-breaking', 'patch', 'A response field is never null any more.'],
  'enum-value-added': ['breaking', 'major', 'A response field may hold a value clients do not handle.'],
  'enum-value-removed': ['non-breaking', 'patch', 'A response field holds one enum value fewer.'],
  'enum-added': ['non-breaking', 'patch', 'A response field is now restricted to a list of values.'],
  'enum-removed': ['breaking', 'major', 'A response field is no longer restricted to a list of values.'],
  'const-added': ['non-breaking', 'patch', 'A response field now always holds one literal value.'],
  'const-changed': ['breaking', 'major', 'The literal value a response field holds changed.'],
  'const-removed': ['breaking', 'major', 'A response field no longer always holds one literal value.'],
  deprecated: ['warning', 'minor', 'A response field was deprecated.'],
};

/** Checks of the structure around params and fields. */
const STRUCTURE: Record<string, [Severity, Direction | 'either', Bump, string]> = {
  'connector-added': ['non-breaking', 'request', 'minor', 'A connector was added (a new package).'],
  'connector-removed': ['breaking', 'request', 'major', 'A connector was removed (its package is no longer generated).'],
  'entity-added': ['non-breaking', 'request', 'minor', 'An entity was added.'],
  'entity-removed': ['breaking', 'request', 'major', 'An entity was removed with all its actions.'],
  'action-added': ['non-breaking', 'request', 'minor', 'An action was added to an entity.'],
  'action-removed': ['breaking', 'request', 'major', 'An action was removed from an entity.'],
  'action-deprecated': ['warning', 'request', 'minor', 'An action was deprecated.'],
  'action-result-changed': ['breaking', 'response', 'major', 'An action returns another result shape, record or meta.'],
  'action-download-changed': ['warning', 'response', 'patch', 'The range param or size limit of a download changed.'],
  'params-opened': ['non-breaking', 'request', 'minor', 'An action now accepts params beyond those listed (the spec says they are not all shown).'],
  'params-closed': ['breaking', 'request', 'major', 'An action accepts only the params listed now.'],
  'searchable-fields-opened': ['non-breaking', 'request', 'minor', 'An entity may be searched by fields beyond those listed.'],
  'searchable-fields-closed': ['breaking', 'request', 'major', 'An entity may be searched only by the fields listed now.'],
  'shape-added': ['non-breaking', 'response', 'minor', 'A record or meta shape (an exported type) was added.'],
  'shape-removed': ['breaking', 'response', 'major', 'A record or meta shape (an exported type) was removed.'],
  'shape-opened': ['non-breaking', 'response', 'patch', 'A record or meta shape may carry fields beyond those listed.'],
  'shape-closed': ['warning', 'response', 'patch', 'A record or meta shape carries only the fields listed now (reads of other keys stop compiling).'],
  'pagination-added': ['non-breaking', 'response', 'minor', 'An action now pages (its result can be iterated page by page).'],
  'pagination-removed': ['breaking', 'response', 'major', 'An action no longer pages.'],
  'pagination-scheme-changed': ['warning', 'response', 'patch', 'An action pages with another scheme.'],
  'pagination-scheme-modified': ['warning', 'response', 'patch', 'A paging scheme changed how the next page is found or when paging stops.'],
  'auth-method-changed': ['breaking', 'request', 'major', 'A connector authenticates its sources with another method (auth_config).'],
  'envelope-changed': ['breaking', 'response', 'major', 'The response keys carrying records or meta changed.'],
  'fixtures-changed': ['non-breaking', 'response', 'patch', 'A fixture hint (idPrefix, idFormat) changed: the mock\'s data changes, clients do not.'],
  'docs-changed': ['non-breaking', 'either', 'patch', 'A description, note, provenance, assumption, title or deprecation text changed.'],
  'attribute-changed': ['warning', 'either', 'patch', 'Another attribute changed that the diff does not classify (review it).'],
};

function facetRows(prefix: string, direction: Direction, rows: Record<string, Row>): CheckInfo[] {
  return Object.entries(rows).map(([facet, [severity, bump, summary]]) => ({ id: `${prefix}-${facet}`, severity, direction, bump, summary }));
}

/** The table, in documentation order. */
export const CHECKS: readonly CheckInfo[] = [
  ...Object.entries(STRUCTURE).map(([id, [severity, direction, bump, summary]]) => ({ id, severity, direction, bump, summary })),
  ...facetRows('param', 'request', PARAM),
  ...facetRows('searchable-field', 'request', SEARCHABLE),
  ...facetRows('response-field', 'response', RESPONSE),
];

const byId = new Map(CHECKS.map((c) => [c.id, c]));

/** The table row of `id`; throws on an id not in the table (a bug in the comparer, never user input). */
export function checkInfo(id: string): CheckInfo {
  const info = byId.get(id);
  if (!info) throw new Error(`internal: diff check '${id}' is not in the checks table`);
  return info;
}

/** Facets a kind of schema item is compared on (`param` → its PARAM keys, …). */
export const FACETS: Record<'param' | 'searchable-field' | 'response-field', ReadonlySet<string>> = {
  param: new Set(Object.keys(PARAM)),
  'searchable-field': new Set(Object.keys(SEARCHABLE)),
  'response-field': new Set(Object.keys(RESPONSE)),
};

/** Severity order, worst first. */
export const SEVERITY_ORDER: readonly Severity[] = ['breaking', 'warning', 'non-breaking'];

/** The table as Markdown (generator/diff/CHECKS.md is this text; a test keeps them equal). */
export function checksMarkdown(): string {
  const lines = [
    '# Checks of `connector-codegen diff`',
    '',
    '<!-- Rendered from generator/diff/checks.ts by `connector-codegen diff --list-checks`; a test keeps it in sync. -->',
    '',
    'Narrowing what requests may carry, or widening what responses may carry, breaks clients. Params and searchable',
    'fields are requests; record, meta and search-hit fields are responses; auth_config fields and variables are',
    'compared as params. Below 1.0.0 a `major` bump raises the minor version and a `minor` bump the patch version.',
    '',
    '| check id | severity | direction | bump | what changed |',
    '|---|---|---|---|---|',
    ...CHECKS.map((c) => `| \`${c.id}\` | ${c.severity} | ${c.direction} | ${c.bump} | ${c.summary} |`),
    '',
  ];
  return lines.join('\n');
}
