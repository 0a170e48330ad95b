/**
 * One test per diagnostic class: a broken spec in, the exact `file:line:col severity CODE message` out.
 * Line numbers refer to SHOP_YAML in helpers/mini-spec.ts.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Diagnostic } from '../generator/spec/diagnostics.js';
import { realSpecDir } from './helpers/spec-copy.js';
import { diagnosticObjects, diagnosticsOf, edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';

const shop = 'connectors/shop.yaml';

async function diagnosticsForShop(text: string): Promise<string[]> {
  return diagnosticsOf(await writeMiniSpec({ shop: text }));
}

describe('the mini spec', () => {
  test('is valid as written, so every diagnostic below comes from its one edit', async () => {
    expect(await diagnosticsForShop(SHOP_YAML)).toEqual([]);
  });
});

describe('diagnostic classes', () => {
  test('bad YAML (SPEC001)', async () => {
    const text = edit(SHOP_YAML, 'description: A tiny connector for diagnostics tests.', 'description: A tiny: connector');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:4:14 error SPEC001 Nested mappings are not allowed in compact mappings`]);
  });

  test('YAML that parses but cannot become data (SPEC001): a merge key without a map, an alias bomb', async () => {
    // SHOP_YAML ends with a line break: the added lines start at line `first`.
    const first = SHOP_YAML.split('\n').length;
    const merge = await diagnosticObjects(await writeMiniSpec({ shop: `${SHOP_YAML}extra:\n  <<: [{a: 1}, 2]\n` }));
    expect(merge.map((d) => `${d.line}:${d.col} ${d.code} ${d.message} / ${d.hint}`)).toEqual([
      `${first + 1}:3 SPEC001 Not readable as data: Merge sources must be maps or map aliases / A merge key (\`<<\`) takes a map, an alias of a map, or a list of those.`,
    ]);
    const levels = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...[1, 2, 3, 4, 5].map((i) => `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`)];
    const bomb = await diagnosticObjects(await writeMiniSpec({ shop: `${SHOP_YAML}${levels.join('\n')}\n` }));
    // The first alias of something that holds aliases itself: a2's first `*a1`.
    expect(bomb.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual([`${first + 2}:10 SPEC001 Not readable as data: Excessive alias count indicates a resource exhaustion attack`]);
    expect(bomb[0]!.hint).toMatch(/at most: write the data out/);
  });

  test('YAML 1.1 tags that make a Buffer, Set, Map or Date (SPEC003) are located, not an internal error', async () => {
    const first = SHOP_YAML.split('\n').length;
    // Each at its value, after the tag.
    const tagged = ['!!binary aGVsbG8=', '!!set {x: null}', '!!omap [{x: 1}]', '!!timestamp 2001-12-14'];
    const extra = `extra:\n${tagged.map((value, i) => `  k${i}: ${value}\n`).join('')}`;
    const found = await diagnosticObjects(await writeMiniSpec({ shop: `${SHOP_YAML}${extra}` }));
    expect(found.map((d) => `${d.line}:${d.col} ${d.code} ${d.message}`)).toEqual(
      ['!!binary', '!!set', '!!omap', '!!timestamp'].map(
        (tag, i) => `${first + 1 + i}:${[16, 13, 14, 19][i]} SPEC003 extra.k${i} is a YAML ${tag} value; spec data holds only strings, numbers, booleans, null, lists and maps`,
      ),
    );
  });

  test('nesting deeper than the YAML reader can follow (SRC006) is located, without V8 words', async () => {
    const first = SHOP_YAML.split('\n').length;
    const found = await diagnosticObjects(await writeMiniSpec({ shop: `${SHOP_YAML}extra: ${'['.repeat(5000)}${']'.repeat(5000)}\n` }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ line: first, code: 'SRC006', message: 'data nests too deeply to be read' });
  });

  test('unknown key (SPEC002) names the key and the keys allowed there', async () => {
    const text = edit(SHOP_YAML, '    record: customer\n', '    record: customer\n    recrod: customer\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:37:5 error SPEC002 unknown key 'recrod' in entities.customers; did you mean 'record'? (allowed: description, record, searchableFields, actions, note, recordsFrom, parent, provenance, assumption)`,
    ]);
  });

  test('wrong type (SPEC003) points at the value', async () => {
    const text = edit(SHOP_YAML, '    maximum: 100\n', '    maximum: lots\n');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:27:14 error SPEC003 params.limit.maximum must be number, not string`]);
  });

  test('missing key (SPEC004)', async () => {
    const text = edit(SHOP_YAML, 'title: Shop\n', '');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:1:1 error SPEC004 missing key 'title' in (top level)`]);
  });

  test('unknown action (SPEC010) lists the vocabulary', async () => {
    const text = edit(SHOP_YAML, '      search: {}\n', '      search: {}\n      export: {}\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:53:7 error SPEC010 unknown action 'export' on entity 'customers'; the contract's actions are: list, get, create, update, delete, api_search, search, download`,
    ]);
  });

  test('write action where the contract allows none (SPEC011)', async () => {
    const text = edit(SHOP_YAML, '      search: {}\n', '      search: {}\n      delete:\n        params:\n          id: string\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:53:7 error SPEC011 write action 'delete' on shop 'customers' is not allowed by the contract (service.yaml writeActions)`,
    ]);
  });

  test('duplicate entity (SPEC012) names both places and does not cascade', async () => {
    const text = `${SHOP_YAML}  customers:\n    actions:\n      get: {}\n`;
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:53:3 error SPEC012 duplicate entity 'customers' (first defined at line 35)`]);
  });

  test('minimum > maximum (SPEC013), with what follows from it folded into it', async () => {
    const text = edit(SHOP_YAML, '    minimum: 1\n', '    minimum: 500\n');
    const dir = await writeMiniSpec({ shop: text });
    expect(await diagnosticsOf(dir)).toEqual([
      `${shop}:26:5 error SPEC013 param 'limit': minimum 500 is greater than maximum 100`,
      `${shop}:28:5 error SPEC015 param 'limit': default 10 is outside 500..100`,
    ]);
    // The Limits row that disagrees with the broken param is a follow-on of the param's own error.
    const [first] = await diagnosticObjects(dir);
    expect(first!.related).toEqual([
      expect.objectContaining({ kind: 'follow-on', code: 'SPEC021', message: "limit 'shop list, parameter limit': shop customers list param 'limit' has minimum 500, the Limits table says 1" }),
    ]);
  });

  test('default outside enum (SPEC014)', async () => {
    const text = edit(
      SHOP_YAML,
      '          starting_after: string\n',
      '          starting_after: string\n          order:\n            type: string\n            enum: [asc, desc]\n            default: newest\n',
    );
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:48:13 error SPEC014 param 'order': default "newest" is not one of its enum values (asc, desc)`]);
  });

  test('default of the wrong type (SPEC015)', async () => {
    const text = edit(SHOP_YAML, '    default: 10\n', '    default: ten\n');
    expect(await diagnosticsForShop(text)).toContain(`${shop}:28:5 error SPEC015 param 'limit': default "ten" is not a integer`);
  });

  test('pagination naming a missing param (SPEC016)', async () => {
    const text = edit(SHOP_YAML, '    param: starting_after\n', '    param: after\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:11:5 error SPEC016 customers list (pagination 'cursor'): scheme param 'after' is not a param of this action`,
    ]);
  });

  test('pagination naming a missing meta key (SPEC017)', async () => {
    const text = edit(SHOP_YAML, '        key: has_more\n', '        key: more\n');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:18:9 error SPEC017 customers list (pagination 'cursor'): meta key 'more' is not in meta 'list'`]);
  });

  test('unknown reference (SPEC018)', async () => {
    const text = edit(SHOP_YAML, '    record: customer\n', '    record: client\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:30:3 warning SPEC029 record 'customer' is not used by any action`,
      `${shop}:36:5 error SPEC018 entity 'customers' names unknown record 'client'`,
    ]);
  });

  test('invalid type expression (SPEC019)', async () => {
    const text = edit(SHOP_YAML, '      email: string|null\n', '      email: strng|null\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:33:7 error SPEC019 invalid type expression 'strng|null': unknown type 'strng' (use string, integer, number, boolean, object, array, any or null) at records.customer.fields.email`,
    ]);
  });

  test('connector id that does not match its file (SPEC020)', async () => {
    const dir = await writeMiniSpec({ extra: { 'store.yaml': edit(SHOP_YAML, 'id: shop\n', 'id: shop2\n') } });
    expect(await diagnosticsOf(dir)).toEqual([
      `connectors/store.yaml:1:1 error SPEC020 connector id 'shop2' does not match its file name 'store.yaml'`,
      `connectors/store.yaml:1:1 error SPEC025 connector 'shop2' is not listed in service.yaml connectors`,
      `connectors/store.yaml:50:7 error SPEC011 write action 'create' on shop2 'customers' is not allowed by the contract (service.yaml writeActions)`,
    ]);
  });

  test('a param that drifted from the Limits table (SPEC021)', async () => {
    const text = edit(SHOP_YAML, '    maximum: 100\n', '    maximum: 50\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `service.yaml:284:5 error SPEC021 limit 'shop list, parameter limit': shop customers list param 'limit' has maximum 50, the Limits table says 100`,
    ]);
  });

  test('search without searchable fields (SPEC022)', async () => {
    const text = edit(SHOP_YAML, '    searchableFields:\n      fields:\n        email: string\n', '');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:49:7 error SPEC022 entity 'customers' has the search action but no searchableFields`]);
  });

  test('searchable fields without search (SPEC023)', async () => {
    const text = edit(SHOP_YAML, '      search: {}\n', '');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:37:5 error SPEC023 entity 'customers' lists searchableFields but has no search action`]);
  });

  test('a write the contract lists but the spec lacks (SPEC024)', async () => {
    const text = edit(SHOP_YAML, '      create:\n        unspecifiedParams: not shown\n', '');
    expect(await diagnosticsForShop(text)).toEqual([
      `service.yaml:119:9 error SPEC024 the contract allows shop customers create, but the connector file has no such action`,
    ]);
  });

  test('a listed connector without a file (SPEC026)', async () => {
    const dir = await writeMiniSpec();
    const { writeFile, readFile } = await import('node:fs/promises');
    const service = await readFile(`${dir}/service.yaml`, 'utf8');
    await writeFile(`${dir}/service.yaml`, edit(service, 'connectors:\n  - shop\n', 'connectors:\n  - shop\n  - bank\n'));
    const lines = await diagnosticsOf(dir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^service\.yaml:\d+:5 error SPEC026 connector 'bank' has no file spec\/connectors\/bank\.yaml$/);
  });

  test('a result that does not fit its action (SPEC027)', async () => {
    const text = edit(SHOP_YAML, '            required: true\n', '            required: true\n        result:\n          shape: binary\n');
    expect(await diagnosticsForShop(text)).toEqual([`${shop}:51:11 error SPEC027 action 'get' returns shape 'single', not 'binary'`]);
  });

  test('a rule that names a field the record lacks, or a param the action lacks (SPEC030)', async () => {
    let text = edit(SHOP_YAML, '      list:\n        params:\n', '      list:\n        ordering:\n          - { field: created, direction: desc }\n        paramGroups:\n          - { kind: oneOf, params: [limit, page] }\n        params:\n');
    text = edit(text, '          starting_after: string\n', '          starting_after: string\n          email:\n            type: string\n            matches: { fields: [mail], mode: exact, caseSensitive: true }\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:43:15 error SPEC030 ordering of customers list names 'created', which is not a field of record 'customer'`,
      `${shop}:45:13 error SPEC030 param group of customers list names 'page', which is not a param of the action`,
      `${shop}:51:33 error SPEC030 matches of param 'email' of customers list names 'mail', which is not a field of record 'customer'`,
    ]);
  });

  test('a rule where it does not apply, or missing what its kind needs (SPEC030)', async () => {
    let text = edit(SHOP_YAML, '      get:\n', '      get:\n        ordering:\n          - { field: id, direction: asc }\n');
    text = edit(text, '      email: string|null\n', '      email: { type: string|null, format: currency_lower_iso }\n      count: { type: integer, format: url }\n    invariants:\n      - { kind: iff, field: email }\n');
    expect(await diagnosticsForShop(text)).toEqual([
      `${shop}:34:31 error SPEC030 field 'count' of record 'customer' has format url, which applies to strings only`,
      `${shop}:36:9 error SPEC030 invariant of kind 'iff' needs left, op, right`,
      `${shop}:49:9 error SPEC030 ordering applies to list actions, not to get`,
    ]);
  });

  test('a searchable field the record does not carry, without a derive rule, is a warning (SPEC031); derive from a missing field is an error', async () => {
    const warned = edit(SHOP_YAML, '        email: string\n', '        email: string\n        nickname: string\n');
    expect(await diagnosticsForShop(warned)).toEqual([`${shop}:40:9 warning SPEC031 searchable field 'nickname' of 'customers' is not a field of its record and says no derive rule; its search data is null`]);
    const derived = edit(SHOP_YAML, '        email: string\n', '        email: string\n        nickname: { type: string, derive: { from: nick } }\n');
    expect(await diagnosticsForShop(derived)).toEqual([`${shop}:40:45 error SPEC030 searchable field 'nickname' of 'customers' derives from 'nick', which is not a field of its record`]);
  });

  test('a searchable field the record carries with another type needs a derive rule (SPEC031); one of the same type takes none (SPEC030)', async () => {
    const retyped = edit(SHOP_YAML, '        email: string\n', '        email: integer\n');
    expect(await diagnosticsForShop(retyped)).toEqual([`${shop}:39:9 warning SPEC031 searchable field 'email' of 'customers' is integer but the record's field is string, and it says no derive rule; its search data is null`]);
    const ruled = edit(SHOP_YAML, '        email: string\n', '        email: { type: integer, derive: { value: null }, assumption: not shown }\n');
    expect(await diagnosticsForShop(ruled)).toEqual([]);
    const needless = edit(SHOP_YAML, '        email: string\n', '        email: { type: string, derive: { from: id } }\n');
    expect(await diagnosticsForShop(needless)).toEqual([`${shop}:39:32 error SPEC030 searchable field 'email' of 'customers' is a field of the record of the same type: search data holds the record's value, derive does not apply`]);
  });

  test('an addressing action with several required params and no keyParam (SPEC030)', async () => {
    const text = edit(SHOP_YAML, '          id:\n            type: string\n            required: true\n', '          id:\n            type: string\n            required: true\n          region:\n            type: string\n            required: true\n');
    expect(await diagnosticsForShop(text)).toEqual([]);
    const ambiguous = edit(SHOP_YAML, '          id:\n            type: string\n            required: true\n', '          code:\n            type: string\n            required: true\n          region:\n            type: string\n            required: true\n');
    expect(await diagnosticsForShop(ambiguous)).toEqual([`${shop}:45:7 error SPEC030 customers get has several required params (code, region); name the one that identifies the record with keyParam`]);
  });

  test('alternateKeys name fields of the record, on an action that addresses one (SPEC030)', async () => {
    const ok = edit(SHOP_YAML, '      get:\n', '      get:\n        alternateKeys: { fields: [email], assumption: An email finds its customer. }\n');
    expect(await diagnosticsForShop(ok)).toEqual([]);
    const unknown = edit(SHOP_YAML, '      get:\n', '      get:\n        alternateKeys: { fields: [email, mail] }\n');
    expect(await diagnosticsForShop(unknown)).toEqual([`${shop}:46:42 error SPEC030 alternateKeys of customers get names 'mail', which is not a field of record 'customer'`]);
    const misplaced = edit(SHOP_YAML, '      list:\n', '      list:\n        alternateKeys: { fields: [email] }\n');
    expect(await diagnosticsForShop(misplaced)).toEqual([`${shop}:42:9 error SPEC030 alternateKeys applies to get, update, delete and download, not to list`]);
    const keyless = edit(edit(SHOP_YAML, '      get:\n', '      get:\n        alternateKeys: { fields: [email] }\n'), '          id:\n            type: string\n            required: true\n', '          region: string\n');
    expect(await diagnosticsForShop(keyless)).toEqual([`${shop}:46:9 error SPEC030 alternateKeys of customers get needs a key param to take them; name it with keyParam`]);
  });

  test('a parent rule names another entity, fields of its records and params an action takes (SPEC018, SPEC030)', async () => {
    const paging = '          limit: common\n          starting_after: string\n';
    const orders = (parent: string, params = `          customer:\n            type: string\n            required: true\n${paging}`) =>
      edit(
        edit(SHOP_YAML, '      email: string|null\n', '      email: string|null\n  order:\n    fields:\n      id: string\n'),
        '      search: {}\n',
        `      search: {}\n  orders:\n    record: order\n${parent}    actions:\n      list:\n        params:\n${params}`,
      );
    const ok = orders('    parent: { entity: customers, params: { customer: id }, assumption: An order is its customer\'s. }\n');
    expect(await diagnosticsForShop(ok)).toEqual([]);
    const unknown = await diagnosticsForShop(orders('    parent: { entity: customer, params: { customer: id } }\n'));
    expect(unknown).toEqual([expect.stringMatching(/error SPEC018 parent of 'orders' names unknown entity 'customer'.*customers/)]);
    const field = await diagnosticsForShop(orders('    parent: { entity: customers, params: { customer: uid } }\n'));
    expect(field).toEqual([expect.stringContaining("SPEC030 parent of 'orders' reads param 'customer' as field 'uid', which is not a field of the records of 'customers'")]);
    const untaken = await diagnosticsForShop(orders('    parent: { entity: customers, params: { customer: id } }\n', paging));
    expect(untaken).toEqual([expect.stringContaining("SPEC030 parent of 'orders' names params 'customer', which no action of 'orders' takes together")]);
    const self = await diagnosticsForShop(orders('    parent: { entity: orders, params: { customer: id } }\n'));
    expect(self).toEqual([expect.stringContaining("SPEC018 parent of 'orders' names the entity itself")]);
  });

  test('sortBy maps values the param takes to fields of the record, with a direction param of the action (SPEC030)', async () => {
    const sorted = (rule: string, extra = '') => edit(SHOP_YAML, '          starting_after: string\n', `          starting_after: string\n          sort:\n            type: string\n            enum: [email, id]\n            sortBy: ${rule}\n${extra}`);
    const dir = '          order:\n            type: string\n            enum: [asc, desc]\n';
    expect(await diagnosticsForShop(sorted('{ fields: { email: email }, directionParam: order, descending: [desc] }', dir))).toEqual([]);
    expect(await diagnosticsForShop(sorted('{ fields: { email: mail } }'))).toEqual([expect.stringContaining("SPEC030 sortBy of param 'sort' of customers list names 'mail', which is not a field of record 'customer'")]);
    expect(await diagnosticsForShop(sorted('{ fields: { name: email } }'))).toEqual([expect.stringContaining("SPEC030 sortBy of param 'sort' maps 'name', which the param does not take (email, id)")]);
    expect(await diagnosticsForShop(sorted('{ fields: { email: email }, directionParam: dir, descending: [desc] }'))).toEqual([expect.stringContaining("SPEC030 sortBy of param 'sort' names direction param 'dir', which customers list does not list")]);
    expect(await diagnosticsForShop(sorted('{ fields: { email: email }, directionParam: order, descending: [DESC] }', dir))).toEqual([expect.stringContaining("SPEC030 sortBy of param 'sort': descending lists a value 'order' does not take (asc, desc)")]);
    expect(await diagnosticsForShop(sorted('{ fields: { email: email }, descending: [desc] }'))).toEqual([expect.stringContaining("SPEC030 sortBy of param 'sort' lists descending values without a directionParam")]);
  });

  test('excludes sits on a boolean list param and names a field of the record (SPEC030)', async () => {
    const flag = (type: string, rule: string) => edit(SHOP_YAML, '          starting_after: string\n', `          starting_after: string\n          no_mail:\n            type: ${type}\n            excludes: ${rule}\n`);
    expect(await diagnosticsForShop(flag('boolean', '{ field: email, values: [null] }'))).toEqual([]);
    expect(await diagnosticsForShop(flag('boolean', '{ field: mail, values: [null] }'))).toEqual([expect.stringContaining("SPEC030 excludes of param 'no_mail' of customers list names 'mail', which is not a field of record 'customer'")]);
    expect(await diagnosticsForShop(flag('string', '{ field: email, values: [null] }'))).toEqual([expect.stringContaining("SPEC030 excludes of param 'no_mail' of customers list applies to boolean params (it filters when true), not to a string")]);
  });

  test('every problem of every file is reported at once, sorted', async () => {
    let text = edit(SHOP_YAML, '    maximum: 100\n', '    maximum: lots\n');
    text = edit(text, '      search: {}\n', '      search: {}\n      export: {}\n');
    const other = edit(SHOP_YAML, 'id: shop\n', 'id: bank\n').replace('      email: string|null\n', '      email: strng\n');
    const lines = await diagnosticsOf(await writeMiniSpec({ shop: text, extra: { 'bank.yaml': other } }));
    // shop.yaml fails the meta-schema (its semantic checks wait for that); bank.yaml is checked semantically.
    expect(lines.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual([
      'connectors/bank.yaml:1:1 error SPEC025',
      'connectors/bank.yaml:33:7 error SPEC019',
      'connectors/bank.yaml:50:7 error SPEC011',
      `${shop}:27:14 error SPEC003`,
    ]);
  });
});

describe('one root cause, one diagnostic', () => {
  /** A copy of the real spec with one edit of payments.yaml; its diagnostics as objects. */
  async function realWith(from: string, to: string): Promise<Diagnostic[]> {
    const dir = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-collapse-')), 'spec');
    await cp(realSpecDir, dir, { recursive: true });
    const file = path.join(dir, 'connectors/payments.yaml');
    await writeFile(file, edit(await readFile(file, 'utf8'), from, to));
    return diagnosticObjects(dir);
  }

  test('a shared param with a broken default: one error, the Limits rows that disagree folded into it', async () => {
    const diagnostics = await realWith('    maximum: 100\n    default: 10\n    description: Number of records to return.', '    maximum: 100\n    default: ten\n    description: Number of records to return.');
    expect(diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([`SPEC015 param 'limit': default "ten" is not a integer`]);
    const related = diagnostics[0]!.related!;
    expect(related).toHaveLength(16);
    expect(related.every((r) => r.kind === 'follow-on' && r.code === 'SPEC021' && r.file.endsWith('service.yaml'))).toBe(true);
  });

  test('a renamed paging param: one error at the scheme, the other actions listed under it, with a did-you-mean', async () => {
    const diagnostics = await realWith('    param: starting_after\n    sizeParam: limit\n', '    param: start_after\n    sizeParam: limit\n');
    expect(diagnostics).toHaveLength(1);
    const schemeLine = (await readFile(path.join(realSpecDir, 'connectors/payments.yaml'), 'utf8')).split('\n').indexOf('    param: starting_after') + 1;
    expect(diagnostics[0]).toMatchObject({ line: schemeLine, code: 'SPEC016', message: expect.stringMatching(/scheme param 'start_after' is not a param of this action; did you mean 'starting_after'\?$/) });
    expect(diagnostics[0]!.related).toHaveLength(9);
    expect(diagnostics[0]!.related!.every((r) => r.kind === 'same' && r.line === diagnostics[0]!.line)).toBe(true);
  });

  test('did-you-mean for unknown keys, references, actions and enum values', async () => {
    const lines = async (from: string, to: string) => diagnosticsForShop(edit(SHOP_YAML, from, to));
    expect(await lines('    style: cursor\n', '    style: cursr\n')).toEqual([`${shop}:10:12 error SPEC005 pagination.cursor.style is "cursr"; did you mean 'cursor'?; allowed: cursor, page, offset, token, link, since_id`]);
    expect(await lines('      get:\n', '      gte:\n')).toContainEqual(expect.stringContaining("unknown action 'gte' on entity 'customers'; did you mean 'get'?"));
    expect(await lines('  pagination: cursor\n', '  pagination: cursr\n')).toContainEqual(expect.stringContaining("defaults.pagination names unknown scheme 'cursr'; did you mean 'cursor'?"));
  });
});
