/**
 * Phase 3 — semantic checks on the IR: param constraints agree with each other, pagination schemes name
 * params and meta keys that exist, the Limits table of service.yaml is applied to the params it constrains,
 * and every definition is used.
 */
import type { Diagnostic } from './diagnostics.js';
import { FORMAT_PATTERNS, propertyAt, typesFit, type ValueFormat, type ActionIR, type ConnectorIR, type EntityIR, type Literal, type PaginationIR, type ParentIR, type PropertyIR, type ShapeIR, type SortByIR, type SpecIR } from '../ir.js';
import type { LoadedSpec } from './load.js';
import type { NormalizedConnector, Origins } from './normalize.js';
import type { RawLimit, RawService } from './raw.js';
import { diagnosticAt } from './yaml-source.js';
import { didYouMean } from '../lib/suggest.js';
import { checkCodeNames } from './names.js';

/**
 * Runs every IR-level check; returns the diagnostics. A connector's own checks run for the connectors normalized in
 * this run (`fresh`), and what they report is added to its NormalizedConnector too (the IR cache keeps it); a connector
 * from the IR cache brought its own. The checks across files (the Limits table) run for every connector.
 */
export function checkSpec(ir: SpecIR, origins: Origins, loaded: LoadedSpec, fresh: ReadonlyMap<ConnectorIR, NormalizedConnector>): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of ir.service.search.params) walkParams(p, origins, out);
  for (const connector of ir.connectors) {
    const own = fresh.get(connector);
    if (!own) continue;
    const found = checkConnector(connector, origins);
    own.diagnostics.push(...found);
    out.push(...found);
  }
  checkLimits(ir, loaded, origins, out, (c) => fresh.has(c));
  return out;
}

/** The checks of one connector's IR, which read nothing but it. */
function checkConnector(connector: ConnectorIR, origins: Origins): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const entity of connector.entities) {
    for (const action of entity.actions) {
      if (action.name !== 'search') for (const p of action.params) walkParams(p, origins, out);
      checkActionPagination(connector, entity.name, action, origins, out);
      if (action.rangeParam && !action.params.some((p) => p.name === action.rangeParam)) {
        out.push(origins.diagnostic(action, 'SPEC018', `rangeParam names '${action.rangeParam}', which is not a param of ${entity.name} ${action.name}${didYouMean(action.rangeParam, action.params.map((p) => p.name))}`, ['rangeParam']));
      }
    }
  }
  checkUnused(connector, origins, out);
  checkRules(connector, origins, out);
  out.push(...checkCodeNames(connector, origins));
  return out;
}

