/**
 * The rows of the checks table, by section. Each severity is derived from one rule (checks.ts `RULE`): a change
 * is breaking when code written against the package generated from the base spec, left unchanged, stops
 * compiling against the package generated from the head spec (the compile test), or when the base package
 * behaves differently against a service that follows the head spec (the wire test). `why` says how the rule
 * decides each row; every warning says why it is not breaking and still needs a reviewer.
 */
import type { Bump, Direction, Severity } from './checks.js';

/** One row: severity, direction, bump, what changed, why that severity. */
export type Row = [severity: Severity, direction: Direction | 'either', bump: Bump, summary: string, why: string];

/** A facet row of params, searchable fields or response fields (the direction is the family's). */
export type FacetRow = [severity: Severity, bump: Bump, summary: string, why: string];

const DEPRECATED_REMOVAL = 'Removed after a deprecation that shipped in a release (see Deprecations): users were told in that release. Configurable (`diff.deprecation`, `diff.severity`).';

/** Connectors, entities and actions: what exists and what an action is. */
export const STRUCTURE: Record<string, Row> = {
  'connector-added': ['non-breaking', 'request', 'minor', 'A connector was added (a new package).', 'Nothing installed changes.'],
  'connector-removed': ['breaking', 'request', 'major', 'A connector was removed (its package is no longer generated).', 'The service no longer serves its sources; its package gets no new version.'],
  'entity-added': ['non-breaking', 'request', 'minor', 'An entity was added.', 'New methods; existing calls are untouched.'],
  'entity-removed': ['breaking', 'request', 'major', 'An entity was removed with all its actions.', 'Its methods stop compiling; the service rejects calls naming it.'],
  'action-added': ['non-breaking', 'request', 'minor', 'An action was added to an entity.', 'A new method; existing calls are untouched.'],
  'action-removed': ['breaking', 'request', 'major', 'An action was removed from an entity.', 'The method stops compiling; the service rejects the call.'],
  'action-removed-after-deprecation': ['warning', 'request', 'minor', 'A deprecated action was removed after its deprecation shipped.', DEPRECATED_REMOVAL],
  'action-deprecated': ['warning', 'request', 'minor', 'An action was deprecated.', 'Nothing breaks yet: it announces a removal, which users should plan for.'],
  'action-became-write': ['breaking', 'request', 'major', 'The action vocabulary now makes an action a write.', 'Installed clients retry it after failures as a read, which may repeat a write.'],
  'action-became-read': ['non-breaking', 'request', 'patch', 'The action vocabulary now makes an action a read.', 'Installed clients only miss retries they could now make.'],
  'params-opened': ['non-breaking', 'request', 'minor', 'An action now accepts params beyond those listed (the spec says they are not all shown).', 'Every call that compiled still does; the service accepts what it accepted.'],
  'params-closed': ['breaking', 'request', 'major', 'An action accepts only the params listed now.', 'Calls passing other params stop compiling; the service may reject them.'],
  'searchable-fields-opened': ['non-breaking', 'request', 'minor', 'An entity may be searched by fields beyond those listed.', 'Every filter that compiled still does.'],
  'searchable-fields-closed': ['breaking', 'request', 'major', 'An entity may be searched only by the fields listed now.', 'Filters naming other fields stop compiling and are rejected.'],
};

/** What actions return: results, record and meta shapes, the response envelope. */
export const RESULTS: Record<string, Row> = {
  'action-result-changed': ['breaking', 'response', 'major', 'An action returns another result shape, record or meta.', 'Code reading the old type stops compiling; installed clients read the old shape.'],
  'shape-added': ['non-breaking', 'response', 'minor', 'A record or meta shape (an exported type) was added.', 'A new type; nothing uses it yet.'],
  'shape-removed': ['breaking', 'response', 'major', 'A record or meta shape (an exported type) was removed.', 'Code naming the type stops compiling (a record renamed is removed and added).'],
  'shape-opened': ['non-breaking', 'response', 'patch', 'A record or meta shape may carry fields beyond those listed.', 'The type gains an index signature; every listed field is still there, and record validators already allow other keys.'],
  'shape-closed': ['breaking', 'response', 'major', 'A record or meta shape carries only the fields listed now.', 'The index signature goes: reads of keys beyond those listed stop compiling.'],
  'envelope-changed': ['breaking', 'response', 'major', 'The response keys carrying records or meta changed.', 'Installed clients look for records and meta under the old keys and find nothing.'],
};

