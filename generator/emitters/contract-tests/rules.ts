/**
 * Contract tests of the spec's rules, as code: each rule of a list action (default ordering, default filter,
 * `matches` params, interval bounds, param groups) and of its records (invariants, formats) becomes a test that
 * calls the mock and checks the answer against the rule — read from the IR, written into the test as data.
 */
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';
import { camelCase, stringLiteral } from '../naming.js';
import { paramsCode } from './params.js';

/** A list action's rules as the harness reads them (test/contract/rules.ts ListRules). */
export function listRules(action: ActionIR): string {
  const params: Record<string, unknown> = {};
  for (const p of action.params) {
    const members = p.properties?.filter((m) => m.bound);
    const rule = {
      ...(p.matches ? { matches: { fields: p.matches.fields, mode: p.matches.mode, caseSensitive: p.matches.caseSensitive } } : {}),
      ...(p.rangeOf ? { rangeOf: p.rangeOf } : {}),
      ...(p.bound ? { bound: p.bound } : {}),
      ...(members?.length ? { members: Object.fromEntries(members.map((m) => [m.name, m.bound])) } : {}),
    };
    if (Object.keys(rule).length) params[p.name] = rule;
  }
  const f = action.defaultFilter;
  const rules = {
    ...(f ? { defaultFilter: { field: f.field, exclude: f.exclude, ...(f.unlessParam ? { unlessParam: f.unlessParam } : {}) } } : {}),
    ...(Object.keys(params).length ? { params } : {}),
  };
  return JSON.stringify(rules);
}

/** Invariants and formats of the records an action returns, as data ({ invariants, formats }), or undefined. */
export function recordRules(connector: ConnectorIR, action: ActionIR): { invariants: string; formats: string } | undefined {
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
    return rule;
  });
  if (!invariants.length && !Object.keys(formats).length) return undefined;
  return { invariants: JSON.stringify(invariants), formats: JSON.stringify(formats) };
}

const test = (name: string, body: string[]) => `
  test(${stringLiteral(name)}, async () => {
    const client = await h.client(AUTH);
    ${body.join('\n    ')}
  });`;

/** The rule tests of a list action (none when it states no rules). */
export function listRuleTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string[] {
  const e = stringLiteral(entity.name);
  const method = `client.${camelCase(entity.name)}.${camelCase(action.name)}`;
  const base = paramsCode(connector, entity, action, 0);
  // The describe block declares `rules` (the list's rules as data) when the action has any.
  const rules = listRules(action) === '{}' ? '{}' : 'rules';
  const out: string[] = [];
  if (action.ordering?.length) {
    const order = JSON.stringify(action.ordering);
    out.push(
      test(`results come in the default order (${action.ordering.map((o) => `${o.field} ${o.direction}`).join(', ')})`, [
        `const records = await h.all(${method}(${base} as never) as never);`,
        `expect(records.length).toBeGreaterThan(1);`,
        `expect(orderingBreak(records, ${order})).toBeUndefined();`,
      ]),
    );
  }
  const f = action.defaultFilter;
  if (f) {
    const excluded = JSON.stringify(f.exclude);
    const body = [
      `const excluded = ${excluded};`,
      `expect(h.entity(${e}).records.some((r) => excluded.includes(at(r, ${stringLiteral(f.field)}) as never)), 'the fixtures hold records the default leaves out').toBe(true);`,
      `const records = await h.all(${method}(${base} as never) as never);`,
      `expect(records.length).toBeGreaterThan(0);`,
      `expect(records.filter((r) => excluded.includes(at(r, ${stringLiteral(f.field)}) as never))).toEqual([]);`,
    ];
    const unless = f.unlessParam && action.params.find((p) => p.name === f.unlessParam);
    if (unless) {
      const asked = JSON.stringify(f.exclude[0]);
      body.push(
        `const asked = await h.all(${method}({ ...${base}, ${stringLiteral(unless.name)}: ${asked} } as never) as never);`,
        `expect(asked.length, 'asking for ${f.unlessParam} lifts the default').toBeGreaterThan(0);`,
        `expect(asked.every((r) => at(r, ${stringLiteral(f.field)}) === ${asked})).toBe(true);`,
      );
    }
    out.push(test(`the default filter leaves out ${f.field} ${f.exclude.join(', ')}${f.unlessParam ? ` unless ${f.unlessParam} asks` : ''}`, body));
  }
  for (const p of action.params) {
    if (p.matches) out.push(matchesTest(connector, entity, action, p, method, rules));
    const bounded = p.bound && p.rangeOf ? [{ name: undefined as string | undefined, bound: p.bound }] : p.rangeOf ? (p.properties ?? []).filter((m) => m.bound).map((m) => ({ name: m.name as string | undefined, bound: m.bound! })) : [];
    if (bounded.length && p.rangeOf) out.push(boundsTest(connector, entity, action, p, p.rangeOf, bounded, method, rules));
  }
  for (const [i, group] of (action.paramGroups ?? []).entries()) {
    const alternatives = group.alternatives.map((alt) => alt.join(' with ')).join(' | ');
    const without = `Object.fromEntries(Object.entries(${base}).filter(([k]) => !${JSON.stringify(group.alternatives.flat())}.includes(k)))`;
    const body = [
      `await expect(Promise.resolve().then(() => ${method}(${without} as never))).rejects.toMatchObject({ status: 422 });`,
      `await expect(h.all(${method}(${base} as never) as never)).resolves.toBeDefined();`,
    ];
    if (group.kind === 'oneOf' && group.alternatives.length > 1) {
      const both = group.alternatives.slice(0, 2).flat();
      const extra = paramsCode(connector, entity, action, 0, Object.fromEntries(both.map((n) => [n, `'contract ${n}'`])));
      body.push(`await expect(Promise.resolve().then(() => ${method}(${extra} as never))).rejects.toMatchObject({ status: 422 });`);
    }
    out.push(test(`param group ${i + 1} (${group.kind}: ${alternatives}) is enforced`, body));
  }
  return out;
}

function matchesTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, method: string, rules: string): string {
  const e = stringLiteral(entity.name);
  const m = p.matches!;
  const field = stringLiteral(m.fields[0]!);
  const base = paramsCode(connector, entity, action, 0, { [p.name]: p.types[0] === 'array' ? '[probe]' : 'probe' });
  // Letter case can only be varied where the param takes any text (not an enum).
  const free = !p.enum && !p.items?.enum;
  // The probe: a fixture value of the field (a middle part of it, for contains), in another case when letter case is tested.
  const pick = m.mode === 'contains' ? 'value.slice(1, Math.max(2, value.length - 1))' : m.mode === 'prefix' ? 'value.slice(0, Math.max(1, value.length - 1))' : 'value';
  return test(`${p.name} matches ${m.fields.join(' or ')} (${m.mode}, case-${m.caseSensitive ? 'sensitive' : 'insensitive'})`, [
    `const texts = h.entity(${e}).records.map((r) => at(r, ${field}));`,
    `let index = texts.findIndex((v) => typeof v === 'string' && /[a-z]/i.test(v));`,
    `if (index < 0) index = texts.findIndex((v) => typeof v === 'string' && v !== '');`,
    `expect(index, 'a fixture record holds a text value to match').toBeGreaterThanOrEqual(0);`,
    `const value = String(h.field(${e}, index, ${field}));`,
    `const run = async (probe: string) => (await h.all(${method}(${base} as never) as never)).map((r) => h.keyOf(${e}, r));`,
    `let probe = ${pick};`,
    `expect(await run(probe)).toEqual(h.expectedKeys(${e}, ${base}, ${rules}));`,
    `expect(await run(probe)).toContain(String(h.key(${e}, index)));`,
    ...(free
      ? [
          `if (/[a-z]/i.test(probe)) {`,
          `  probe = probe === probe.toUpperCase() ? probe.toLowerCase() : probe.toUpperCase();`,
          m.caseSensitive
            ? `  expect(await run(probe), 'another letter case does not match').not.toContain(String(h.key(${e}, index)));`
            : `  expect(await run(probe), 'another letter case matches too').toContain(String(h.key(${e}, index)));`,
          `}`,
        ]
      : []),
  ]);
}

function boundsTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, p: PropertyIR, field: string, bounds: { name: string | undefined; bound: NonNullable<PropertyIR['bound']> }[], method: string, rules: string): string {
  const e = stringLiteral(entity.name);
  const body = [`const index = Math.floor(h.entity(${e}).records.length / 2);`, `const edge = h.field(${e}, index, ${stringLiteral(field)});`, `const key = String(h.key(${e}, index));`];
  for (const { name, bound } of bounds) {
    const value = name ? `{ ${stringLiteral(name)}: edge }` : 'edge';
    const params = paramsCode(connector, entity, action, 0, { [p.name]: value });
    const label = `${p.name}${name ? `.${name}` : ''}`;
    body.push(`{`, `  const keys = (await h.all(${method}(${params} as never) as never)).map((r) => h.keyOf(${e}, r));`, `  expect(keys, '${label}').toEqual(h.expectedKeys(${e}, ${params}, ${rules}));`);
    body.push(bound.inclusive ? `  expect(keys, '${label} is inclusive').toContain(key);` : `  expect(keys, '${label} is exclusive').not.toContain(key);`, `}`);
    if (bound.inclusiveParam) {
      const incl = paramsCode(connector, entity, action, 0, { [p.name]: value, [bound.inclusiveParam]: 'true' });
      body.push(`expect((await h.all(${method}(${incl} as never) as never)).map((r) => h.keyOf(${e}, r)), '${label} with ${bound.inclusiveParam} is inclusive').toContain(key);`);
    }
  }
  const sides = bounds.map((b) => `${b.name ?? p.name} ${b.bound.inclusive ? 'inclusive' : 'exclusive'}`).join(', ');
  return test(`${p.name} bounds ${field} (${sides})`, body);
}

/** A test that every listed record holds its shape's invariants and formats. */
export function recordRulesTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  const rules = recordRules(connector, action);
  if (!rules) return undefined;
  const method = `client.${camelCase(entity.name)}.${camelCase(action.name)}`;
  return test('every record holds its invariants and formats', [
    `const records = await h.all(${method}(${paramsCode(connector, entity, action, 0)} as never) as never);`,
    `expect(records.length).toBeGreaterThan(0);`,
    `expect(records.flatMap((r, i) => ruleBreaks(r, ${rules.invariants}, ${rules.formats}).map((b) => \`record \${i}: \${b}\`))).toEqual([]);`,
  ]);
}