/** Checks a param and its nested properties. */
function walkParams(p: PropertyIR, origins: Origins, out: Diagnostic[]): void {
  checkParamConstraints(p, origins, out);
  for (const nested of p.properties ?? []) walkParams(nested, origins, out);
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

function checkActionPagination(connector: ConnectorIR, entityName: string, action: ActionIR, origins: Origins, out: Diagnostic[]): void {
  if (action.pagination === 'none' || action.pagination === 'unspecified' || action.pagination === 'search') return;
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  if (!scheme) return; // reported during normalization
  const where = `${entityName} ${action.name} (pagination '${scheme.name}')`;
  for (const [role, name] of [['param', scheme.param], ['sizeParam', scheme.sizeParam], ['previousParam', scheme.previousParam]] as const) {
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
    } else if (!propertyAt(meta.properties, key, true)) {
      out.push(schemeDiagnostic(origins, scheme, 'SPEC017', `${where}: meta key '${key}' is not in meta '${meta.name}'${didYouMean(key, meta.properties.map((p) => p.name))}`, at));
    }
  }
  const record = connector.records.find((r) => r.name === action.result.record);
  if (scheme.next.from === 'last_record' && scheme.next.path && record && record.properties.length > 0 && !record.unspecified) {
    if (!propertyAt(record.properties, scheme.next.path, true)) {
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
 * reported at the row and is `about` the param, so it folds into an error the param itself already has. Each row's
 * `appliesTo` lists the params (or actions) it matched, from the connectors' outlines. A matched param's or action's
 * values are compared with the row's `expect` only in the connectors checked in this run (`checked`): another one comes
 * from the IR cache, made under the same service.yaml by a read that found no error, so that comparison found none.
 */
function checkLimits(ir: SpecIR, loaded: LoadedSpec, origins: Origins, out: Diagnostic[], checked: (connector: ConnectorIR) => boolean): void {
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
    const compared = checked(connector);
    connector.outline.entities.forEach((entity, e) => {
      if (target.entities && !target.entities.includes(entity.name)) return;
      entity.actions.forEach((action, a) => {
        if (target.actions && !target.actions.includes(action.name)) return;
        // The IR node, read only where it is compared (the outline lists entities and actions in the same order).
        const full = () => connector.entities[e]!.actions[a]!;
        if (paramNames.length === 0) {
          matches++;
          limitIR.appliesTo.push(`${connector.id}/${entity.name}/${action.name}`);
          if (compared && row.expect?.maxBytes !== undefined) {
            const { maxBytes } = full();
            if (maxBytes !== row.expect.maxBytes) at(`limit '${row.where}': ${entity.name} ${action.name} has maxBytes ${maxBytes ?? '(none)'}, expected ${row.expect.maxBytes}`, ['expect']);
          }
          return;
        }
        for (const name of paramNames) {
          if (!action.params.includes(name)) continue;
          matches++;
          limitIR.appliesTo.push(`${connector.id}/${entity.name}/${action.name}/${name}`);
          if (!compared) continue;
          const p = full().params.find((x) => x.name === name)!;
          compare(p, row, (m) => at(`limit '${row.where}': ${connector.id} ${entity.name} ${action.name} param ${m}`, ['expect'], p));
        }
      });
    });
    limitIR.appliesTo.sort();
    if (matches === 0) at(`limit '${row.where}' applies to no param of the spec`, ['appliesTo']);
  });
}

/** The pattern of a value format (undefined for anything else). */
const patternOf = (format: unknown) => (typeof format === 'string' ? FORMAT_PATTERNS[format as ValueFormat] : undefined);

function compare(p: PropertyIR, row: RawLimit, report: (message: string) => void): void {
  for (const [key, expected] of Object.entries(row.expect ?? {})) {
    if (key === 'maxBytes') continue;
    const actual = (p as unknown as Record<string, unknown>)[key];
    // A pattern and a format of that pattern are the same limit, written either way.
    if (key === 'format' && p.pattern !== undefined && p.pattern === patternOf(expected)) continue;
    if (key === 'pattern' && p.format !== undefined && patternOf(p.format) === expected) continue;
    if (actual !== expected) report(`'${p.name}' has ${key} ${actual === undefined ? '(none)' : JSON.stringify(actual)}, the Limits table says ${JSON.stringify(expected)}`);
  }
}

const STRING_FORMATS = new Set(['currency_lower_iso', 'date_time', 'lowercase_name', 'md5_of_lower_email', 'unix_time_string', 'url']);

/**
 * The rules of the spec name real things: ordering, default filters, alternate keys, matches, intervals and invariants name fields
 * of the records they apply to; param groups, unlessParam and inclusiveParam name params of their action; formats
 * sit on string values; derived values come from fields the record has; a searchable field the record does not
 * carry says how it is derived; recordsFrom names another entity; a parent rule names another entity, fields of its
 * records and params its actions take.
 */
function checkRules(connector: ConnectorIR, origins: Origins, out: Diagnostic[]): void {
  const shapeOf = (name: string | undefined) => connector.records.find((r) => r.name === name);
  const recordWord = (shape: ShapeIR) => `record '${shape.name}'`;
  for (const shape of connector.records) checkShapeRules(shape, origins, out);
  for (const entity of connector.entities) {
    if (entity.recordsFrom !== undefined) {
      const target = connector.entities.find((e) => e.name === entity.recordsFrom);
      if (!target || target === entity) out.push(origins.diagnostic(entity, 'SPEC018', `recordsFrom of '${entity.name}' names ${target ? 'the entity itself' : `unknown entity '${entity.recordsFrom}'`}`, ['recordsFrom']));
      else if (target.recordsFrom !== undefined) out.push(origins.diagnostic(entity, 'SPEC030', `recordsFrom of '${entity.name}' names '${target.name}', which takes its records from '${target.recordsFrom}'; name that entity`, ['recordsFrom']));
    }
    if (entity.parent) checkParent(connector, entity, entity.parent, origins, out);
    checkSearchable(connector, entity, origins, out);
    for (const action of entity.actions) {
      const shape = shapeOf(action.result.record);
      const fields = shape?.properties ?? [];
      // A list may return a compact record (project_list) of records that hold more: its rules may name those fields too.
      const stored = shapeOf(entity.record)?.properties ?? [];
      const where = `${entity.name} ${action.name}`;
      const needField = (node: object, path: string, sub: (string | number)[], what: string) => {
        if (!propertyAt(fields, path) && !propertyAt(stored, path)) out.push(origins.diagnostic(node, 'SPEC030', `${what} of ${where} names '${path}', which is not a field of ${shape ? recordWord(shape) : 'its (unnamed) record'}`, sub));
      };
      const paramNames = new Set(action.params.map((p) => p.name));
      for (const o of action.ordering ?? []) needField(o, o.field, ['field'], 'ordering');
      if (action.defaultFilter) {
        needField(action.defaultFilter, action.defaultFilter.field, ['field'], 'defaultFilter');
        if (action.defaultFilter.unlessParam && !paramNames.has(action.defaultFilter.unlessParam)) {
          out.push(origins.diagnostic(action.defaultFilter, 'SPEC030', `defaultFilter of ${where} names param '${action.defaultFilter.unlessParam}', which the action does not list`, ['unlessParam']));
        }
      }
      if (action.alternateKeys) {
        const alternate = action.alternateKeys;
        if (action.keyParam === undefined) out.push(origins.diagnostic(alternate, 'SPEC030', `alternateKeys of ${where} needs a key param to take them; name it with keyParam`));
        alternate.fields.forEach((f, i) => needField(alternate, f, ['fields', i], 'alternateKeys'));
      }
      for (const group of action.paramGroups ?? []) {
        for (const name of group.alternatives.flat()) {
          if (!paramNames.has(name)) out.push(origins.diagnostic(group, 'SPEC030', `param group of ${where} names '${name}', which is not a param of the action`));
        }
      }
      if (action.name === 'search') continue;
      const walk = (params: PropertyIR[], parentRange: string | undefined) => {
        for (const p of params) {
          if (p.format && (!STRING_FORMATS.has(p.format) || p.types[0] !== 'string')) out.push(origins.diagnostic(p, 'SPEC030', `param '${p.name}' of ${where} has format ${p.format}, which applies to strings only`, ['format']));
          if (p.matches) p.matches.fields.forEach((f, i) => needField(p, f, ['matches', 'fields', i], `matches of param '${p.name}'`));
          if (p.sortBy) checkSortBy(p, p.sortBy, action, where, needField, origins, out);
          if (p.excludes) {
            const rule = p.excludes;
            if (action.name !== 'list' && action.name !== 'api_search') out.push(origins.diagnostic(rule, 'SPEC030', `excludes of param '${p.name}' applies to list and api_search params, not to ${where}`));
            else if (p.types[0] !== 'boolean') out.push(origins.diagnostic(rule, 'SPEC030', `excludes of param '${p.name}' of ${where} applies to boolean params (it filters when true), not to a ${p.types[0]}`));
            needField(rule, rule.field, ['field'], `excludes of param '${p.name}'`);
          }
          if (p.rangeOf) {
            const target = propertyAt(fields, p.rangeOf);
            if (!target) needField(p, p.rangeOf, ['rangeOf'], `rangeOf of param '${p.name}'`);
            else if (!target.types.some((t) => t === 'integer' || t === 'number' || t === 'string')) out.push(origins.diagnostic(p, 'SPEC030', `rangeOf of param '${p.name}' names '${p.rangeOf}', which is not a number or string field`, ['rangeOf']));
          }
          if (p.bound) {
            if (!p.rangeOf && !parentRange) out.push(origins.diagnostic(p, 'SPEC030', `param '${p.name}' of ${where} is a bound but neither it nor its object names rangeOf`, ['bound']));
            const inclusive = p.bound.inclusiveParam;
            if (inclusive && action.params.find((x) => x.name === inclusive)?.types[0] !== 'boolean') {
              out.push(origins.diagnostic(p, 'SPEC030', `inclusiveParam of '${p.name}' names '${inclusive}', which is not a boolean param of ${where}`, ['bound', 'inclusiveParam']));
            }
          }
          if (p.properties) walk(p.properties, p.rangeOf ?? parentRange);
        }
      };
      walk(action.params, undefined);
      if (action.updateSemantics && action.kind !== 'write') out.push(origins.diagnostic(action, 'SPEC030', `updateSemantics applies to update actions`, ['updateSemantics']));
    }
  }
}

function checkFormats(props: PropertyIR[], owner: string, origins: Origins, out: Diagnostic[]): void {
  for (const p of props) {
    if (p.format && !p.types.includes('string')) out.push(origins.diagnostic(p, 'SPEC030', `field '${p.name}' of ${owner} has format ${p.format}, which applies to strings only`, ['format']));
    if (p.properties) checkFormats(p.properties, owner, origins, out);
  }
}

function checkShapeRules(shape: ShapeIR, origins: Origins, out: Diagnostic[]): void {
  const owner = `record '${shape.name}'`;
  checkFormats(shape.properties, owner, origins, out);
  if (shape.key && !propertyAt(shape.properties, shape.key)) out.push(origins.diagnostic(shape, 'SPEC030', `key of ${owner} names '${shape.key}', which is not one of its fields`, ['key']));
  for (const p of shape.properties) {
    if (p.derive?.from !== undefined && !propertyAt(shape.properties, p.derive.from)) out.push(origins.diagnostic(p, 'SPEC030', `field '${p.name}' of ${owner} derives from '${p.derive.from}', which is not one of its fields`, ['derive', 'from']));
  }
  for (const inv of shape.invariants ?? []) {
    const field = (name: string, sub: string, want?: (p: PropertyIR) => boolean, what?: string) => {
      const f = propertyAt(shape.properties, name);
      if (!f) out.push(origins.diagnostic(inv, 'SPEC030', `invariant '${inv.kind}' of ${owner} names '${name}', which is not one of its fields`, [sub]));
      else if (want && !want(f)) out.push(origins.diagnostic(inv, 'SPEC030', `invariant '${inv.kind}' of ${owner}: '${name}' ${what}`, [sub]));
    };
    const numeric = (p: PropertyIR) => p.types.every((t) => t === 'integer' || t === 'number');
    if (inv.kind === 'iff') {
      field(inv.field, 'field', (p) => p.types.length === 1 && p.types[0] === 'boolean', 'must be a boolean field');
      field(inv.left, 'left');
      field(inv.right, 'right');
    } else if (inv.kind === 'compare') {
      const ordered = inv.op !== 'eq' && inv.op !== 'neq';
      field(inv.left, 'left', ordered ? numeric : undefined, 'must be a number field to be ordered');
      field(inv.right, 'right', ordered ? numeric : undefined, 'must be a number field to be ordered');
    } else {
      inv.fields.forEach((f, i) => {
        const found = propertyAt(shape.properties, f);
        if (!found) out.push(origins.diagnostic(inv, 'SPEC030', `invariant 'accountOnly' of ${owner} names '${f}', which is not one of its fields`, ['fields', i]));
        else if (!found.nullable) out.push(origins.diagnostic(inv, 'SPEC030', `invariant 'accountOnly' of ${owner}: '${f}' is not nullable, so it cannot be null for other accounts`, ['fields', i]));
      });
    }
  }
}

/** Record fields an entity's list and single results carry (the union over its actions' records). */
function entityRecordFields(connector: ConnectorIR, entity: EntityIR): { fields: PropertyIR[]; open: boolean } {
  const names = new Set(entity.actions.filter((a) => (a.result.shape === 'list' || a.result.shape === 'single') && a.name !== 'delete').map((a) => a.result.record));
  const shapes = connector.records.filter((r) => names.has(r.name));
  return { fields: shapes.flatMap((s) => s.properties), open: shapes.length === 0 || shapes.some((s) => s.unspecified !== undefined) };
}

function checkSearchable(connector: ConnectorIR, entity: EntityIR, origins: Origins, out: Diagnostic[]): void {
  if (!entity.searchable) return;
  const { fields, open } = entityRecordFields(connector, entity);
  for (const p of entity.searchable.properties) {
    checkFormats([p], `searchable fields of '${entity.name}'`, origins, out);
    const own = fields.find((f) => f.name === p.name);
    // A record field of another type (an object where the search holds a string) cannot be the search data as is.
    const fits = own !== undefined && typesFit(own, p);
    if (p.derive) {
      if (fits) out.push(origins.diagnostic(p, 'SPEC030', `searchable field '${p.name}' of '${entity.name}' is a field of the record of the same type: search data holds the record's value, derive does not apply`, ['derive']));
      else if (p.derive.from !== undefined && !propertyAt(fields, p.derive.from)) out.push(origins.diagnostic(p, 'SPEC030', `searchable field '${p.name}' of '${entity.name}' derives from '${p.derive.from}', which is not a field of its record`, ['derive', 'from']));
    } else if (own && !fits) {
      out.push(origins.diagnostic(p, 'SPEC031', `searchable field '${p.name}' of '${entity.name}' is ${p.types.join('|')} but the record's field is ${own.types.join('|')}, and it says no derive rule; its search data is null`, undefined, 'warning'));
    } else if (!own && !open) {
      out.push(origins.diagnostic(p, 'SPEC031', `searchable field '${p.name}' of '${entity.name}' is not a field of its record and says no derive rule; its search data is null`, undefined, 'warning'));
    }
  }
}

/**
 * A parent rule names another entity that holds records of its own and is no descendant of this one, fields of that
 * entity's records, and params some action of the entity (or of one borrowing its records) takes all of.
 */
function checkParent(connector: ConnectorIR, entity: EntityIR, parent: ParentIR, origins: Origins, out: Diagnostic[]): void {
  const report = (message: string, sub: (string | number)[] = [], code: 'SPEC018' | 'SPEC030' = 'SPEC030'): void => void out.push(origins.diagnostic(parent, code, message, sub));
  if (entity.recordsFrom !== undefined) return report(`parent of '${entity.name}' belongs on '${entity.recordsFrom}', whose records it addresses (recordsFrom)`);
  const target = connector.entities.find((e) => e.name === parent.entity);
  if (!target || target === entity) return report(`parent of '${entity.name}' names ${target ? 'the entity itself' : `unknown entity '${parent.entity}'${didYouMean(parent.entity, connector.entities.map((e) => e.name))}`}`, ['entity'], 'SPEC018');
  if (target.recordsFrom !== undefined) return report(`parent of '${entity.name}' names '${target.name}', which takes its records from '${target.recordsFrom}'; name that entity`, ['entity']);
  for (let up: EntityIR | undefined = target, hops = 0; up?.parent && hops <= connector.entities.length; hops++) {
    if (up.parent.entity === entity.name) return report(`parent of '${entity.name}' names '${target.name}', whose records belong to '${entity.name}' in turn: a record cannot be its own ancestor`, ['entity']);
    up = connector.entities.find((e) => e.name === up!.parent!.entity);
  }
  // The shapes of an entity's records: its record, and what its list and get return.
  const recordShapes = (e: EntityIR) => {
    const names = new Set([e.record, ...e.actions.filter((a) => a.name === 'list' || a.name === 'get').map((a) => a.result.record)]);
    return connector.records.filter((r) => names.has(r.name));
  };
  const shapes = recordShapes(target);
  for (const { param, field } of parent.params) {
    // Records whose fields are not shown (open) may hold it: their key, at least, the fixtures put there.
    if (!shapes.some((s) => propertyAt(s.properties, field) || s.unspecified !== undefined)) report(`parent of '${entity.name}' reads param '${param}' as field '${field}', which is not a field of the records of '${target.name}'`, ['params', param]);
  }
  if (parent.field !== undefined) {
    if (!recordShapes(entity).some((r) => propertyAt(r.properties, parent.field!))) report(`parent of '${entity.name}' puts the parent's value in field '${parent.field}', which is not a field of its records`, ['field']);
  }
  const actions = connector.entities.filter((e) => e === entity || e.recordsFrom === entity.name).flatMap((e) => e.actions);
  if (!actions.some((a) => parent.params.every((p) => a.params.some((x) => x.name === p.param)))) {
    report(`parent of '${entity.name}' names params ${parent.params.map((p) => `'${p.param}'`).join(', ')}, which no action of '${entity.name}' takes together`, ['params']);
  }
}

/**
 * A sorting param sits on a list, maps values it takes to fields of the record, and names a direction param the
 * action has, with descending values that param takes.
 */
function checkSortBy(p: PropertyIR, rule: SortByIR, action: ActionIR, where: string, needField: (node: object, path: string, sub: (string | number)[], what: string) => void, origins: Origins, out: Diagnostic[]): void {
  const report = (message: string, sub: (string | number)[]): void => void out.push(origins.diagnostic(rule, 'SPEC030', message, sub));
  if (action.name !== 'list' && action.name !== 'api_search') return report(`sortBy of param '${p.name}' applies to list and api_search params, not to ${where}`, []);
  const allowed = p.enum?.map(String);
  for (const { value, field } of rule.fields) {
    needField(rule, field, ['fields', value], `sortBy of param '${p.name}'`);
    const bare = rule.syntax === 'signed' ? value.replace(/^[+-]/, '') : value;
    if (allowed && rule.syntax !== 'clauses' && !allowed.includes(bare) && !allowed.includes(value)) report(`sortBy of param '${p.name}' maps '${value}', which the param does not take (${allowed.join(', ')})`, ['fields', value]);
  }
  if (rule.directionParam !== undefined) {
    const direction = action.params.find((x) => x.name === rule.directionParam);
    if (!direction) report(`sortBy of param '${p.name}' names direction param '${rule.directionParam}', which ${where} does not list`, ['directionParam']);
    else if (!rule.descending?.length) report(`sortBy of param '${p.name}' names direction param '${rule.directionParam}' but not the values of it that mean descending; list them in descending`, ['directionParam']);
    else if (direction.enum && rule.descending.some((v) => !direction.enum!.includes(v))) report(`sortBy of param '${p.name}': descending lists a value '${direction.name}' does not take (${direction.enum.join(', ')})`, ['descending']);
  } else if (rule.descending) report(`sortBy of param '${p.name}' lists descending values without a directionParam to read them from`, ['descending']);
}