/** Paging: whether an action pages, with which scheme, and every part of a scheme. */
export const PAGING: Record<string, Row> = {
  'pagination-added': ['non-breaking', 'response', 'minor', 'An action now pages (its result can be iterated page by page).', 'Awaiting the call still gives one page; iterating is new.'],
  'pagination-removed': ['breaking', 'response', 'major', 'An action no longer pages.', 'Code iterating pages stops compiling; installed clients send paging params the service ignores.'],
  'pagination-scheme-changed': ['breaking', 'response', 'major', 'An action pages with another scheme that works differently.', 'Installed clients walk its pages with the old scheme: the old param, next value and stop conditions.'],
  'pagination-scheme-renamed': ['non-breaking', 'response', 'patch', 'An action pages with a scheme of another name that works the same.', 'Param, size param, next value and stop conditions are equal: installed clients walk pages as before.'],
  'pagination-param-changed': ['breaking', 'request', 'major', 'The request param carrying the next page (cursor, page, offset, token) changed.', 'Installed clients send the next value in the old param; the service ignores it and answers the first page again.'],
  'pagination-size-param-added': ['non-breaking', 'request', 'minor', 'A paging scheme now names its page-size param.', 'Installed clients send no size; the service uses its default.'],
  'pagination-previous-param-added': ['non-breaking', 'request', 'minor', 'A paging scheme now says which param pages backwards.', 'Installed clients send what they sent; the spec now says what the param does.'],
  'pagination-previous-param-changed': ['breaking', 'request', 'major', 'The param that pages backwards was renamed or no longer pages backwards.', 'Calls that page backwards get another page than the one before the record they name.'],
  'pagination-size-param-changed': ['breaking', 'request', 'major', 'The page-size param of a paging scheme was renamed or removed.', 'Sizes installed clients send are ignored, and their short-page test reads the wrong param.'],
  'pagination-start-changed': ['breaking', 'request', 'major', 'The first page number of a page-number scheme changed (e.g. 1 → 0).', 'Installed clients count pages from the old start: they repeat or skip a page.'],
  'pagination-next-changed': ['breaking', 'response', 'major', 'Where the next page value comes from changed (source, meta path, record field, URL query param).', 'Installed clients read the next value from the old place: they stop early or repeat pages.'],
  'pagination-stop-removed': ['breaking', 'response', 'major', 'A stop condition was removed from a paging scheme (or inverted, e.g. metaFalse → metaTrue).', 'Installed clients still stop when it holds: they end the walk before the last page.'],
  'pagination-stop-added': ['warning', 'response', 'patch', 'A stop condition was added to a paging scheme.', 'Not breaking while the old conditions still hold on the last page; where only the new one does, installed clients ask for one page more (an empty page, or a repeated cursor the runtime reports). Review.'],
  'pagination-style-changed': ['non-breaking', 'response', 'patch', 'The style label of a paging scheme changed.', 'A label for docs: the runtime walks pages by param, next value and stop conditions only.'],
};

/** Downloads: the partial-content range param and the size limit. */
export const DOWNLOADS: Record<string, Row> = {
  'download-range-param-added': ['non-breaking', 'request', 'minor', 'A download now takes a partial-content range.', 'Calls without a range get the whole content, as before.'],
  'download-range-param-removed': ['breaking', 'request', 'major', 'A download no longer takes a partial-content range.', 'Installed clients asking for a range get the whole content or a rejection instead of 206 partial content.'],
  'download-range-param-changed': ['breaking', 'request', 'major', 'A download takes its range in another param.', 'Installed clients send the range in the old param; the service ignores it.'],
  'download-max-bytes-lowered': ['breaking', 'response', 'major', 'The size limit of a download was lowered (or set where there was none).', 'Content between the new and the old limit is no longer returned.'],
  'download-max-bytes-raised': ['non-breaking', 'response', 'patch', 'The size limit of a download was raised (or removed).', 'Downloads are streamed: larger content arrives the same way.'],
};

