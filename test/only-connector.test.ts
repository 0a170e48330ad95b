/** onlyConnector: the one-connector IR every split emitter's `connector` part receives (and the cache keys read). */
import { expect, test } from 'vitest';
import { onlyConnector } from '../generator/emitters/types.js';
import type { SpecIR } from '../generator/ir.js';

const assumption = (id: string) => ({ id, contract: 'Not shown by the contract.', source: 's', value: id, location: { file: 'f', line: 1 } });

test("keeps the common contract's assumptions and the connector's own, in the list's order", () => {
  // Interleaved as a spec may list them: ids of connectors, of the service, and of names that are no connector.
  const ids = ['errorBody', 'a/x', 'b/y', 'envelope', 'a/z', 'other/w', 'b/v', 'sortElement'];
  const ir = { service: { connectorIds: ['a', 'b', 'c'], assumptions: ids.map(assumption) }, connectors: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] } as unknown as SpecIR;
  const of = (i: number) => onlyConnector(ir, ir.connectors[i]!).service.assumptions.map((a) => a.id);
  expect(of(0)).toEqual(['errorBody', 'a/x', 'envelope', 'a/z', 'other/w', 'sortElement']);
  expect(of(1)).toEqual(['errorBody', 'b/y', 'envelope', 'other/w', 'b/v', 'sortElement']);
  expect(of(2)).toEqual(['errorBody', 'envelope', 'other/w', 'sortElement']);
  const view = onlyConnector(ir, ir.connectors[1]!);
  expect(view.connectors).toEqual([{ id: 'b' }]);
  expect(onlyConnector(ir, ir.connectors[1]!)).toBe(view); // made once per IR and connector
});
