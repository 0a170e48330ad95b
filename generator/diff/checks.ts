/**
 * Every check of `connector-codegen diff`, as one table: a stable id, its severity, the direction it concerns,
 * the semver bump it asks for, and why the rule gives it that severity. The comparer may only emit ids listed
 * here; the docs (`diff --list-checks`, generator/diff/CHECKS.md), the JSON Schema of the output and the config
 * schema's `diff.severity` keys are kept equal to it by tests.
 */
import { DOWNLOADS, ERRORS, OTHER, PAGING, PARAM, RESPONSE, RESULTS, RULES, SEARCH, SEARCHABLE, STRUCTURE, TRANSPORT, type FacetRow, type Row } from './check-table.js';

/** How much a change can hurt a client. */
export type Severity = 'breaking' | 'warning' | 'non-breaking';
/** Whether the change concerns what clients send or what they receive. */
export type Direction = 'request' | 'response';
/** The semver part a change asks to bump. */
export type Bump = 'major' | 'minor' | 'patch';

/** Every severity, worst first. */
export const SEVERITY_ORDER: readonly Severity[] = ['breaking', 'warning', 'non-breaking'];

/** One row of the table. */
export interface CheckInfo {
  /** Stable id, e.g. `param-required-added`. */
  id: string;
  /** Default severity of every change with this id (the config's `diff.severity` may override it). */
  severity: Severity;
  /** What the check is about: requests, responses, or either (it follows the item that changed). */
  direction: Direction | 'either';
  /** Semver part the change asks for (below 1.0.0 the minor plays the major's role). */
  bump: Bump;
  /** One line for the docs: what changed. */
  summary: string;
  /** How the rule gives this severity (for warnings: why not breaking, and why a reviewer must look). */
  why: string;
  /** Section of the docs table. */
  section: string;
}

/** The rule every severity is derived from (the first paragraph of CHECKS.md). */
export const RULE =
  'A change is **breaking** when a client generated from the base spec, unchanged, stops compiling or behaves differently against a service that follows the head spec.';

function rows(section: string, table: Record<string, Row>): CheckInfo[] {
  return Object.entries(table).map(([id, [severity, direction, bump, summary, why]]) => ({ id, severity, direction, bump, summary, why, section }));
}

function facetRows(section: string, prefix: string, direction: Direction, table: Record<string, FacetRow>): CheckInfo[] {
  return Object.entries(table).map(([facet, [severity, bump, summary, why]]) => ({ id: `${prefix}-${facet}`, severity, direction, bump, summary, why, section }));
}

/** The table, in documentation order. */
export const CHECKS: readonly CheckInfo[] = [
  ...rows('Connectors, entities and actions', STRUCTURE),
  ...rows('Results, shapes and the envelope', RESULTS),
  ...rows('Paging', PAGING),
  ...rows('Downloads', DOWNLOADS),
  ...facetRows('Params (action params, search params, execute body, source-creation body, auth_config)', 'param', 'request', PARAM),
  ...facetRows('Searchable fields', 'searchable-field', 'request', SEARCHABLE),
  ...facetRows('Response fields (records, meta, search hits, the error body)', 'response-field', 'response', RESPONSE),
  ...rows('Transport and authentication', TRANSPORT),
  ...rows('Uniform search', SEARCH),
  ...rows('Errors', ERRORS),
  ...rows('Rules of the contract (ordering, default filters, param groups, keys, update semantics, invariants, recordsFrom)', RULES),
  ...rows('Other', OTHER),
];

const byId = new Map(CHECKS.map((c) => [c.id, c]));

/** The table row of `id`; throws on an id not in the table (a bug in the comparer, never user input). */
export function checkInfo(id: string): CheckInfo {
  const info = byId.get(id);
  if (!info) throw new Error(`internal: diff check '${id}' is not in the checks table`);
  return info;
}

/** Whether `id` is a check id. */
export function isCheckId(id: string): boolean {
  return byId.has(id);
}

/** Facets a kind of schema item is compared on (`param` → its PARAM keys, …). */
export const FACETS: Record<'param' | 'searchable-field' | 'response-field', ReadonlySet<string>> = {
  param: new Set(Object.keys(PARAM)),
  'searchable-field': new Set(Object.keys(SEARCHABLE)),
  'response-field': new Set(Object.keys(RESPONSE)),
};