/** The common contract's transport: endpoints, headers, versioning, authentication header, transport assumptions. */
export const TRANSPORT: Record<string, Row> = {
  'endpoint-method-changed': ['breaking', 'request', 'major', 'The HTTP method of an endpoint (execute, source creation) changed.', 'Installed clients send the old method.'],
  'endpoint-path-changed': ['breaking', 'request', 'major', 'The path of an endpoint changed.', 'Installed clients send requests to the old path.'],
  'endpoint-path-param-renamed': ['breaking', 'request', 'major', 'A placeholder of an endpoint path was renamed (`{source_id}` → `{sourceId}`).', 'The URL on the wire is the same, but the path template is API: the OpenAPI export names the parameter (code using `params.path.source_id` stops compiling) and the runtime fills only the placeholder it knows.'],
  'endpoint-body-changed': ['breaking', 'request', 'major', 'An endpoint takes the other body (execute body ↔ source-creation body).', 'Installed clients send the old body.'],
  'endpoint-header-added': ['breaking', 'request', 'major', 'An endpoint requires a header it did not.', 'Installed clients do not send it.'],
  'endpoint-header-changed': ['breaking', 'request', 'major', 'The value a header of an endpoint must carry changed.', 'Installed clients send the old value.'],
  'endpoint-header-removed': ['non-breaking', 'request', 'patch', 'An endpoint no longer requires a header.', 'Installed clients still send it; the service no longer needs it.'],
  'version-segment-changed': ['breaking', 'request', 'major', 'The version segment of the service paths (`/api/v1`) changed.', 'Both endpoints carry it: a service of the new version answers at URLs installed clients do not call.'],
  'auth-scheme-changed': ['breaking', 'request', 'major', 'The header or scheme carrying the bearer token changed.', 'Installed clients send the token the old way and are refused.'],
  'transport-assumption-changed': ['breaking', 'response', 'major', 'An assumption the runtime is built on changed or was removed (download representation, where search hits or the created source sit, the request-id header).', 'Installed clients read those responses the old way (a request id from a header the service no longer sends is lost).'],
  'assumption-changed': ['warning', 'either', 'patch', 'The value of an assumption no other check covers changed, or the assumption was removed.', 'The diff cannot tell from the words what it means for clients: review.'],
  'auth-method-changed': ['breaking', 'request', 'major', 'A connector authenticates its sources with another method (auth_config).', 'Source creations of installed clients carry the old credentials.'],
  'auth-variable-supplied-added': ['non-breaking', 'request', 'minor', 'A configuration variable is now supplied in auth_config (suppliedIn), optional there: it has a default.', 'AuthConfig gains an optional member; source creations of installed clients leave it out and the service applies its default.'],
  'auth-variable-supplied-required-added': ['breaking', 'request', 'major', 'A configuration variable without a default is now supplied in auth_config (suppliedIn).', 'AuthConfig gains a required member: source creations without it stop compiling, and the service rejects them.'],
  'auth-variable-supplied-removed': ['breaking', 'request', 'major', 'A configuration variable is no longer supplied in auth_config (suppliedIn dropped).', 'AuthConfig loses the member: code setting it stops compiling; the service ignores or rejects it.'],
};

/** The uniform search: operators and the sort element (params, hit fields and paging are compared as such). */
export const SEARCH: Record<string, Row> = {
  'search-operator-added': ['non-breaking', 'request', 'minor', 'The uniform search gained an operator.', 'Every filter that compiled still does.'],
  'search-operator-removed': ['breaking', 'request', 'major', 'The uniform search lost an operator (e.g. `fuzzy`).', 'Filters using it stop compiling and are rejected.'],
  'search-operator-operand-changed': ['breaking', 'request', 'major', 'An operator of the uniform search takes another operand (value, values, text, filter, filters).', 'Installed clients send the old operand.'],
  'sort-element-changed': ['breaking', 'request', 'major', 'The shape of a sort element of the uniform search changed.', 'Installed clients send sorts in the old shape.'],
  'sort-direction-added': ['non-breaking', 'request', 'minor', 'A sort element takes one more direction value.', 'Every sort that compiled still does.'],
  'sort-direction-removed': ['breaking', 'request', 'major', 'A sort element takes one direction value fewer.', 'Sorts using it stop compiling and are rejected.'],
};

/** Errors: statuses (the error body is compared field by field as a response). */
export const ERRORS: Record<string, Row> = {
  'error-status-added': ['warning', 'response', 'patch', 'The service may answer with one more error status.', 'Installed clients raise it as an ApiError (its class when the runtime has one for it), as they do any failure; code branching on statuses does not expect it. Review.'],
  'error-status-removed': ['breaking', 'response', 'major', 'An error status is no longer used.', 'The condition it reported comes back another way: installed clients\u2019 handling of that status (its error class, retries of 429 and 5xx) no longer applies.'],
  'error-status-changed': ['warning', 'response', 'patch', 'The meaning of an error status changed (in words).', 'The diff cannot tell from the words whether clients must handle it differently: review.'],
};

