/**
 * Contract tests of the spec's rules, as code: each rule of a list action (default ordering, default filter,
 * `matches` params, interval bounds, param groups) and of its records (invariants, formats) becomes a test that
 * calls the mock and checks the answer against the rule — read from the IR, written into the test as data.
 */
import { parentScope, recordsEntity, type ActionIR, type ConnectorIR, type EntityIR, type PropertyIR, type SortByIR } from '../../ir.js';
import { camelCase } from '../naming.js';
import type { Doc } from '../ts/doc.js';
import { code, literal, str, type LiteralValue } from '../ts/syntax.js';
import { allOf, arrowOf, blockOf, CLIENT, constOf, testOf } from './code.js';
import { paramsValue } from './params.js';
import { entityFields } from '../fixtures/entity-facts.js';

/** A list action's rules as the harness reads them (test/contract/rules.ts ListRules), or undefined when it has none. */
export function listRules(connector: ConnectorIR, entity: EntityIR, action: ActionIR): LiteralValue | undefined {
  const parent = parentScope(connector, entity, action);
  const params: Record<string, LiteralValue> = {};
  for (const p of action.params) {
    const members = p.properties?.filter((m) => m.bound);
    const matching = p.properties?.filter((m) => m.matches);
    const separated = matching?.filter((m) => m.separator !== undefined);
    const rule = {
      ...(p.matches ? { matches: matchRule(p.matches) } : {}),
      ...(p.matches && p.separator !== undefined ? { separator: p.separator } : {}),
      ...(p.rangeOf ? { rangeOf: p.rangeOf } : {}),
      ...(p.bound ? { bound: p.bound as unknown as LiteralValue } : {}),
      ...(members?.length ? { members: Object.fromEntries(members.map((m) => [m.name, m.bound as unknown as LiteralValue])) } : {}),
      ...(matching?.length ? { memberMatches: Object.fromEntries(matching.map((m) => [m.name, matchRule(m.matches!)])) } : {}),
      ...(separated?.length ? { memberSeparators: Object.fromEntries(separated.map((m) => [m.name, m.separator!])) } : {}),
      ...(p.excludes ? { excludes: { field: p.excludes.field, values: p.excludes.values } } : {}),
    };
    if (Object.keys(rule).length) params[p.name] = rule;
  }
  const f = action.defaultFilter;
  const rules = {
    ...(f ? { defaultFilter: { field: f.field, exclude: f.exclude, ...(f.unlessParam ? { unlessParam: f.unlessParam } : {}) } } : {}),
    ...(Object.keys(params).length ? { params } : {}),
    ...(parent ? { parent: { entity: parent.entity, params: Object.fromEntries(parent.params.map((p) => [p.param, p.field])) } } : {}),
  };
  return Object.keys(rules).length ? rules : undefined;
}

/** A `matches` rule as the harness reads it (test/contract/rules.ts MatchRule). */
const matchRule = (m: NonNullable<PropertyIR['matches']>): LiteralValue => ({ fields: m.fields, mode: m.mode, caseSensitive: m.caseSensitive });

/** Invariants and formats of the records an action returns, as data, or undefined. */
export function recordRules(connector: ConnectorIR, action: ActionIR): { invariants: LiteralValue; formats: LiteralValue } | undefined {
  const shape = connector.records.find((r) => r.name === action.result.record);
  if (!shape) return undefined;
  const formats: Record<string, string> = {};
  const walk = (props: PropertyIR[], prefix: string) => {
    for (const p of props) {
      if (p.format) formats[`${prefix}${p.name}`] = p.format;
      if (p.properties) walk(p.properties, `${prefix}${p.name}.`);
    }
  };
  walk(shape.properties, '');
  const invariants = (shape.invariants ?? []).map((inv) => {
    const { description: _d, note: _n, provenance: _p, assumption: _a, ...rule } = inv;
    return rule as LiteralValue;
  });
  if (!invariants.length && !Object.keys(formats).length) return undefined;
  return { invariants, formats };
}

