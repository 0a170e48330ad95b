/**
 * The spec's rules in words, for every artefact that explains them (the reference, package READMEs, JSDoc of the
 * generated types and methods): value formats, filters, interval bounds, default ordering and filters, param
 * groups, invariants, derived values and update semantics. Plain text with `code` spans; callers escape for their
 * medium.
 */
import type { ActionIR, AlternateKeysIR, BoundIR, DefaultFilterIR, DeriveIR, ExcludesIR, InvariantIR, MatchIR, OrderingIR, ParamGroupIR, ParentIR, PropertyIR, SchemaIR, SortByIR, ValueFormat } from '../ir.js';

/** What each value format means. */
export const FORMAT_TEXT: Record<ValueFormat, string> = {
  currency_lower_iso: 'a lowercase three-letter ISO currency code (`usd`)',
  date_time: 'an ISO 8601 date-time (`2024-04-05T10:00:00Z`; UTC where it gives no offset)',
  lowercase_name: 'lowercase, without spaces (`general`, `team-updates`)',
  md5_of_lower_email: 'the hex MD5 hash of the lowercase email address',
  unix_time_string: 'Unix seconds as a decimal string (`1712345678.000100`)',
  url: 'an absolute http(s) URL',
};

const OP_TEXT: Record<string, string> = { eq: 'equals', neq: 'differs from', lt: 'is less than', lte: 'is at most', gt: 'is greater than', gte: 'is at least' };

const list = (items: readonly string[]) => items.map((i) => `\`${i}\``).join(', ');
const literal = (v: unknown) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;

/** "Filters: exact match on `email`, case-sensitive." */
export function matchesText(m: MatchIR, param?: Pick<PropertyIR, 'types' | 'separator'>): string {
  const how = m.mode === 'exact' ? 'equal to' : m.mode === 'prefix' ? 'starting with' : 'containing';
  // An array or a separated list gives several values: a record matching any of them is kept.
  const several = param?.separator !== undefined ? `any of the \`${param.separator}\`-separated values` : param?.types[0] === 'array' ? 'any of the values' : 'the value';
  return `Filters: records whose ${m.fields.length > 1 ? 'fields ' : ''}${m.fields.map((f) => `\`${f}\``).join(' or ')} ${m.fields.length > 1 ? 'hold a value' : 'is'} ${how} ${several}, ${m.caseSensitive ? 'case-sensitive' : 'ignoring case'}.`;
}

/** "When `true`, leaves out records whose `is_archived` is `true`; `false` filters nothing." */
export function excludesText(x: ExcludesIR): string {
  return `When \`true\`, leaves out records whose \`${x.field}\` is ${x.values.map(literal).join(' or ')}; \`false\` filters nothing.`;
}

/** "Sorts results by the record field its value names (`create_time`): descending when `sort_dir` is `DESC`, else ascending." */
export function sortByText(rule: SortByIR): string {
  const fields = rule.fields.map((f) => (f.value === f.field ? `\`${f.value}\`` : `\`${f.value}\` → \`${f.field}\``)).join(', ');
  const otherwise = rule.defaultDirection === 'desc' ? 'descending' : 'ascending';
  const how =
    rule.syntax === 'signed'
      ? `descending with a \`-\` prefix, ascending with \`+\`, else ${otherwise}`
      : rule.syntax === 'clauses'
        ? `comma-separated, each descending when followed by \`desc\`, else ${otherwise}`
        : rule.directionParam
          ? `descending when \`${rule.directionParam}\` is ${rule.descending!.map(literal).join(' or ')}, else ${otherwise}`
          : otherwise;
  return `Sorts results by the record field its value names (${fields}): ${how}. Other values keep the default order.`;
}

/** "Lower bound on `created`, exclusive (inclusive when `inclusive` is true)." */
export function boundText(b: BoundIR, field?: string): string {
  const on = field ? ` on \`${field}\`` : '';
  const which = b.side === 'lower' ? `Lower bound${on}` : `Upper bound${on}`;
  return `${which}, ${b.inclusive ? 'inclusive' : 'exclusive'}${b.inclusiveParam ? ` (inclusive when \`${b.inclusiveParam}\` is true)` : ''}.`;
}

/** "Sorted by `created` descending." */
export function orderingText(ordering: readonly OrderingIR[]): string {
  return `Results are sorted by ${ordering.map((o) => `\`${o.field}\` ${o.direction === 'desc' ? 'descending (newest or largest first)' : 'ascending'}`).join(', then ')}.`;
}

/**
 * "Leaves out records whose `status` is `canceled` unless `status` is given." A flag (`flag`: the unless param is a
 * boolean) lifts it when true only.
 */
export function defaultFilterText(f: DefaultFilterIR, flag = false): string {
  const lift = f.unlessParam ? `; giving \`${f.unlessParam}\`${flag ? ' as `true`' : ''} lifts this` : '';
  return `By default, records whose \`${f.field}\` is ${f.exclude.map(literal).join(' or ')} are left out${lift}.`;
}