/** Fixture hints, documentation and what the diff does not classify. */
export const OTHER: Record<string, Row> = {
  'fixtures-changed': ['non-breaking', 'response', 'patch', "A fixture hint (idPrefix, idFormat) changed: the mock's data changes, clients do not.", 'Clients never see fixture hints.'],
  'docs-changed': ['non-breaking', 'either', 'patch', 'A description, note, provenance, assumption, title or deprecation text changed.', 'Words only: types and wire are the same.'],
  'attribute-changed': ['warning', 'either', 'patch', 'Another attribute changed that the diff does not classify (review it).', 'The diff cannot tell what it means for clients.'],
};

/** Facets compared on every param (action params, search params, execute and source-creation body, auth_config). */
export const PARAM: Record<string, FacetRow> = {
  added: ['non-breaking', 'minor', 'An optional param was added.', 'Existing calls do not send it.'],
  'required-added': ['breaking', 'major', 'A required param was added: existing calls lack it.', 'Calls without it stop compiling and are rejected.'],
  removed: ['breaking', 'major', 'A param was removed: calls that send it no longer compile or are rejected.', 'Calls passing it stop compiling; the service rejects or ignores it.'],
  'removed-after-deprecation': ['warning', 'minor', 'A deprecated param was removed after its deprecation shipped.', DEPRECATED_REMOVAL],
  'became-required': ['breaking', 'major', 'An optional param became required.', 'Calls without it stop compiling and are rejected.'],
  'became-optional': ['non-breaking', 'minor', 'A required param became optional.', 'Calls that give it still may.'],
  'type-changed': ['breaking', 'major', 'The param takes another type (or a narrower one).', 'Calls passing the old type stop compiling and are rejected.'],
  'type-widened': ['non-breaking', 'minor', 'The param accepts a wider type (e.g. integer → number).', 'Every value that was accepted still is.'],
  'enum-value-added': ['non-breaking', 'minor', 'The param accepts one more enum value.', 'Every value that was accepted still is.'],
  'enum-value-removed': ['breaking', 'major', 'An enum value the param accepted was removed.', 'Calls passing it stop compiling and are rejected.'],
  'enum-added': ['breaking', 'major', 'The param is now restricted to a list of values.', 'Calls passing other values stop compiling and are rejected.'],
  'enum-removed': ['non-breaking', 'minor', 'The param is no longer restricted to a list of values.', 'Every value that was accepted still is.'],
  'const-added': ['breaking', 'major', 'The param now takes one literal value only.', 'Calls passing other values stop compiling and are rejected.'],
  'const-changed': ['breaking', 'major', 'The literal value the param takes changed.', 'Calls passing the old value stop compiling and are rejected.'],
  'const-removed': ['non-breaking', 'minor', 'The param no longer takes one literal value only.', 'The old value is still accepted.'],
  'default-added': ['non-breaking', 'patch', 'The spec now states the default of a param.', 'Calls that omit it get what they got; the spec now says what that is.'],
  'default-changed': ['breaking', 'major', 'The default of a param changed.', 'Calls that omit the param get other results (payments limit 10 → 25: other pages); the runtime\u2019s short-page test uses the old default.'],
  'default-removed': ['breaking', 'major', 'The param no longer has a stated default.', 'The service no longer promises what it does when the param is omitted: calls that omit it may get other results.'],
  'limit-tightened': ['breaking', 'major', 'A bound was added or tightened (minimum, maximum, minLength, maxLength, minItems, maxItems, pattern).', 'Calls outside the new bound are rejected (and by the client\u2019s own param check).'],
  'limit-loosened': ['non-breaking', 'minor', 'A bound was loosened or removed.', 'Every value that was accepted still is.'],
  'pattern-changed': ['breaking', 'major', 'The pattern the param must match changed.', 'Values matching only the old pattern are rejected.'],
  'separator-changed': ['breaking', 'major', 'The separator joining the entries of a list param changed (or a string became a list, or stopped being one).', 'The service splits what installed clients send another way.'],
  'query-language-changed': ['breaking', 'major', 'The param carries a query in another language.', 'The service reads installed clients\u2019 queries in the new language: they mean something else or are rejected.'],
  'query-language-set': ['non-breaking', 'patch', 'The spec now names (or no longer names) the language of a query param.', 'What clients send and what the service reads is the same; the spec documents it.'],
  'format-added': ['breaking', 'major', 'The param must now hold values of a format (currency_lower_iso, date_time, lowercase_name, md5_of_lower_email, unix_time_string, url).', 'A narrower request: values outside the format are rejected by the service and by the client\u2019s own param check (its pattern).'],
  'format-changed': ['breaking', 'major', 'The param must hold values of another format.', 'Values of the old format are rejected.'],
  'format-removed': ['non-breaking', 'minor', 'The param no longer must hold values of a format.', 'Every value that was accepted still is.'],
  'matches-added': ['non-breaking', 'patch', 'The spec now states how a list param filters (the record fields it matches, exact, contains or prefix, case).', 'The same calls return what they returned; the spec now says what that is.'],
  'matches-changed': ['breaking', 'major', 'A list param filters another way: other record fields, another mode (exact, contains, prefix) or case sensitivity.', 'The same call returns other records: contains, prefix or ignoring case return more, exact or case-sensitive fewer, other fields others.'],
  'matches-removed': ['breaking', 'major', 'The spec no longer states how a list param filters.', 'The head service may filter another way: the same call may return other records.'],
  'excludes-added': ['non-breaking', 'patch', 'The spec now states what a flag param leaves out of a list when true (the record field and its values).', 'The same calls return what they returned; the spec now says what that is.'],
  'excludes-changed': ['breaking', 'major', 'A flag param leaves out other records when true: another field or other values.', 'The same call with the flag set returns other records.'],
  'excludes-removed': ['breaking', 'major', 'The spec no longer states what a flag param leaves out.', 'The head service may filter another way: the same call may return other records.'],
  'sort-added': ['non-breaking', 'patch', 'The spec now states how a list param sorts (the record field each value names, the direction).', 'The same calls return what they returned; the spec now says in which order.'],
  'sort-changed': ['breaking', 'major', 'A list param sorts another way: another field for a value, another direction or default direction, another syntax.', 'The same call returns records in another order: "the first page" holds other records for installed clients.'],
  'sort-removed': ['breaking', 'major', 'The spec no longer states how a list param sorts.', 'The head service may order the results another way: the same call may return records in another order.'],
  'range-added': ['non-breaking', 'patch', 'The spec now states which record field an interval param constrains (rangeOf).', 'The same calls return what they returned; the spec now says what that is.'],
  'range-changed': ['breaking', 'major', 'An interval param constrains another record field (rangeOf).', 'The same call selects records by another field: other records.'],
  'range-removed': ['breaking', 'major', 'The spec no longer states which record field an interval param constrains.', 'The head service may read the interval on another field: the same call may return other records.'],
  'bound-added': ['non-breaking', 'patch', 'The spec now states a bound of an interval param (side, inclusive or not, the param that makes it inclusive).', 'The same calls return what they returned; the spec now says what that is.'],
  'bound-changed': ['breaking', 'major', 'A bound of an interval param changed: its side, whether a record equal to it is kept, or the param that makes it inclusive.', 'The same call keeps or drops the records at the bound (or on the other side): installed clients get other records.'],
  'bound-removed': ['breaking', 'major', 'The spec no longer states a bound of an interval param.', 'The head service may treat the bound another way: the same call may return other records.'],
  deprecated: ['warning', 'minor', 'The param was deprecated.', 'Nothing breaks yet: it announces a removal.'],
};