/** The rule tests of a list action (none when it states no rules). */
export function listRuleTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR, withOrder = true): Doc[] {
  const e = str(entity.name);
  const method = `client.${camelCase(entity.name)}.${camelCase(action.name)}`;
  const base = paramsValue(connector, entity, action, 0);
  // The describe block declares `rules` (the list's rules as data) when the action has any.
  const rules = listRules(connector, entity, action) ? 'rules' : '{}';
  const out: Doc[] = [];
  if (withOrder && action.ordering?.length) {
    out.push(
      testOf(`results come in the default order (${action.ordering.map((o) => `${o.field} ${o.direction}`).join(', ')})`, [
        CLIENT,
        constOf('params', base),
        `const records = ${allOf(method, 'params')};`,
        'expect(records.length).toBeGreaterThan(1);',
        constOf('order', action.ordering.map((o) => ({ field: o.field, direction: o.direction })), 'Ordering'),
        'expect(orderingBreak(records, order)).toBeUndefined();',
      ]),
    );
  }
  const f = action.defaultFilter;
  if (f) {
    const field = str(f.field);
    const body: Doc[] = [
      CLIENT,
      constOf('excluded', f.exclude),
      `const values = h.entity(${e}).records.map((r) => at(r, ${field}));`,
      'const leftOut = values.filter((v) => excluded.includes(v as never));',
      "expect(leftOut.length, 'the fixtures hold records the default leaves out').toBeGreaterThan(0);",
      constOf('params', base),
      `const records = ${allOf(method, 'params')};`,
      'expect(records.length).toBeGreaterThan(0);',
      `expect(records.filter((r) => excluded.includes(at(r, ${field}) as never))).toEqual([]);`,
    ];
    const unless = f.unlessParam && action.params.find((p) => p.name === f.unlessParam);
    if (unless && unless.types[0] === 'boolean') {
      // A flag lifts the default when true (includeDeleted): the records left out come back; false keeps the default.
      body.push(
        constOf('liftedParams', paramsValue(connector, entity, action, 0, { [unless.name]: true })),
        `const lifted = ${allOf(method, 'liftedParams')};`,
        `const back = lifted.filter((r) => excluded.includes(at(r, ${field}) as never));`,
        `expect(back.length, ${str(`${f.unlessParam}: true lifts the default`)}).toBeGreaterThan(0);`,
        constOf('keptParams', paramsValue(connector, entity, action, 0, { [unless.name]: false })),
        `const kept = ${allOf(method, 'keptParams')};`,
        `const stillOut = kept.filter((r) => excluded.includes(at(r, ${field}) as never));`,
        `expect(stillOut, ${str(`${f.unlessParam}: false keeps the default`)}).toEqual([]);`,
      );
    } else if (unless) {
      const asked = f.exclude[0]!;
      body.push(
        constOf('askedParams', paramsValue(connector, entity, action, 0, { [unless.name]: asked })),
        `const asked = ${allOf(method, 'askedParams')};`,
        `expect(asked.length, ${str(`asking for ${f.unlessParam} lifts the default`)}).toBeGreaterThan(0);`,
        [`expect(asked.every((r) => at(r, ${field}) === `, literal(asked), ')).toBe(true);'],
      );
    }
    out.push(testOf(`the default filter leaves out ${f.field} ${f.exclude.join(', ')}${f.unlessParam ? ` unless ${f.unlessParam} asks` : ''}`, body));
  }
  for (const p of action.params) {
    if (p.matches) out.push(matchesTest(connector, entity, action, p, undefined, method, rules));
    for (const member of p.properties ?? []) if (member.matches) out.push(matchesTest(connector, entity, action, p, member, method, rules));
    if (p.excludes) out.push(excludesTest(connector, entity, action, p, method, rules));
    const bounded = p.bound && p.rangeOf ? [{ name: undefined as string | undefined, bound: p.bound }] : p.rangeOf ? (p.properties ?? []).filter((m) => m.bound).map((m) => ({ name: m.name as string | undefined, bound: m.bound! })) : [];
    if (bounded.length && p.rangeOf) out.push(boundsTest(connector, entity, action, p, p.rangeOf, bounded, method, rules));
  }
  for (const p of action.params) if (p.sortBy) out.push(sortTest(connector, entity, action, p, p.sortBy, method));
  for (const [i, group] of (action.paramGroups ?? []).entries()) {
    const alternatives = group.alternatives.map((alt) => alt.join(' with ')).join(' | ');
    const body: Doc[] = [
      CLIENT,
      constOf('params', base),
      constOf('grouped', group.alternatives.flat()),
      'const without = Object.fromEntries(Object.entries(params).filter(([k]) => !grouped.includes(k)));',
      `const callWithout = () => ${method}(without as never);`,
      'await expect(Promise.resolve().then(callWithout)).rejects.toMatchObject({ status: 422 });',
      `await expect(h.all(${method}(params as never) as never)).resolves.toBeDefined();`,
    ];
    if (group.kind === 'oneOf' && group.alternatives.length > 1) {
      const both = group.alternatives.slice(0, 2).flat();
      body.push(
        constOf('both', paramsValue(connector, entity, action, 0, Object.fromEntries(both.map((n) => [n, `contract ${n}`])))),
        `const callWithBoth = () => ${method}(both as never);`,
        'await expect(Promise.resolve().then(callWithBoth)).rejects.toMatchObject({ status: 422 });',
      );
    }
    out.push(testOf(`param group ${i + 1} (${group.kind}: ${alternatives}) is enforced`, body));
  }
  return out;
}

