/**
 * Phase 3 — semantic checks on the IR: param constraints agree with each other, pagination schemes name
 * params and meta keys that exist, the Limits table of service.yaml is applied to the params it constrains,
 * and every definition is used.
 */
import type { Diagnostic } from './diagnostics.js';
import type { ActionIR, ConnectorIR, Literal, PaginationIR, PropertyIR, SpecIR } from '../ir.js';
import type { LoadedSpec } from './load.js';
import type { Origins } from './normalize.js';
import type { RawLimit, RawService } from './raw.js';
import { diagnosticAt } from './yaml-source.js';
import { didYouMean } from '../lib/suggest.js';
import { checkCodeNames } from './names.js';

/** Runs every IR-level check; returns the diagnostics. */
export function checkSpec(ir: SpecIR, origins: Origins, loaded: LoadedSpec): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walkParams = (params: PropertyIR[]) => {
    for (const p of params) {
      checkParamConstraints(p, origins, out);
      if (p.properties) walkParams(p.properties);
    }
  };
  walkParams(ir.service.search.params);
  for (const connector of ir.connectors) {
    for (const entity of connector.entities) {
      for (const action of entity.actions) {
        if (action.name !== 'search') walkParams(action.params);
        checkActionPagination(connector, entity.name, action, origins, out);
        if (action.rangeParam && !action.params.some((p) => p.name === action.rangeParam)) {
          out.push(origins.diagnostic(action, 'SPEC018', `rangeParam names '${action.rangeParam}', which is not a param of ${entity.name} ${action.name}${didYouMean(action.rangeParam, action.params.map((p) => p.name))}`, ['rangeParam']));
        }
      }
    }
    checkUnused(connector, origins, out);
  }
  checkLimits(ir, loaded, origins, out);
  out.push(...checkCodeNames(ir, origins));
  return out;
}

function typeOfLiteral(value: Literal): string {
  return typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
}

function literalFits(p: PropertyIR, value: Literal): boolean {
  const t = typeOfLiteral(value);
  const declared = p.separator ? 'string' : p.types[0];
  return declared === t || (declared === 'number' && t === 'integer') || declared === 'any';
}

function checkParamConstraints(p: PropertyIR, origins: Origins, out: Diagnostic[]): void {
  const pairs = [
    ['minimum', 'maximum'],
    ['minLength', 'maxLength'],
    ['minItems', 'maxItems'],
  ] as const;
  for (const [lo, hi] of pairs) {
    const a = p[lo];
    const b = p[hi];
    if (a !== undefined && b !== undefined && a > b) {
      out.push(origins.diagnostic(p, 'SPEC013', `param '${p.name}': ${lo} ${a} is greater than ${hi} ${b}`, [lo]));
    }
  }
  // Entries of a separated list are checked one by one against the enum.
  const entryType = p.separator ? 'string' : p.types[0] === 'array' ? p.items?.types[0] : p.types[0];
  for (const [i, value] of (p.enum ?? []).entries()) {
    if (!p.separator && p.types[0] !== 'array' && !literalFits(p, value)) {
      out.push(origins.diagnostic(p, 'SPEC015', `param '${p.name}': enum value ${JSON.stringify(value)} is not a ${entryType}`, ['enum', i]));
    }
  }
  if (p.default !== undefined) {
    const d = p.default;
    if (p.types[0] !== 'array' && !literalFits(p, d)) {
      out.push(origins.diagnostic(p, 'SPEC015', `param '${p.name}': default ${JSON.stringify(d)} is not a ${p.types[0]}`, ['default']));
    } else if (p.enum && !p.separator && !p.enum.includes(d)) {
      out.push(origins.diagnostic(p, 'SPEC014', `param '${p.name}': default ${JSON.stringify(d)} is not one of its enum values (${p.enum.join(', ')})`, ['default']));
    } else if (typeof d === 'number' && ((p.minimum !== undefined && d < p.minimum) || (p.maximum !== undefined && d > p.maximum))) {
      out.push(origins.diagnostic(p, 'SPEC015', `param '${p.name}': default ${d} is outside ${p.minimum ?? '-∞'}..${p.maximum ?? '∞'}`, ['default']));
    }
    if (p.const !== undefined && p.const !== d) {
      out.push(origins.diagnostic(p, 'SPEC015', `param '${p.name}': default ${JSON.stringify(d)} differs from its const ${JSON.stringify(p.const)}`, ['default']));
    }
  }
  if (p.pattern !== undefined) {
    try {
      new RegExp(p.pattern, 'u');
    } catch (e) {
      out.push(origins.diagnostic(p, 'SPEC015', `param '${p.name}': pattern is not a valid regular expression (${(e as Error).message})`, ['pattern']));
    }
  }
}