/** "Give exactly one of: `project` | `section` | `assignee` with `workspace`." */
export function paramGroupText(g: ParamGroupIR): string {
  const alternatives = g.alternatives.map((alt) => alt.map((n) => `\`${n}\``).join(' with ')).join(' | ');
  return `${g.kind === 'oneOf' ? 'Give exactly one of' : 'Give at least one of'}: ${alternatives}.`;
}

/** One invariant in words. */
export function invariantText(inv: InvariantIR): string {
  switch (inv.kind) {
    case 'iff':
      return `\`${inv.field}\` is true exactly when \`${inv.left}\` ${OP_TEXT[inv.op]} \`${inv.right}\`.`;
    case 'compare':
      return `\`${inv.left}\` ${OP_TEXT[inv.op]} \`${inv.right}\`.`;
    case 'accountOnly':
      return `${list(inv.fields)} are null unless the source is a ${inv.account} account.`;
  }
}

/**
 * The rules a value carries, one sentence each, in the order every artefact gives them: its filter (`matches`,
 * `excludes`, `sortBy`), its interval (`rangeOf`, `bound`) and how it is derived.
 */
export function valueRuleTexts(p: SchemaIR): string[] {
  const texts: string[] = [];
  if (p.matches) texts.push(matchesText(p.matches, p));
  if (p.excludes) texts.push(excludesText(p.excludes));
  if (p.sortBy) texts.push(sortByText(p.sortBy));
  if (p.rangeOf && !p.bound) texts.push(`An interval on \`${p.rangeOf}\`.`);
  if (p.bound) texts.push(boundText(p.bound, p.rangeOf));
  if (p.derive) texts.push(deriveText(p.derive, p.format));
  return texts;
}

/** How a derived value follows from the record. */
export function deriveText(d: DeriveIR, format?: ValueFormat): string {
  if (d.from !== undefined) return format && format !== 'currency_lower_iso' ? `Derived: ${FORMAT_TEXT[format]} of \`${d.from}\`.` : `Derived: the value of \`${d.from}\`.`;
  return `Derived: always ${d.value === null ? '`null`' : literal(d.value)}.`;
}

/** "Partial update: fields not given keep their values." */
export function updateSemanticsText(semantics: NonNullable<ActionIR['updateSemantics']>): string {
  return semantics === 'partial' ? 'Partial update: only the fields given change; the others keep their values.' : semantics;
}

/** "`issueIdOrKey` also takes the record's `key`." (client JSDoc; the reference says it in its key param line). */
export function alternateKeysText(keyParam: string, alternate: AlternateKeysIR): string {
  return `\`${keyParam}\` also takes the record's ${alternate.fields.map((f) => `\`${f}\``).join(' or ')}.`;
}

/** "Within the `channels` record that `channel` names (its `id`): only its records are seen; naming none answers 404." */
export function parentText(parent: ParentIR): string {
  const named = parent.params.map((p) => `\`${p.param}\` (its \`${p.field}\`)`).join(' and ');
  return `Within the \`${parent.entity}\` record that ${named} ${parent.params.length > 1 ? 'name' : 'names'}: only its records are seen; naming none answers 404.`;
}

/** Every rule of an action, one sentence each (ordering, default filter, param groups, update semantics). */
export function actionRuleLines(action: ActionIR): string[] {
  const out: string[] = [];
  if (action.ordering) out.push(orderingText(action.ordering));
  if (action.defaultFilter) {
    const unless = action.params.find((p) => p.name === action.defaultFilter!.unlessParam);
    out.push(defaultFilterText(action.defaultFilter, unless?.types[0] === 'boolean'));
  }
  for (const g of action.paramGroups ?? []) out.push(paramGroupText(g));
  if (action.updateSemantics) out.push(updateSemanticsText(action.updateSemantics));
  return out;
}