/**
 * Under a parent rule or a default filter, statements declaring `owned`: the indexes of the fixture records a plain
 * request (`base`) lists — within the parent it names, past the default filter — so a test picks its record among
 * those the list holds; none without either rule.
 */
function ownedIndexes(connector: ConnectorIR, entity: EntityIR, action: ActionIR, rules: string): Doc[] {
  if (!parentScope(connector, entity, action) && !action.defaultFilter) return [];
  return [constOf('base', paramsValue(connector, entity, action, 0)), `const owned = h.indexesOwned(${str(entity.name)}, base, ${rules});`];
}

/** `paramsOf(probe)`, the request's params with the probe in the param's place, and `run(probe)`, the keys it lists. */
function probeRunner(e: string, method: string, type: string, probed: LiteralValue): Doc[] {
  return [
    arrowOf('paramsOf', `probe: ${type}`, probed),
    [blockOf(`const run = async (probe: ${type}) =>`, [`const records = ${allOf(method, 'paramsOf(probe)')};`, `return records.map((r) => h.keyOf(${e}, r));`]), ';'],
  ];
}

/**
 * The test of a `matches` param, or of a member of an object param (`member`: calls_extensive `filter.callIds`): a
 * fixture record's value finds it; a list of values (a separator param's) finds it among others.
 */
function matchesTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, member: PropertyIR | undefined, method: string, rules: string): Doc {
  const e = str(entity.name);
  const q = member ?? p;
  const m = q.matches!;
  const field = str(m.fields[0]!);
  const title = `${member ? `${p.name}.${member.name}` : p.name} matches ${m.fields.join(' or ')} (${m.mode}, case-${m.caseSensitive ? 'sensitive' : 'insensitive'})`;
  const value = q.types[0] === 'array' ? [code('probe')] : code('probe');
  const probed = paramsValue(connector, entity, action, 0, { [p.name]: member ? { [member.name]: value } : value });
  const kind = (q.types[0] === 'array' ? q.items?.types[0] : q.types[0]) ?? 'string';
  // Under a parent rule, the record to match is one of the parent the request names.
  const ownedLines = ownedIndexes(connector, entity, action, rules);
  const owned = ownedLines.length > 0;
  if (kind !== 'string') return typedMatchesTest(e, field, kind, probed, method, rules, title, ownedLines);
  // Letter case can only be varied where the param takes any text (not an enum, a format or a pattern).
  const free = !q.enum && !q.items?.enum && !q.format && !q.pattern;
  // The probe: a fixture value of the field (a middle part of it, for contains), in another case when letter case is tested.
  const pick = m.mode === 'contains' ? 'value.slice(1, Math.max(2, value.length - 1))' : m.mode === 'prefix' ? 'value.slice(0, Math.max(1, value.length - 1))' : 'value';
  const mine = owned ? 'owned.includes(i) && ' : '';
  // A param that also names the parent record (a list member's list_id) names none in another case: a 404.
  const namesParent = !member && (parentScope(connector, entity, action)?.params.some((x) => x.param === p.name) ?? false);
  // A separated list matches when any entry does: the value after another one (an allowed one, where the param lists them).
  const listed =
    q.separator !== undefined
      ? [
          constOf('others', q.enum?.map(String) ?? ['no-such-value']),
          'const other = others.find((v) => v !== probe) ?? probe;',
          `const both = [other, probe].join(${str(q.separator)});`,
          `expect(await run(both), 'any entry of the list matches').toContain(key);`,
          `expect(await run(both)).toEqual(h.expectedKeys(${e}, paramsOf(both), ${rules}));`,
        ]
      : [];
  return testOf(title, [
    CLIENT,
    ...ownedLines,
    `const texts = h.entity(${e}).records.map((r) => at(r, ${field}));`,
    `let index = texts.findIndex((v${owned ? ', i' : ''}) => ${mine}typeof v === 'string' && /[a-z]/i.test(v));`,
    // A number field matched by text (callIds against a numeric id) is matched by its decimal text.
    "const usable = (v: unknown) => typeof v === 'number' || (typeof v === 'string' && v !== '');",
    `if (index < 0) index = texts.findIndex((v${owned ? ', i' : ''}) => ${mine}usable(v));`,
    "expect(index, 'a fixture record holds a text value to match').toBeGreaterThanOrEqual(0);",
    `const value = String(h.field(${e}, index, ${field}));`,
    `const key = String(h.key(${e}, index));`,
    ...probeRunner(e, method, 'string', probed),
    `let probe = ${pick};`,
    `expect(await run(probe)).toEqual(h.expectedKeys(${e}, paramsOf(probe), ${rules}));`,
    'expect(await run(probe)).toContain(key);',
    ...listed,
    ...(free
      ? [
          blockOf('if (/[a-z]/i.test(probe))', [
            'probe = probe === probe.toUpperCase() ? probe.toLowerCase() : probe.toUpperCase();',
            m.caseSensitive
              ? namesParent
                ? "await expect(run(probe), 'another letter case names no parent record').rejects.toMatchObject({ status: 404 });"
                : "expect(await run(probe), 'another letter case does not match').not.toContain(key);"
              : "expect(await run(probe), 'another letter case matches too').toContain(key);",
          ]),
        ]
      : []),
  ]);
}

/**
 * The matches test of a param that takes a boolean or a number: the probe is a fixture record's value of the field in
 * the param's type (a numeric string read as a number: project ids); a boolean's other value leaves the record out.
 */
function typedMatchesTest(e: string, field: string, kind: string, probed: LiteralValue, method: string, rules: string, title: string, ownedLines: Doc[]): Doc {
  const boolean = kind === 'boolean';
  const type = boolean ? 'boolean' : 'number';
  // Short statements: a line beyond the style's width would send the file through prettier (format.ts).
  const holds = boolean ? "(v: unknown) => typeof v === 'boolean'" : "(v: unknown) => typeof v === 'number' || /^-?\\d+(\\.\\d+)?$/.test(String(v))";
  return testOf(title, [
    CLIENT,
    ...ownedLines,
    `const holds = ${holds};`,
    `const fixtures = h.entity(${e}).records;`,
    `const index = fixtures.findIndex((r${ownedLines.length ? ', i' : ''}) => ${ownedLines.length ? 'owned.includes(i) && ' : ''}holds(at(r, ${field})));`,
    `expect(index, 'a fixture record holds a ${type} to match').toBeGreaterThanOrEqual(0);`,
    `const value = ${boolean ? `h.field(${e}, index, ${field}) === true` : `Number(h.field(${e}, index, ${field}))`};`,
    `const key = String(h.key(${e}, index));`,
    ...probeRunner(e, method, type, probed),
    `expect(await run(value)).toEqual(h.expectedKeys(${e}, paramsOf(value), ${rules}));`,
    'expect(await run(value)).toContain(key);',
    ...(boolean ? ["expect(await run(!value), 'the other value does not match').not.toContain(key);"] : []),
  ]);
}

