/**
 * Located spec diagnostics: every problem in spec/ is reported as
 * `spec/connectors/payments.yaml:42:7 error SPEC012 <message>` plus a one-line hint.
 */

/** Each diagnostic class, with the hint printed under its message. */
export const DIAGNOSTIC_CODES = {
  SPEC001: { title: 'YAML syntax error', hint: 'Fix the YAML syntax at this position (indentation, quotes, colons).' },
  SPEC002: { title: 'unknown key', hint: 'Remove the key or correct its spelling; generator/spec/schema/ lists the allowed keys.' },
  SPEC003: { title: 'wrong type', hint: 'Give the value the type the meta-schema expects here.' },
  SPEC004: { title: 'missing key', hint: 'Add the required key.' },
  SPEC005: { title: 'invalid value', hint: 'Use one of the values the meta-schema allows here.' },
  SPEC010: { title: 'unknown action', hint: 'Action names come from service.yaml `actions` (the contract\'s vocabulary).' },
  SPEC011: { title: 'write not allowed', hint: 'The contract allows writes only where service.yaml `writeActions` lists them (seed 000 item 6).' },
  SPEC012: { title: 'duplicate name', hint: 'Each name may appear once in its map; merge or rename the duplicate.' },
  SPEC013: { title: 'inverted range', hint: 'The lower bound must not exceed the upper bound.' },
  SPEC014: { title: 'default outside enum', hint: 'The default must be one of the enum values.' },
  SPEC015: { title: 'value outside constraints', hint: 'Make the value satisfy the param\'s type and bounds.' },
  SPEC016: { title: 'pagination names a missing param', hint: 'Add the param to the action, or point the scheme at a param the action has.' },
  SPEC017: { title: 'pagination names a missing meta key', hint: 'Add the key to the action\'s meta, or point the scheme at a key the meta has.' },
  SPEC018: { title: 'unknown reference', hint: 'Refer to a name defined in this file (records, meta, pagination, params).' },
  SPEC019: { title: 'invalid type expression', hint: 'Use string, integer, number, boolean, object, array, array<T>, any, joined with | and null.' },
  SPEC020: { title: 'connector id mismatch', hint: 'A connector file is named after its id: spec/connectors/<id>.yaml.' },
  SPEC021: { title: 'limit not applied', hint: 'The Limits table in service.yaml and the params it constrains must agree.' },
  SPEC022: { title: 'search without searchable fields', hint: 'Give searchableFields (fields, or unspecified with the seed\'s words) to every entity with search.' },
  SPEC023: { title: 'searchable fields without search', hint: 'Only entities with the search action list searchable fields.' },
  SPEC024: { title: 'missing write action', hint: 'service.yaml `writeActions` lists a write the connector file lacks.' },
  SPEC025: { title: 'unknown connector', hint: 'Name a connector listed in service.yaml `connectors`.' },
  SPEC026: { title: 'missing connector file', hint: 'Every connector in service.yaml `connectors` has a file spec/connectors/<id>.yaml.' },
  SPEC027: { title: 'result does not fit action', hint: 'Result shapes: list for list/api_search, single for get/create/update/delete, hits for search, binary for download.' },
  SPEC028: { title: 'pagination not resolvable', hint: 'Name a scheme with `pagination:`, set defaults.pagination, or write `pagination: none`.' },
  SPEC029: { title: 'unused definition', hint: 'Remove the definition or refer to it.' },
  SPEC030: { title: 'rule does not fit', hint: 'A rule (ordering, defaultFilter, paramGroups, invariants, matches, bounds, format, derive, key, recordsFrom) must name fields of the record and params of the action it sits on; spec/README.md lists where each rule goes.' },
  SPEC031: { title: 'searchable field without a rule', hint: 'Say how search data gets a field the record does not carry (or carries with another type): `derive` from a record field, or a constant value (with an assumption).' },
  CFG001: { title: 'unreadable config', hint: 'The config is one JSON object; generator/config/config.schema.json describes it.' },
  CFG002: { title: 'unknown config key', hint: 'Remove the key or correct its spelling; generator/config/config.schema.json lists the keys.' },
  CFG003: { title: 'invalid config value', hint: 'Give the value the form generator/config/config.schema.json describes.' },
  CFG004: { title: 'unknown connector in config', hint: 'Name connectors of the spec (npx connector-codegen describe lists them).' },
  CFG005: { title: 'invalid package name', hint: 'Package names are lowercase npm names: @scope/name with letters, digits, - . _ ~.' },
} as const;

/** A diagnostic code such as `SPEC012` (spec files) or `CFG002` (the config file). */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** One problem found in the spec, located to a file position. */
export interface Diagnostic {
  /** Path of the spec file, relative to the working directory where possible. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
  /** error fails validation; warning is printed only. */
  severity: 'error' | 'warning';
  /** Stable diagnostic class. */
  code: DiagnosticCode;
  /** What is wrong, naming the offending item. */
  message: string;
  /** One-line advice; defaults to the code's hint. */
  hint: string;
}

/** Formats one diagnostic as two lines: the located message, then the hint. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.message}\n  hint: ${d.hint}`;
}

/** Orders diagnostics by file, line, column and code so reports are stable. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.col - b.col ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}

/** Thrown when the spec has errors; carries every diagnostic, already sorted. */
export class SpecError extends Error {
  /** All diagnostics found (errors and warnings). */
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(`spec has ${errors} error${errors === 1 ? '' : 's'}`);
    this.name = 'SpecError';
    this.diagnostics = sortDiagnostics(diagnostics);
  }
}
