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
  SPEC030: { title: 'rule does not fit', hint: 'A rule (ordering, defaultFilter, paramGroups, invariants, matches, excludes, rangeOf and bounds, sortBy, format, derive, key, keyParam, alternateKeys, recordsFrom, parent, updateSemantics) must name fields of the record and params of the action it sits on; spec/README.md lists where each rule goes.' },
  SPEC031: { title: 'searchable field without a rule', hint: 'Say how search data gets a field the record does not carry (or carries with another type): `derive` from a record field, or a constant value (with an assumption).' },
  SPEC041: { title: 'name unusable in code', hint: 'Entity, record, meta and paging-scheme names become TypeScript names: letters, digits and _, distinct once turned into camelCase and PascalCase.' },
  SPEC040: { title: 'reserved name', hint: 'Names that every JavaScript object already has (__proto__, constructor, toString, …) cannot name spec items; rename it.' },
  SRC001: { title: 'not a regular file', hint: 'Spec files are regular files; remove or replace the FIFO, device, socket or directory.' },
  SRC002: { title: 'symlink leaves the spec directory', hint: 'A spec file may be a symlink only to a file inside the spec directory; copy the file in instead.' },
  SRC003: { title: 'file too large', hint: 'Spec files are at most 2 MiB; split the connector or remove what is not part of the contract.' },
  SRC004: { title: 'invalid UTF-8', hint: 'Save the file as UTF-8.' },
  SRC005: { title: 'control character', hint: 'Remove the control character (NUL, escape, …); only tabs and line breaks may appear in text.' },
  SRC006: { title: 'nested too deeply', hint: 'Spec data nests a few levels deep; flatten the structure.' },
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
  /** The spec item the problem is about (set for diagnostics made through Origins): lets follow-ons fold into it. */
  about?: DiagnosticSubject;
  /** Problems folded into this one by `collapseDiagnostics`: the same problem at this position, or its follow-ons. */
  related?: RelatedDiagnostic[];
}

/** A spec item a diagnostic is about: its identity and the lines it spans. */
export interface DiagnosticSubject {
  /** Stable identity of the item (file and data path). */
  key: string;
  /** File of the item (display path). */
  file: string;
  /** First and last line of the item in its file. */
  lines: [number, number];
}

/** A problem folded into another diagnostic. */
export interface RelatedDiagnostic {
  /** Location. */
  file: string;
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  col: number;
  /** Its class. */
  code: DiagnosticCode;
  /** Its own message. */
  message: string;
  /** same: the same problem at the same position (another use of one definition); follow-on: caused by the primary. */
  kind: 'same' | 'follow-on';
}

/** Formats one diagnostic as plain text: the located message, the hint, then what was folded into it. */
export function formatDiagnostic(d: Diagnostic): string {
  return [`${d.file}:${d.line}:${d.col} ${d.severity} ${d.code} ${d.message}`, `  hint: ${d.hint}`, ...relatedLines(d)].join('\n');
}

/** At most this many folded problems are listed per place; the rest are counted. */
const RELATED_SHOWN = 3;

/** The lines listing what was folded into a diagnostic, grouped by place ("and 14 follow-on problems caused by it"). */
export function relatedLines(d: Diagnostic): string[] {
  const lines: string[] = [];
  for (const kind of ['same', 'follow-on'] as const) {
    const list = (d.related ?? []).filter((r) => r.kind === kind);
    if (list.length === 0) continue;
    const n = list.length;
    lines.push(kind === 'same' ? `  and ${n} more like it:` : `  and ${n} follow-on problem${n === 1 ? '' : 's'} caused by it:`);
    const places = new Map<string, RelatedDiagnostic[]>();
    for (const r of list) {
      const place = `${r.file}:${r.line}:${r.col} ${r.code}`;
      places.set(place, [...(places.get(place) ?? []), r]);
    }
    for (const [place, items] of places) {
      const here = place === `${d.file}:${d.line}:${d.col} ${d.code}`;
      const indent = here ? '    ' : '      ';
      if (!here) lines.push(`    ${place}:`);
      for (const r of items.slice(0, RELATED_SHOWN)) lines.push(`${indent}${r.message}`);
      if (items.length > RELATED_SHOWN) lines.push(`${indent}… and ${items.length - RELATED_SHOWN} more`);
    }
  }
  return lines;
}

