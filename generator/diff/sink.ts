/**
 * Collects changes, filling severity, bump and direction from the checks table; applies the deprecation
 * policy; and reports one change to a shared definition (a `common` param) once, with every action it reaches.
 */
import { actionRank, type SourceLocation } from '../ir.js';
import { checkInfo, type Direction } from './checks.js';
import type { Change, Place } from './model.js';
import { compareVersions } from './semver.js';

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

/** A shared definition a change comes from: changes with the same content and definition are one change. */
export interface SharedDefinition {
  /** Identity of the definition, e.g. `param limit`. */
  key: string;
  /** Where it is written (the head's, or the base's when it was removed). */
  location: SourceLocation;
}

/** How removals of deprecated items are reported (the config's `diff.deprecation`). */
export type DeprecationPolicy = 'released' | 'any' | 'off';

/** What the comparison needs besides the two specs. */
export interface CompareOptions {
  /** Removals of deprecated items: `released` (default), `any` or `off`. */
  deprecation?: DeprecationPolicy;
  /** Current version of a connector's package (the release state); default 0.1.0. */
  versionOf?: (connector: string) => string;
}

/** Extra facts of one change. */
export interface ChangeExtra {
  /** Old value. */
  before?: unknown;
  /** New value. */
  after?: unknown;
  /** Needed only for checks whose table direction is `either` (docs-changed, attribute-changed, …). */
  direction?: Direction;
  /** The shared definition the change comes from, when it does. */
  shared?: SharedDefinition;
  /** Actions a change to a shared shape or scheme reaches. */
  places?: Place[];
}

/** Values shown as before/after: JSON text, so a string and a number never look alike. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? 'undefined';
}

const location = (l: SourceLocation) => ({ file: l.file, line: l.line });

/** What every view of one sink adds to. */
interface SinkState {
  changes: Change[];
  shared: Map<string, { change: Change; places: Place[]; definition: SourceLocation }>;
}

/** The list of changes being built. */
export class ChangeSink {
  readonly #state: SinkState;
  readonly #places: Place[] | undefined;

  constructor(
    readonly options: CompareOptions = {},
    state: SinkState = { changes: [], shared: new Map() },
    places?: Place[],
  ) {
    this.#state = state;
    this.#places = places;
  }

  /** A view of this sink that gives every change it adds these `places` (the actions a shared shape or scheme reaches). */
  withPlaces(places: Place[]): ChangeSink {
    return new ChangeSink(this.options, this.#state, places.length ? places : undefined);
  }

  /** Adds one change. */
  add(id: string, scope: Scope, target: string, message: string, at: SourceLocation, extra: ChangeExtra = {}): void {
    if (this.#places && !extra.places) extra = { ...extra, places: this.#places };
    const info = checkInfo(id);
    const direction = info.direction === 'either' ? extra.direction : info.direction;
    if (!direction) throw new Error(`internal: check '${id}' needs the direction of ${target}`);
    const change: Change = {
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
      ...(extra.places?.length ? { places: extra.places } : {}),
      location: location(at),
    };
    if (!extra.shared) {
      this.#state.changes.push(change);
      return;
    }
    const key = show([extra.shared.key, change.id, change.connector, change.target, change.message, change.before, change.after]);
    const place: Place = { ...(scope.entity !== undefined ? { entity: scope.entity } : {}), ...(scope.action !== undefined ? { action: scope.action } : {}), location: location(at) };
    const group = this.#state.shared.get(key);
    if (group) group.places.push(place);
    else this.#state.shared.set(key, { change, places: [place], definition: extra.shared.location });
  }

  /** Reports changed documentation keys (description, note, …) of one item as a single docs-changed. */
  docs(scope: Scope, target: string, base: object, head: object, keys: readonly string[], at: SourceLocation, direction: Direction, shared?: SharedDefinition): void {
    const b = base as Record<string, unknown>;
    const h = head as Record<string, unknown>;
    const changed = keys.filter((k) => show(b[k]) !== show(h[k]));
    if (changed.length) this.add('docs-changed', scope, target, `${changed.join(', ')} of ${target} changed`, at, { direction, ...(shared ? { shared } : {}) });
  }

  /**
   * Whether the removal of `item` (deprecated in the base) counts as removed-after-deprecation under the policy:
   * `released` needs `deprecatedSince` at or below the version of every package the removal reaches.
   */
  deprecatedRemoval(item: { deprecated?: string; deprecatedSince?: string }, scope: Scope): boolean {
    const policy = this.options.deprecation ?? 'released';
    if (policy === 'off' || item.deprecated === undefined) return false;
    if (policy === 'any') return true;
    const since = item.deprecatedSince;
    if (since === undefined) return false;
    const versionOf = this.options.versionOf ?? (() => '0.1.0');
    return scope.affects.every((connector) => compareVersions(versionOf(connector), since) >= 0);
  }

  /**
   * Every change: changes to a shared definition are one change each, located at the definition when they
   * reach several actions (`places` lists them all), else at the one action they reach.
   */
  changes(): Change[] {
    const grouped = [...this.#state.shared.values()].map(({ change, places, definition }) => {
      if (places.length === 1) return { ...change, places };
      const { entity: _e, action: _a, ...rest } = change;
      const entities = new Set(places.map((p) => p.entity));
      const entity = entities.size === 1 ? places[0]!.entity : undefined;
      return { ...rest, ...(entity !== undefined ? { entity } : {}), places: sortPlaces(places), location: location(definition) };
    });
    return [...this.#state.changes, ...grouped];
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Places in entity order, then in the action vocabulary's order. */
export function sortPlaces(places: Place[]): Place[] {
  return [...places].sort((a, b) => compareText(a.entity ?? '', b.entity ?? '') || actionRank(a.action ?? '') - actionRank(b.action ?? '') || compareText(a.action ?? '', b.action ?? ''));
}