/** Looks up a dotted path among known properties; undefined when a segment is not known. */
function findPath(properties: PropertyIR[], dotted: string): PropertyIR | undefined {
  let props: PropertyIR[] | undefined = properties;
  let found: PropertyIR | undefined;
  for (const segment of dotted.split('.')) {
    found = props?.find((p) => p.name === segment);
    if (!found) return undefined;
    props = found.properties;
    if (!props) break; // inner fields not known: deeper segments cannot be checked
  }
  return found;
}

function checkActionPagination(connector: ConnectorIR, entityName: string, action: ActionIR, origins: Origins, out: Diagnostic[]): void {
  if (action.pagination === 'none' || action.pagination === 'unspecified' || action.pagination === 'search') return;
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  if (!scheme) return; // reported during normalization
  const where = `${entityName} ${action.name} (pagination '${scheme.name}')`;
  for (const [role, name] of [['param', scheme.param], ['sizeParam', scheme.sizeParam]] as const) {
    if (name !== undefined && !action.params.some((p) => p.name === name)) {
      out.push(schemeDiagnostic(origins, scheme, 'SPEC016', `${where}: scheme ${role} '${name}' is not a param of this action${didYouMean(name, action.params.map((p) => p.name))}`, [role]));
    }
  }
  const meta = connector.meta.find((m) => m.name === action.result.meta);
  const metaKeys: { key: string; at: (string | number)[] }[] = [];
  if (scheme.next.from === 'meta' && scheme.next.path) metaKeys.push({ key: scheme.next.path, at: ['next', 'path'] });
  scheme.stop.forEach((s, i) => {
    if (s.key) metaKeys.push({ key: s.key, at: ['stop', i, 'key'] });
  });
  for (const { key, at } of metaKeys) {
    if (!meta) {
      out.push(schemeDiagnostic(origins, scheme, 'SPEC017', `${where}: reads meta key '${key}' but the action has no meta`, at));
    } else if (!findPath(meta.properties, key)) {
      out.push(schemeDiagnostic(origins, scheme, 'SPEC017', `${where}: meta key '${key}' is not in meta '${meta.name}'${didYouMean(key, meta.properties.map((p) => p.name))}`, at));
    }
  }
  const record = connector.records.find((r) => r.name === action.result.record);
  if (scheme.next.from === 'last_record' && scheme.next.path && record && record.properties.length > 0 && !record.unspecified) {
    if (!findPath(record.properties, scheme.next.path)) {
      out.push(schemeDiagnostic(origins, scheme, 'SPEC017', `${where}: record '${record.name}' has no field '${scheme.next.path}'`, ['next', 'path']));
    }
  }
  for (const s of scheme.stop) {
    if ((s.when === 'metaFalse' || s.when === 'metaTrue' || s.when === 'metaMissing' || s.when === 'totalReached') && !s.key) {
      out.push(origins.diagnostic(scheme, 'SPEC017', `stop condition ${s.when} needs a meta key`, ['stop']));
    }
  }
}

/** Reports at the scheme's key that names the missing item; the message says which action is concerned. */
function schemeDiagnostic(origins: Origins, scheme: PaginationIR, code: 'SPEC016' | 'SPEC017', message: string, sub: (string | number)[]): Diagnostic {
  return origins.diagnostic(scheme, code, message, sub);
}