/**
 * The test of a flag with `excludes`: true lists what the rule keeps (and fewer records than without it: the fixtures
 * hold records it leaves out); false lists what the plain request does.
 */
function excludesTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, method: string, rules: string): Doc {
  const e = str(entity.name);
  const x = p.excludes!;
  return testOf(`${p.name} leaves out ${x.field} ${x.values.map(String).join(', ')} when true`, [
    CLIENT,
    constOf('onParams', paramsValue(connector, entity, action, 0, { [p.name]: true })),
    constOf('offParams', paramsValue(connector, entity, action, 0, { [p.name]: false })),
    `const onRecords = ${allOf(method, 'onParams')};`,
    `const offRecords = ${allOf(method, 'offParams')};`,
    `const on = onRecords.map((r) => h.keyOf(${e}, r));`,
    `const off = offRecords.map((r) => h.keyOf(${e}, r));`,
    `expect(on, ${str(`${p.name}: true`)}).toEqual(h.expectedKeys(${e}, onParams, ${rules}));`,
    `expect(off, ${str(`${p.name}: false filters nothing`)}).toEqual(h.expectedKeys(${e}, offParams, ${rules}));`,
    "expect(off.length, 'the fixtures hold records the flag leaves out').toBeGreaterThan(on.length);",
  ]);
}

function boundsTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, field: string, bounds: { name: string | undefined; bound: NonNullable<PropertyIR['bound']> }[], method: string, rules: string): Doc {
  const e = str(entity.name);
  // The edge record is one the list holds: within the parent the request names, under a parent rule.
  const owned = ownedIndexes(connector, entity, action, rules);
  const middle = owned.length ? [...owned, 'const index = owned[Math.floor(owned.length / 2)]!;'] : [`const index = Math.floor(h.entity(${e}).records.length / 2);`];
  // A number param bounding a date field (an export's start_time) takes the record's time in Unix seconds.
  const fieldType = entityFields(connector, recordsEntity(connector, entity)).find((f) => f.name === field)?.types[0];
  const seconds = (p.types[0] === 'integer' || p.types[0] === 'number') && fieldType === 'string';
  const read = `h.field(${e}, index, ${str(field)})`;
  const edge = seconds ? `Math.floor(Date.parse(String(${read})) / 1000)` : read;
  // keyOf: a record without a key field is known by its contents, as the listed keys are.
  const body: Doc[] = [CLIENT, ...middle, `const edge = ${edge};`, `const key = h.keyOf(${e}, h.entity(${e}).records[index]!);`];
  // The listed keys with `params`, in a block of their own.
  const listed = (params: LiteralValue, checks: string[]) =>
    blockOf('', [constOf('params', params), `const records = ${allOf(method, 'params')};`, `const keys = records.map((r) => h.keyOf(${e}, r));`, ...checks]);
  for (const { name, bound } of bounds) {
    const value: LiteralValue = name ? { [name]: code('edge') } : code('edge');
    const label = `${p.name}${name ? `.${name}` : ''}`;
    body.push(
      listed(paramsValue(connector, entity, action, 0, { [p.name]: value }), [
        `expect(keys, ${str(label)}).toEqual(h.expectedKeys(${e}, params, ${rules}));`,
        bound.inclusive ? `expect(keys, ${str(`${label} is inclusive`)}).toContain(key);` : `expect(keys, ${str(`${label} is exclusive`)}).not.toContain(key);`,
      ]),
    );
    if (bound.inclusiveParam) {
      const incl = paramsValue(connector, entity, action, 0, { [p.name]: value, [bound.inclusiveParam]: true });
      body.push(listed(incl, [`expect(keys, ${str(`${label} with ${bound.inclusiveParam} is inclusive`)}).toContain(key);`]));
    }
  }
  const sides = bounds.map((b) => `${b.name ?? p.name} ${b.bound.inclusive ? 'inclusive' : 'exclusive'}`).join(', ');
  return testOf(`${p.name} bounds ${field} (${sides})`, body);
}

