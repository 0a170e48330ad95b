/**
 * Phase 2, the rules part: an action's rules as IR (ordering — its own, or the connector default for lists —,
 * default filter, param groups, update semantics, alternate keys) and the param that carries the key of the record an action
 * addresses (keyParam: written, or inferred from the record key and param names). Misplaced or incomplete rules
 * are reported (SPEC030) at the key that holds them.
 */
import type { ActionIR, EntityIR, ParamGroupIR, PropertyIR, ShapeIR } from '../ir.js';
import type { FileContext } from './normalize.js';
import type { RawAction, RawConnector, RawDocs } from './raw.js';
import type { DataPath } from './yaml-source.js';

/** The note, provenance and assumption of a rule, as written. */
export function ruleDocs(raw: RawDocs): RawDocs {
  return { ...(raw.note ? { note: raw.note } : {}), ...(raw.provenance ? { provenance: raw.provenance } : {}), ...(raw.assumption ? { assumption: raw.assumption } : {}) };
}

/** The rules of an action as IR: ordering (own or the connector default for list), default filter, param groups, update semantics. */
export function buildRules(action: ActionIR, raw: RawAction, path: DataPath, connector: RawConnector, ctx: FileContext): void {
  const misplaced = (key: string, where: string) => ctx.report([...path, key], 'SPEC030', `${key} applies to ${where}, not to ${action.name}`);
  if (raw.ordering) {
    if (action.name !== 'list') misplaced('ordering', 'list actions');
    else action.ordering = ctx.ordering(raw.ordering, [...path, 'ordering']);
  } else if (action.name === 'list' && connector.defaults?.ordering) {
    action.ordering = connector.defaults.ordering.map((o) => ctx.origins.set({ field: o.field, direction: o.direction }, ctx.source, path));
    action.orderingFrom = ctx.loc(['defaults', 'ordering']);
  }
  if (raw.defaultFilter) {
    // An api_search is a list too (its records filtered by the third party's query): its default filter is the same rule.
    if (action.name !== 'list' && action.name !== 'api_search') misplaced('defaultFilter', 'list and api_search actions');
    else {
      const f = raw.defaultFilter;
      action.defaultFilter = ctx.origins.set(
        { field: f.field, exclude: [...f.exclude].sort((a, b) => (String(a) < String(b) ? -1 : 1)), ...(f.unlessParam ? { unlessParam: f.unlessParam } : {}), ...(f.description ? { description: f.description } : {}), ...ruleDocs(f) },
        ctx.source,
        [...path, 'defaultFilter'],
      );
      ctx.noteAssumption([...path, 'defaultFilter'], f.assumption, f.provenance);
    }
  }
  if (raw.paramGroups) {
    action.paramGroups = raw.paramGroups.flatMap((g, i) => {
      const at: DataPath = [...path, 'paramGroups', i];
      if ((g.params === undefined) === (g.alternatives === undefined)) {
        ctx.report(at, 'SPEC030', `a param group gives either params or alternatives`);
        return [];
      }
      const alternatives = (g.alternatives ?? g.params!.map((p) => [p])).map((a) => [...a].sort()).sort((a, b) => (a.join() < b.join() ? -1 : 1));
      ctx.noteAssumption(at, g.assumption, g.provenance);
      const group: ParamGroupIR = { kind: g.kind, alternatives, ...(g.description ? { description: g.description } : {}), ...ruleDocs(g) };
      return [ctx.origins.set(group, ctx.source, at)];
    });
  }
  if (raw.alternateKeys) {
    if (!ADDRESSING.includes(action.name)) misplaced('alternateKeys', 'get, update, delete and download');
    else {
      const at: DataPath = [...path, 'alternateKeys'];
      action.alternateKeys = ctx.origins.set({ fields: [...raw.alternateKeys.fields], ...ruleDocs(raw.alternateKeys) }, ctx.source, at);
      ctx.noteAssumption(at, raw.alternateKeys.assumption, raw.alternateKeys.provenance);
    }
  }
  if (raw.updateSemantics) {
    if (action.name !== 'update') misplaced('updateSemantics', 'update actions');
    else action.updateSemantics = raw.updateSemantics;
  }
}

const ADDRESSING: readonly string[] = ['get', 'update', 'delete', 'download'];
const singularOf = (word: string) => word.replace(/ies$/, 'y').replace(/(ses|xes)$/, (m) => m.slice(0, -2)).replace(/s$/, '');

/**
 * The param of a get, update, delete or download that carries the record's identifier: the one the spec names
 * (keyParam), else the required param named like the record's key field, else the one named after the entity
 * (`agent_id`, `issueIdOrKey`, `task_gid`), else the only required param. Several candidates and no keyParam: SPEC030.
 */
export function resolveKeyParam(action: ActionIR, raw: RawAction, entity: EntityIR, records: ShapeIR[], ctx: FileContext, path: DataPath): void {
  if (!ADDRESSING.includes(action.name)) {
    if (raw.keyParam) ctx.report([...path, 'keyParam'], 'SPEC030', `keyParam applies to get, update, delete and download, not to ${action.name}`);
    return;
  }
  if (raw.keyParam) {
    if (action.params.some((p) => p.name === raw.keyParam)) action.keyParam = raw.keyParam;
    else ctx.report([...path, 'keyParam'], 'SPEC030', `keyParam '${raw.keyParam}' is not a param of ${entity.name} ${action.name}`);
    return;
  }
  const scalar = (p: PropertyIR) => p.const === undefined && !p.enum && p.types[0] !== 'object' && p.types[0] !== 'array';
  let candidates = action.params.filter((p) => p.required && scalar(p));
  // Without required params, an optional one named like the key (an id that became optional) still addresses the record.
  if (candidates.length === 0) candidates = action.params.filter((p) => scalar(p) && (p.name === 'id' || p.name === 'gid'));
  if (candidates.length === 0) return;
  const shape = records.find((r) => r.name === (entity.record ?? action.result.record));
  const keyName = shape?.key?.split('.').at(-1);
  const stem = singularOf(entity.name).toLowerCase().replace(/_/g, '');
  const byKey = candidates.find((p) => p.name === keyName) ?? candidates.find((p) => p.name === 'id' || p.name === 'gid');
  const byEntity = candidates.find((p) => p.name.toLowerCase().replace(/_/g, '').replace(/(idorkey|gid|id|key)$/, '') === stem && /(IdOrKey|Id|_id|_gid|_key)$/.test(p.name));
  const chosen = byKey ?? byEntity ?? (candidates.length === 1 ? candidates[0] : undefined);
  if (chosen) action.keyParam = chosen.name;
  else ctx.report(path, 'SPEC030', `${entity.name} ${action.name} has several required params (${candidates.map((p) => p.name).join(', ')}); name the one that identifies the record with keyParam`);
}