function checkUnused(connector: ConnectorIR, origins: Origins, out: Diagnostic[]): void {
  const actions = connector.entities.flatMap((e) => e.actions);
  const usedRecords = new Set([...connector.entities.map((e) => e.record), ...actions.map((a) => a.result.record)]);
  const usedMeta = new Set(actions.map((a) => a.result.meta));
  const usedSchemes = new Set(actions.map((a) => a.pagination));
  for (const r of connector.records) {
    if (!usedRecords.has(r.name)) out.push(origins.diagnostic(r, 'SPEC029', `record '${r.name}' is not used by any action`, undefined, 'warning'));
  }
  for (const m of connector.meta) {
    if (!usedMeta.has(m.name)) out.push(origins.diagnostic(m, 'SPEC029', `meta '${m.name}' is not used by any action`, undefined, 'warning'));
  }
  for (const s of connector.pagination) {
    if (!usedSchemes.has(s.name)) out.push(origins.diagnostic(s, 'SPEC029', `pagination scheme '${s.name}' is not used by any action`, undefined, 'warning'));
  }
}

/**
 * Every row of the Limits table must reach at least one param, and each param must carry the limit. A mismatch is
 * reported at the row and is `about` the param, so it folds into an error the param itself already has.
 */
function checkLimits(ir: SpecIR, loaded: LoadedSpec, origins: Origins, out: Diagnostic[]): void {
  const raw = loaded.service.data as RawService;
  raw.limits.forEach((row: RawLimit, i) => {
    const limitIR = ir.service.limits[i]!;
    const at = (message: string, sub: (string | number)[] = [], param?: PropertyIR) => {
      const about = param && origins.subject(param);
      out.push({ ...diagnosticAt(loaded.service, ['limits', i, ...sub], 'SPEC021', message), ...(about ? { about } : {}) });
    };
    const target = row.appliesTo;
    if (!target) return;
    const paramNames = target.param === undefined ? [] : Array.isArray(target.param) ? target.param : [target.param];
    if (target.service === 'search') {
      for (const name of paramNames) {
        const p = ir.service.search.params.find((x) => x.name === name);
        if (!p) at(`limit '${row.where}': search has no param '${name}'`, ['appliesTo']);
        else {
          limitIR.appliesTo.push(`search/${name}`);
          compare(p, row, (m) => at(`limit '${row.where}': search param ${m}`, ['expect'], p));
        }
      }
      return;
    }
    const connector = ir.connectors.find((c) => c.id === target.connector);
    if (!connector) {
      if (target.connector && !ir.service.connectorIds.includes(target.connector)) at(`limit '${row.where}' names unknown connector '${target.connector}'`, ['appliesTo', 'connector']);
      return; // a connector whose file failed to load is reported there
    }
    let matches = 0;
    for (const entity of connector.entities) {
      if (target.entities && !target.entities.includes(entity.name)) continue;
      for (const action of entity.actions) {
        if (target.actions && !target.actions.includes(action.name)) continue;
        if (paramNames.length === 0) {
          matches++;
          limitIR.appliesTo.push(`${connector.id}/${entity.name}/${action.name}`);
          if (row.expect?.maxBytes !== undefined && action.maxBytes !== row.expect.maxBytes) {
            at(`limit '${row.where}': ${entity.name} ${action.name} has maxBytes ${action.maxBytes ?? '(none)'}, expected ${row.expect.maxBytes}`, ['expect']);
          }
          continue;
        }
        for (const name of paramNames) {
          const p = action.params.find((x) => x.name === name);
          if (!p) continue;
          matches++;
          limitIR.appliesTo.push(`${connector.id}/${entity.name}/${action.name}/${name}`);
          compare(p, row, (m) => at(`limit '${row.where}': ${connector.id} ${entity.name} ${action.name} param ${m}`, ['expect'], p));
        }
      }
    }
    limitIR.appliesTo.sort();
    if (matches === 0) at(`limit '${row.where}' applies to no param of the spec`, ['appliesTo']);
  });
}

function compare(p: PropertyIR, row: RawLimit, report: (message: string) => void): void {
  for (const [key, expected] of Object.entries(row.expect ?? {})) {
    if (key === 'maxBytes') continue;
    const actual = (p as unknown as Record<string, unknown>)[key];
    if (actual !== expected) report(`'${p.name}' has ${key} ${actual === undefined ? '(none)' : JSON.stringify(actual)}, the Limits table says ${JSON.stringify(expected)}`);
  }
}
