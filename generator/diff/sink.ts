/** Collects changes, filling severity, bump and direction from the checks table. */
import type { SourceLocation } from '../ir.js';
import { checkInfo, type Direction } from './checks.js';
import type { Change } from './model.js';

/** Where in the spec a group of changes is: the connector (or the common contract), entity and action. */
export interface Scope {
  /** Absent for the common contract. */
  connector?: string;
  /** Connectors whose packages a change here touches. */
  affects: string[];
  /** Entity, when inside one. */
  entity?: string;
  /** Action, when inside one. */
  action?: string;
}

/** Values shown as before/after: JSON text, so a string and a number never look alike. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

/** The list of changes being built. */
export class ChangeSink {
  /** Everything added so far, unsorted. */
  readonly changes: Change[] = [];

  /**
   * Adds one change. `direction` is needed only for checks whose table direction is `either`
   * (docs-changed, attribute-changed), which follow the item that changed.
   */
  add(
    id: string,
    scope: Scope,
    target: string,
    message: string,
    location: SourceLocation,
    extra: { before?: unknown; after?: unknown; direction?: Direction } = {},
  ): void {
    const info = checkInfo(id);
    const direction = info.direction === 'either' ? extra.direction : info.direction;
    if (!direction) throw new Error(`internal: check '${id}' needs the direction of ${target}`);
    this.changes.push({
      id,
      severity: info.severity,
      direction,
      bump: info.bump,
      ...(scope.connector !== undefined ? { connector: scope.connector } : {}),
      affects: [...scope.affects].sort(),
      ...(scope.entity !== undefined ? { entity: scope.entity } : {}),
      ...(scope.action !== undefined ? { action: scope.action } : {}),
      target,
      message,
      ...(extra.before !== undefined ? { before: show(extra.before) } : {}),
      ...(extra.after !== undefined ? { after: show(extra.after) } : {}),
      location: { file: location.file, line: location.line },
    });
  }

  /** Reports changed documentation keys (description, note, …) of one item as a single docs-changed. */
  docs(scope: Scope, target: string, base: object, head: object, keys: readonly string[], location: SourceLocation, direction: Direction): void {
    const b = base as Record<string, unknown>;
    const h = head as Record<string, unknown>;
    const changed = keys.filter((k) => show(b[k]) !== show(h[k]));
    if (changed.length) this.add('docs-changed', scope, target, `${changed.join(', ')} of ${target} changed`, location, { direction });
  }
}