/** The params that ask a sorting param for `value` in each direction it can state (none it cannot: the default). */
function sortRequests(action: ActionIR, p: PropertyIR, rule: SortByIR, value: string): { direction: 'asc' | 'desc'; params: Record<string, LiteralValue> }[] {
  if (rule.syntax === 'signed') return [{ direction: 'asc', params: { [p.name]: value } }, { direction: 'desc', params: { [p.name]: `-${value}` } }];
  if (rule.syntax === 'clauses') return [{ direction: 'asc', params: { [p.name]: value } }, { direction: 'desc', params: { [p.name]: `${value} desc` } }];
  const direction = rule.directionParam === undefined ? undefined : action.params.find((x) => x.name === rule.directionParam);
  const descending = rule.descending?.[0];
  const ascending = direction?.types[0] === 'boolean' ? !descending : direction?.enum?.find((v) => !rule.descending!.includes(v));
  if (!direction || descending === undefined || ascending === undefined) return [{ direction: rule.defaultDirection, params: { [p.name]: value } }];
  return [
    { direction: 'asc', params: { [p.name]: value, [direction.name]: ascending } },
    { direction: 'desc', params: { [p.name]: value, [direction.name]: descending } },
  ];
}

/** A test that a sorting param sorts by the field its first mapped value names, in each direction it can state. */
function sortTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, rule: SortByIR, method: string): Doc {
  const e = str(entity.name);
  const { value, field } = rule.fields[0]!;
  const requests = sortRequests(action, p, rule, value);
  const body: Doc[] = [CLIENT, 'const orders: string[][] = [];'];
  for (const r of requests) {
    body.push(
      blockOf('', [
        constOf('params', paramsValue(connector, entity, action, 0, r.params)),
        `const records = ${allOf(method, 'params')};`,
        'expect(records.length).toBeGreaterThan(1);',
        constOf('order', [{ field, direction: r.direction }], 'Ordering'),
        'expect(orderingBreak(records, order)).toBeUndefined();',
        `orders.push(records.map((r) => h.keyOf(${e}, r)));`,
      ]),
    );
  }
  if (requests.length > 1) body.push(`expect(orders[1], ${str('the two directions list in other orders')}).not.toEqual(orders[0]);`);
  return testOf(`${p.name} ${value} sorts by ${field} (${requests.map((r) => r.direction).join(' and ')})`, body);
}

/** A test that every listed record holds its shape's invariants and formats. */
export function recordRulesTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Doc | undefined {
  const rules = recordRules(connector, action);
  if (!rules) return undefined;
  const method = `client.${camelCase(entity.name)}.${camelCase(action.name)}`;
  return testOf('every record holds its invariants and formats', [
    CLIENT,
    constOf('params', paramsValue(connector, entity, action, 0)),
    `const records = ${allOf(method, 'params')};`,
    'expect(records.length).toBeGreaterThan(0);',
    constOf('invariants', rules.invariants, 'InvariantRule[]'),
    constOf('formats', rules.formats),
    'const breaks = records.flatMap((r, i) => ruleBreaks(r, invariants, formats).map((b) => `record ${i}: ${b}`));',
    'expect(breaks).toEqual([]);',
  ]);
}