/**
 * Folds diagnostics that share one root cause into one, so a single mistake reads as a single problem:
 * 1. identical diagnostics (a shared definition checked once per use) are kept once;
 * 2. diagnostics of one code at one position about spec items (a paging scheme naming a param that 10 actions
 *    lack) become one, the others listed under it as `same`;
 * 3. diagnostics about one spec item but located elsewhere (a Limits row disagreeing with a param whose own
 *    default is already wrong) fold into the error located in the item itself, as `follow-on`.
 * Warnings never absorb errors. The result is sorted.
 */
export function collapseDiagnostics(list: Diagnostic[]): Diagnostic[] {
  const unique = [...new Map(list.map((d) => [`${d.file}:${d.line}:${d.col}:${d.code}:${d.severity}:${d.message}`, d])).values()];
  // 2. one code at one position
  const byPosition = new Map<string, Diagnostic>();
  for (const d of sortDiagnostics(unique)) {
    // Only diagnostics about spec items (checks of the IR): schema errors at one position are distinct problems.
    const key = d.about ? `${d.file}:${d.line}:${d.col}:${d.code}:${d.severity}` : `${byPosition.size}:unique`;
    const first = byPosition.get(key);
    if (!first) byPosition.set(key, { ...d, related: [...(d.related ?? [])] });
    else first.related!.push(relatedOf(d, 'same'), ...(d.related ?? []));
  }
  const merged = [...byPosition.values()];
  // 3. follow-ons of an item's own error
  const within = (d: Diagnostic, s: DiagnosticSubject) => d.file === s.file && d.line >= s.lines[0] && d.line <= s.lines[1];
  const primaries = new Map<string, Diagnostic>();
  for (const d of merged) if (d.about && d.severity === 'error' && within(d, d.about) && !primaries.has(d.about.key)) primaries.set(d.about.key, d);
  const out: Diagnostic[] = [];
  for (const d of merged) {
    const primary = d.about && !within(d, d.about) ? primaries.get(d.about.key) : undefined;
    if (primary && primary !== d) primary.related!.push(relatedOf(d, 'follow-on'), ...(d.related ?? []).map((r) => ({ ...r, kind: 'follow-on' as const })));
    else out.push(d);
  }
  return sortDiagnostics(out.map((d) => (d.related?.length ? d : withoutRelated(d))));
}

function relatedOf(d: Diagnostic, kind: RelatedDiagnostic['kind']): RelatedDiagnostic {
  return { file: d.file, line: d.line, col: d.col, code: d.code, message: d.message, kind };
}

function withoutRelated(d: Diagnostic): Diagnostic {
  const { related: _related, ...rest } = d;
  return rest;
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
  /** Text of the files the diagnostics point into (display path → text), for code frames. */
  readonly sources: ReadonlyMap<string, string>;
  constructor(diagnostics: Diagnostic[], sources: ReadonlyMap<string, string> = new Map()) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(`spec has ${errors} error${errors === 1 ? '' : 's'}`);
    this.name = 'SpecError';
    this.diagnostics = sortDiagnostics(diagnostics);
    this.sources = sources;
  }
}

/** Thrown when the spec directory itself is missing: nothing to locate, one line to print. */
export class SpecDirError extends Error {
  /** The directory tried (absolute). */
  readonly specDir: string;
  constructor(specDir: string, shown: string, reason: string) {
    super(`no spec directory at ${shown} (${reason})`);
    this.name = 'SpecDirError';
    this.specDir = specDir;
  }
}