/** Facets compared on searchable fields (what a search filter may name and compare with). */
export const SEARCHABLE: Record<string, FacetRow> = {
  added: ['non-breaking', 'minor', 'A field became searchable.', 'Every filter that compiled still does.'],
  removed: ['breaking', 'major', 'A field is no longer searchable: filters that name it are rejected.', 'Filters and sorts naming it stop compiling and are rejected.'],
  'removed-after-deprecation': ['warning', 'minor', 'A deprecated searchable field was removed after its deprecation shipped.', DEPRECATED_REMOVAL],
  'type-changed': ['breaking', 'major', 'A searchable field takes another, a narrower, or a wider type (one TypeScript types wider).', 'Filters comparing it with the old type stop compiling; search hits carry the field (`data` is typed by the searchable fields), so a wider type gives installed clients values their type does not allow.'],
  'type-widened': ['non-breaking', 'minor', 'A searchable field takes a wider type that TypeScript types alike (integer → number).', 'Every filter that compiled still does, and the search hits that carry the field have the type they had (a wider TypeScript type is type-changed: hits would hold values installed clients do not allow).'],
  'became-nullable': ['non-breaking', 'minor', 'A searchable field may be compared with null.', 'Every filter that compiled still does.'],
  'became-non-nullable': ['breaking', 'major', 'A searchable field may no longer be compared with null.', 'Filters comparing it with null stop compiling.'],
  'enum-value-added': ['breaking', 'major', 'A searchable field takes one more enum value.', 'Every filter that compiled still does, but search hits carry the field: installed clients get a value outside their union type (exhaustive switches fall through).'],
  'enum-value-removed': ['breaking', 'major', 'An enum value of a searchable field was removed.', 'Filters comparing with it stop compiling.'],
  'enum-added': ['breaking', 'major', 'A searchable field is now restricted to a list of values.', 'Filters comparing with other values stop compiling.'],
  'enum-removed': ['breaking', 'major', 'A searchable field is no longer restricted to a list of values.', 'Every filter that compiled still does, but search hits carry the field: installed clients get values outside their union type.'],
  'const-added': ['breaking', 'major', 'A searchable field now holds one literal value only.', 'Filters comparing with other values stop compiling.'],
  'const-changed': ['breaking', 'major', 'The literal value of a searchable field changed.', 'Filters comparing with the old value stop compiling.'],
  'const-removed': ['breaking', 'major', 'A searchable field no longer holds one literal value only.', 'Every filter that compiled still does, but search hits carry the field: installed clients get values outside their literal type.'],
  'format-added': ['breaking', 'major', 'A searchable field now holds values of a format (e.g. lowercase currency codes).', 'Filters comparing it with values outside the format match nothing any more.'],
  'format-changed': ['breaking', 'major', 'A searchable field holds values of another format.', 'Filters comparing it with values of the old format match nothing.'],
  'format-removed': ['breaking', 'major', 'A searchable field no longer holds values of one format.', 'Every filter matches what it matched, but search hits carry the field: values outside the format reach installed clients (code parsing the format misreads them), as response-field-format-removed.'],
  'derive-changed': ['non-breaking', 'patch', 'How the search data of a field follows from the record changed (derive: from another field, or a constant).', 'Mock data only: installed clients never compute it, and the field\u2019s type, values and format are compared on their own. The mock\u2019s search data changes.'],
  deprecated: ['warning', 'minor', 'A searchable field was deprecated.', 'Nothing breaks yet: it announces a removal.'],
};