/** The table as Markdown (generator/diff/CHECKS.md is this text; a test keeps them equal). */
export function checksMarkdown(): string {
  const lines = [
    '# Checks of `connector-codegen diff`',
    '',
    '<!-- Rendered from generator/diff/checks.ts by `connector-codegen diff --list-checks`; a test keeps it in sync. -->',
    '',
    '## The rule',
    '',
    RULE,
    '',
    'Both halves are tested separately. *Stops compiling*: code written against the package generated from the base',
    'spec no longer type-checks against the package generated from the head spec (a type, method, member or literal',
    'it uses is gone or changed). *Behaves differently*: the installed package, generated from the base, sends',
    'requests the head service rejects or reads differently, or gets answers it reads wrongly (other keys, values',
    'outside its types, other pages, other records). Every severity below is derived from this rule:',
    '',
    '- **breaking** — the rule says so, for at least one client that uses the item as its types allow;',
    '- **warning** — not breaking by the rule, but a reviewer must act: a deprecation announces a break, or the spec',
    '  says in words what changed, so the diff cannot tell (each warning row says why);',
    '- **non-breaking** — every such client compiles and behaves as before.',
    '',
    'So narrowing what requests may carry, or widening what responses may carry, breaks clients: params and',
    'searchable fields, the execute and source-creation bodies, auth_config fields and variables are requests;',
    'records, meta, search hits and the error body are responses. A new optional field of a response is not',
    'breaking (validators of records allow other keys); a new enum value of a response is (a value outside the',
    'union type: exhaustive switches fall through). Narrowing a response is not breaking: TypeScript may then flag',
    'a comparison with a value that can no longer occur, which is dead code to remove, not a failure.',
    '',
    '## Rules of the contract',
    '',
    'The rules the spec writes as data (spec/README.md, Rules) are promises about what the service does with a call;',
    'types do not encode them, so the wire half of the rule decides. A rule the base did not state promised nothing:',
    'stating one is not breaking (`…-added`). A stated rule that changes, or is no longer stated, is: the head service',
    'may then answer the same call with other records, in another order, or reject it. Rules on params and fields',
    '(`format`, `matches`, `rangeOf`, `bound`, `derive`) are facets of the param, searchable-field and response-field',
    'tables. Data only the mock reads is never breaking: `derive` (how the mock computes a derived value),',
    '`idPrefix` and `idFormat` (fixtures), the words of `transitions` and of an object\'s `unspecified` (docs);',
    '`recordsFrom` is a warning, as it states where an entity\'s records live. The connector\'s `defaults.ordering` is',
    'a shared definition: a change to it is reported once, with every list that takes it.',
    '',
    '## Shared definitions',
    '',
    'A change to a definition many actions share is reported **once**, at the definition, with `places`: every',
    'action it reaches. That holds for a connector-level param used as `name: common` (when its change reaches',
    'more than one action), a record or meta shape, a paging scheme, and the common contract (service.yaml:',
    'execute body, search, errors, transport — `affects` lists the connectors). A change written inside one',
    'action is reported at that action.',
    '',
    '## Deprecations',
    '',
    'A param, field or action carries `deprecated: "<why>"` and, optionally, `deprecatedSince: "<version>"`, the',
    'package release that first shipped the deprecation. Removing it is reported as `…-removed-after-deprecation`',
    '(a warning) instead of `…-removed` (breaking) when the config\'s `diff.deprecation` allows it: `released`',
    '(default) — the base states `deprecatedSince` and every package the removal reaches is at that version or',
    'later (the deprecation has shipped); `any` — any deprecation in the base, stated release or not; `off` — never.',
    '',
    '## Severity overrides',
    '',
    'The config file sets the severity of any check id: `"diff": { "severity": { "param-default-changed": "warning" } }`.',
    'Overridden changes show their configured severity and the default (`defaultSeverity` in JSON). The bump',
    'follows: a check made breaking asks for a major bump; a breaking check made lower asks for a minor one.',
    'Below 1.0.0 a `major` bump raises the minor version and a `minor` bump the patch version.',
  ];
  for (const section of [...new Set(CHECKS.map((c) => c.section))]) {
    lines.push('', `## ${section}`, '', '| check id | severity | direction | bump | what changed | why |', '|---|---|---|---|---|---|');
    for (const c of CHECKS.filter((x) => x.section === section)) lines.push(`| \`${c.id}\` | ${c.severity} | ${c.direction} | ${c.bump} | ${c.summary} | ${c.why} |`);
  }
  lines.push('');
  return lines.join('\n');
}
