/** The params an example call gives: one rule for every emitter that writes one (method JSDoc, docs, agent tools). */
import type { ActionIR, PropertyIR } from '../ir.js';

/**
 * The params of an example call, in the action's order: the required ones and, for each param group (IR
 * `paramGroups`) they leave unmet, its alternative with the fewest params (the first of those), so that every example
 * is a call the service accepts (`tasks.list({ project })`, not `tasks.list()`).
 */
export function exampleParams(action: ActionIR): PropertyIR[] {
  const given = new Set(action.params.filter((p) => p.required).map((p) => p.name));
  for (const group of action.paramGroups ?? []) {
    if (group.alternatives.some((alt) => alt.every((name) => given.has(name)))) continue;
    const fewest = [...group.alternatives].sort((a, b) => a.length - b.length)[0];
    for (const name of fewest ?? []) given.add(name);
  }
  return action.params.filter((p) => given.has(p.name));
}