/** Facets compared on response fields (record fields, meta keys, search-hit fields, the error body; nested ones too). */
export const RESPONSE: Record<string, FacetRow> = {
  added: ['non-breaking', 'minor', 'A field was added to a response.', 'A new member of the type; responses with more keys already pass installed clients\u2019 validators.'],
  removed: ['breaking', 'major', 'A response field was removed: code that reads it breaks.', 'Reads of it stop compiling; installed clients get undefined where the type says a value.'],
  'removed-after-deprecation': ['warning', 'minor', 'A deprecated response field was removed after its deprecation shipped.', DEPRECATED_REMOVAL],
  'type-changed': ['breaking', 'major', 'A response field was retyped (or may hold more types than before).', 'Installed clients get values their type does not allow.'],
  'type-narrowed': ['non-breaking', 'patch', 'A response field holds fewer types than before.', 'Every value is one installed clients handle (TypeScript may flag a test for a type that can no longer occur: dead code, not a failure).'],
  'became-nullable': ['breaking', 'major', 'A response field may now be null.', 'Installed clients get null where their type says a value.'],
  'became-non-nullable': ['non-breaking', 'patch', 'A response field is never null any more.', 'Every value is one installed clients handle.'],
  'enum-value-added': ['breaking', 'major', 'A response field may hold a value clients do not handle.', 'Installed clients get a value outside their union type: exhaustive switches fall through.'],
  'enum-value-removed': ['non-breaking', 'patch', 'A response field holds one enum value fewer.', 'Every value is one installed clients handle (a comparison with the removed value becomes dead code).'],
  'enum-added': ['non-breaking', 'patch', 'A response field is now restricted to a list of values.', 'Every value is one installed clients handle.'],
  'enum-removed': ['breaking', 'major', 'A response field is no longer restricted to a list of values.', 'Installed clients get values outside their union type.'],
  'const-added': ['non-breaking', 'patch', 'A response field now always holds one literal value.', 'Every value is one installed clients handle.'],
  'const-changed': ['breaking', 'major', 'The literal value a response field holds changed.', 'Installed clients get a value outside their literal type.'],
  'const-removed': ['breaking', 'major', 'A response field no longer always holds one literal value.', 'Installed clients get values outside their literal type.'],
  'format-added': ['non-breaking', 'patch', 'A response field now holds values of a format (currency_lower_iso, date_time, lowercase_name, md5_of_lower_email, unix_time_string, url).', 'A narrower response: every value is one installed clients handle.'],
  'format-changed': ['breaking', 'major', 'A response field holds values of another format.', 'Installed clients\u2019 response validators (the `validators` entry checks the format\u2019s pattern) reject the new values; code parsing the old format misreads them.'],
  'format-removed': ['breaking', 'major', 'A response field no longer holds values of one format.', 'Values outside the format reach installed clients: their response validators reject them; code parsing the format misreads them.'],
  'shape-opened': ['non-breaking', 'patch', 'An object field of a response may carry fields beyond those listed (it lists its fields and now says not all are shown: unspecified).', 'Its type gains an index signature: every listed field is still there.'],
  'shape-closed': ['breaking', 'major', 'An object field of a response carries only the fields listed now (an open object whose fields became listed, or one that no longer says not all are shown).', 'Its type loses the open record or index signature it had: reads of keys beyond those listed stop compiling.'],
  'derive-changed': ['non-breaking', 'patch', 'How a derived field follows from the stored record changed (derive: a copy of another field in the field\u2019s format, or a constant).', 'Mock data only: installed clients never compute it, and the field\u2019s type, values and format are compared on their own. The mock\u2019s records change.'],
  deprecated: ['warning', 'minor', 'A response field was deprecated.', 'Nothing breaks yet: it announces a removal.'],
};

