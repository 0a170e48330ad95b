/**
 * Phase 1 — load: read spec/service.yaml and spec/connectors/*.yaml, parse them with positions, and
 * validate each against its meta-schema. Semantic checks come later (normalize.ts, checks.ts).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { displayPath } from '../lib/display-path.js';
import { validateConnector, validateService } from './schema/validators.generated.js';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import { diagnosticAt, makeDiagnostic, parseSource, specStem, SPEC_EXTENSIONS, type DataPath, type SourceFile } from './yaml-source.js';

/** A compiled meta-schema validator (ajv standalone code: generator/spec/schema/validators.generated.ts). */
type MetaValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
const validators = { connector: validateConnector as MetaValidator, service: validateService as MetaValidator };

/** The spec's files, parsed; `valid` tells which passed the meta-schema. */
export interface LoadedSpec {
  /** spec/service.yaml. */
  service: SourceFile;
  /** spec/connectors/*.yaml, sorted by file name. */
  connectors: SourceFile[];
  /** Files that parsed and match their meta-schema (later phases read only these). */
  valid: Set<SourceFile>;
  /** Problems found so far. */
  diagnostics: Diagnostic[];
}

export { displayPath };

/** Reads and schema-validates every spec file under `specDir`. Never throws for bad spec content. */
export async function loadSpec(specDir: string): Promise<LoadedSpec> {
  const diagnostics: Diagnostic[] = [];
  const connectorsDir = path.join(specDir, 'connectors');
  const [topNames, connectorNames] = await Promise.all([readdir(specDir).catch(() => [] as string[]), readdir(connectorsDir).catch(() => [] as string[])]);
  // service.yaml (or .yml, .json): one of them.
  const serviceNames = SPEC_EXTENSIONS.map((e) => `service${e}`).filter((n) => topNames.includes(n));
  const servicePath = path.join(specDir, serviceNames[0] ?? 'service.yaml');
  for (const extra of serviceNames.slice(1)) {
    diagnostics.push(makeDiagnostic(displayPath(path.join(specDir, extra)), 1, 1, 'SPEC012', `duplicate service file '${extra}' (the common contract is ${serviceNames[0]}; keep one)`));
  }
  // One file per connector id, in whichever extension; a second file of the same id is reported and ignored.
  const byStem = new Map<string, string>();
  for (const n of connectorNames.filter((n) => specStem(n) !== undefined).sort()) {
    const stem = specStem(n)!;
    const first = byStem.get(stem);
    if (first === undefined) byStem.set(stem, n);
    else diagnostics.push(makeDiagnostic(displayPath(path.join(connectorsDir, n)), 1, 1, 'SPEC012', `duplicate connector file '${n}' (connector '${stem}' is already defined in ${first}; keep one)`));
  }
  const names = [...byStem.values()].sort();
  const [serviceText, ...connectorTexts] = await Promise.all([
    readFile(servicePath, 'utf8').catch(() => undefined),
    ...names.map((n) => readFile(path.join(connectorsDir, n), 'utf8')),
  ]);
  if (serviceText === undefined) diagnostics.push(makeDiagnostic(displayPath(servicePath), 1, 1, 'SPEC004', 'spec/service.yaml is missing'));
  const base = path.basename(path.resolve(specDir));
  const service = parseSource(displayPath(servicePath), serviceText ?? '{}', `${base}/${path.basename(servicePath)}`);
  const connectors = names.map((n, i) => parseSource(displayPath(path.join(connectorsDir, n)), connectorTexts[i]!, `${base}/connectors/${n}`));

  const valid = new Set<SourceFile>();
  const { connector, service: serviceValidator } = validators;
  for (const [source, validate] of [[service, serviceValidator], ...connectors.map((c) => [c, connector] as const)] as const) {
    diagnostics.push(...source.syntaxErrors);
    if (source.syntaxErrors.length > 0) continue;
    if (validate(source.data)) valid.add(source);
    else diagnostics.push(...schemaDiagnostics(source, validate.errors ?? []));
  }
  return { service, connectors, valid, diagnostics };
}

function pointerToPath(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Dotted rendering of a data path for messages (`entities.customers.actions.list`). */
export function showPath(p: DataPath): string {
  return p.length === 0 ? '(top level)' : p.map(String).join('.');
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Turns ajv's errors into located diagnostics, one per distinct problem. */
function schemaDiagnostics(source: SourceFile, errors: ErrorObject[]): Diagnostic[] {
  const out = new Map<string, Diagnostic>();
  const add = (p: DataPath, code: DiagnosticCode, message: string, at: 'key' | 'value') => {
    const d = diagnosticAt(source, p, code, message, { at });
    out.set(`${d.line}:${d.col}:${code}:${message}`, d);
  };
  for (const e of errors) {
    const p = pointerToPath(e.instancePath);
    const where = showPath(p);
    switch (e.keyword) {
      case 'if':
        break; // the failing `then`/`else` branch reports the real problem
      case 'additionalProperty':
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty;
        const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
        add([...p, key], 'SPEC002', `unknown key '${key}' in ${where}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`, 'key');
        break;
      }
      case 'type':
        add(p, 'SPEC003', `${where} must be ${(e.params as { type: string | string[] }).type.toString().replace(',', ' or ')}, not ${typeName(e.data)}`, 'value');
        break;
      case 'required':
        add(p, 'SPEC004', `missing key '${(e.params as { missingProperty: string }).missingProperty}' in ${where}`, 'value');
        break;
      case 'enum':
        add(p, 'SPEC005', `${where} is ${JSON.stringify(e.data)}; allowed: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`, 'value');
        break;
      default:
        add(p, 'SPEC005', `${where} ${e.message ?? 'is invalid'}`, 'value');
    }
  }
  return [...out.values()];
}
