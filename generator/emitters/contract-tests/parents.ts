/**
 * Contract tests of parent rules (spec/README.md, `parent`): an action that takes the rule's params acts within the
 * parent record they name. Params that name no parent record answer 404, and a get given a record's key with another
 * parent's params answers 404 too (the record is not that parent's). The positive side — a list holds exactly the
 * records of its parent, a created record is listed in its parent — is checked by the list and write tests, whose
 * expectations read the fixtures' `parents`.
 */
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';
import { recordCount } from '../fixtures/entity-facts.js';
import { parentIndexOf } from '../fixtures/model.js';
import type { Doc } from '../ts/doc.js';
import type { LiteralValue } from '../ts/syntax.js';
import { CLIENT, constOf, testOf } from './code.js';
import { requestValue } from './params.js';
import { parentLinks, parentParams, requestParams, RECORD_INDEX, targetParam, type RequestParams } from './requests.js';

/** A value of a param's type that names no record (a string no fixture key looks like; a number beyond their range). */
function unknownValue(p: PropertyIR): LiteralValue | undefined {
  if (p.enum || p.const !== undefined || p.format || p.pattern) return undefined;
  if (p.types[0] === 'integer' || p.types[0] === 'number') return Math.min(p.maximum ?? 987654321, 987654321);
  return p.types[0] === 'string' ? 'contract-no-such-parent' : undefined;
}

/** The parent-rule tests of one action (none when no parent rule applies to it). */
export function parentTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc[] {
  const links = parentLinks(connector, entity, action);
  if (links.length === 0 || action.name === 'search' || action.name === 'api_search') return [];
  const out: Doc[] = [];
  const index = RECORD_INDEX[action.name] ?? 0;
  const base = requestParams(connector, entity, action, index);
  // The nearest parent's params (the last ones a call names), replaced by values that name no record.
  const nearest = links.filter((l) => l.chain.length === 1);
  const unknown = nearest.map((l) => [l.param, unknownValue(action.params.find((p) => p.name === l.param)!)] as const);
  if (unknown.every(([, v]) => v !== undefined) && action.name !== 'create') {
    out.push(
      testOf(`${nearest.map((l) => l.param).join(' and ')} naming no ${nearest[0]!.chain[0]} record answers 404`, [
        CLIENT,
        constOf('params', requestValue(base, Object.fromEntries(unknown as [string, LiteralValue][]))),
        `const call = () => ${method}(params as never);`,
        'await expect(Promise.resolve().then(call)).rejects.toMatchObject({ status: 404 });',
      ]),
    );
  }
  // A record of one parent is not found through another: the params of another record's parent.
  const parent = connector.entities.find((e) => e.name === nearest[0]?.chain[0]);
  const count = parent ? recordCount(connector, parent, {}) : 0;
  const other = [index + 1, index + 2].find((i) => parentIndexOf(i, count) !== parentIndexOf(index, count));
  if (targetParam(action) && action.name === 'get' && other !== undefined) {
    const elsewhere = parentParams(connector, entity, action, other);
    const params: RequestParams = base.map(([name, source]) => [name, elsewhere.get(name) ?? source]);
    out.push(
      testOf(`a record is not found through another ${nearest[0]!.chain[0]} record`, [
        CLIENT,
        constOf('params', requestValue(params)),
        `const call = () => ${method}(params as never);`,
        'await expect(Promise.resolve().then(call)).rejects.toMatchObject({ status: 404 });',
      ]),
    );
  }
  return out;
}