/**
 * The contract's rules written as spec data (spec/README.md, Rules): what a list returns by default (ordering,
 * default filter), which params go together (param groups), which param and field identify a record (keyParam,
 * alternateKeys, key), what an update does with fields it is not given (updateSemantics), what every record holds (invariants),
 * which record of another entity owns each record (parent), and where an entity's records come from (recordsFrom). Clients do not encode them in types: they are promises
 * about what the service does with a call, so the wire half of the rule decides. A rule the base spec did not
 * state promised nothing, so stating one is not breaking; a stated rule that changes or is no longer stated is.
 * The rules on params and fields (format, matches, sortBy, rangeOf, bound, derive) are facets of the param and field
 * tables above.
 */
export const RULES: Record<string, Row> = {
  'ordering-added': ['non-breaking', 'response', 'patch', 'A list now states its default order (ordering, or the connector\u2019s defaults.ordering).', 'The base spec promised no order, so no installed client can rely on one: whatever order the head service uses is one the base allowed.'],
  'ordering-refined': ['non-breaking', 'response', 'patch', 'A tie-breaker was appended to the default order of a list (the old order is a prefix of the new).', 'Records come in the old order; only ties, which it left open, are now broken one stated way.'],
  'ordering-changed': ['breaking', 'response', 'major', 'The default order of a list changed: another field, direction or tie-breaker (replaced or dropped).', 'The same call returns records in another order: "the first page", "the newest record" hold other records for installed clients.'],
  'ordering-removed': ['breaking', 'response', 'major', 'A list no longer states its default order.', 'The head service may return records in any order: code relying on the old one (first page = newest) gets other records.'],
  'default-filter-added': ['breaking', 'response', 'major', 'A list now leaves out records unless asked for (a default filter was added).', 'The same call returns fewer records: those holding an excluded value disappear from installed clients\u2019 results.'],
  'default-filter-changed': ['breaking', 'response', 'major', 'The default filter of a list changed: the field tested, the values left out, or the param that lifts it.', 'The same call lists other records, or a call giving the old lifting param still has records left out.'],
  'default-filter-removed': ['breaking', 'response', 'major', 'A list no longer leaves out records by default.', 'The same call returns records it used to leave out (canceled subscriptions): code that relied on the filter sees them.'],
  'param-group-added': ['breaking', 'request', 'major', 'Params must now be given together or alternatively (a param group was added).', 'Types do not encode groups, so every call still compiles; the head service rejects calls that give the params another way (none of the alternatives, or two of a oneOf).'],
  'param-group-changed': ['breaking', 'request', 'major', 'A param group now accepts other calls (alternatives replaced, or atLeastOne became oneOf).', 'Calls the old group accepted can break the new one: the head service rejects them.'],
  'param-group-loosened': ['non-breaking', 'request', 'minor', 'A param group accepts more calls (oneOf became atLeastOne, or an atLeastOne group gained an alternative).', 'Every call the old group accepted satisfies the new one.'],
  'param-group-removed': ['non-breaking', 'request', 'minor', 'A param group no longer constrains which params are given.', 'Every call that was accepted still is.'],
  'key-param-added': ['non-breaking', 'request', 'patch', 'The spec now names the param (already there) that carries the key of the record a get, update, delete or download addresses.', 'Calls are the same; the spec now says which of their params identifies the record. (A new param is reported as such, not here.)'],
  'key-param-changed': ['breaking', 'request', 'major', 'Another param (already there) carries the key of the record a get, update, delete or download addresses.', 'Installed clients put the key where it used to go: the head service identifies the record by another param and addresses another record, or none. (A key param renamed is reported as a param removed and added, not here.)'],
  'alternate-key-added': ['non-breaking', 'request', 'minor', 'The key param of a get, update, delete or download also takes the value of one more record field (`issueIdOrKey` now takes an issue\u2019s `key`).', 'Every call that found a record still finds it; calls that passed such a value now find a record instead of a 404.'],
  'alternate-key-removed': ['breaking', 'request', 'major', 'The key param of a get, update, delete or download no longer takes the value of a record field it took.', 'Code that passes that field\u2019s value (an issue key) gets a 404 from the head service instead of the record.'],
  'update-semantics-added': ['non-breaking', 'request', 'patch', 'An update now states that it is partial (fields not given keep their values).', 'Installed clients send the same updates; the spec now promises what the service does with the fields they leave out.'],
  'update-semantics-changed': ['breaking', 'request', 'major', 'An update is no longer stated to be partial.', 'Installed clients send only the fields they change; a service that follows the head spec may reset the others: data is lost.'],
  'record-key-added': ['non-breaking', 'response', 'patch', 'The spec now names the field that identifies a record where none was implied (no key param\u2019s field, `id` or `gid`).', 'Records and calls are the same; the spec now says which field addresses a record.'],
  'record-key-changed': ['breaking', 'response', 'major', 'Another field identifies the records of a shape (the stated `key`, or the one implied by the key param\u2019s field, `id` or `gid`), or none is named any more.', 'Code that reads the old key field to get, update or delete a record passes a value the head service does not identify it by.'],
  'invariant-added': ['non-breaking', 'response', 'patch', 'Every record of a shape now holds one more rule, or a stronger one (`lt` for `lte`, more `accountOnly` fields).', 'Responses are a subset of what installed clients handle.'],
  'invariant-removed': ['breaking', 'response', 'major', 'A rule every record of a shape held was removed, weakened or changed.', 'Code relying on it gets records that break it.'],
  'parent-added': ['non-breaking', 'response', 'patch', 'The records of an entity now belong to records of another one, named by params its actions already take (a parent rule: a channel\u2019s messages).', 'Calls are the same; the spec now says what the params naming the parent already did: lists and reads see that parent\u2019s records, and an unknown parent is a 404.'],
  'parent-changed': ['breaking', 'response', 'major', 'The records of an entity belong to another entity\u2019s records, or the parent is named by other params or fields.', 'The same call lists or finds the records of another parent, or a 404: code relying on the old parent gets other records.'],
  'parent-removed': ['breaking', 'response', 'major', 'The records of an entity no longer belong to records of another one (the parent rule was removed).', 'The head service may ignore the params that named the parent: the same list returns records of every parent.'],
  'records-from-changed': ['warning', 'response', 'patch', 'An entity takes its records from another entity (recordsFrom added, changed or removed).', 'Not breaking: types and requests are the same and installed clients never read it. It states, mostly as an assumption, where an entity\u2019s records live \u2014 which ids its get or download accepts, in which list a write through it shows up \u2014 and the mock follows it: review code and tests that rely on that.'],
};
