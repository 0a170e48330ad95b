/** What a semantic diff of two specs produces: located, classified changes, and a verdict per connector. */
import type { SourceLocation } from '../ir.js';
import { actionRank } from '../ir.js';
import { SEVERITY_ORDER, type Bump, type Direction, type Severity } from './checks.js';

/** One action a change reaches. */
export interface Place {
  /** Entity. */
  entity?: string;
  /** Action. */
  action?: string;
  /** Where the action uses the changed definition. */
  location: SourceLocation;
}

/** One semantic change between the base and the head spec. */
export interface Change {
  /** Check id from the checks table (checks.ts). */
  id: string;
  /** From the checks table, or the config's `diff.severity` when it overrides it. */
  severity: Severity;
  /** The checks table's severity, present only when the config overrides it. */
  defaultSeverity?: Severity;
  /** Whether the changed item is sent by clients (request) or read by them (response). */
  direction: Direction;
  /** Semver part the change asks for. */
  bump: Bump;
  /** Connector the change is written in; absent for the common contract (service.yaml: envelope, uniform search). */
  connector?: string;
  /** Connectors whose packages the change touches (the connector itself, or every one a service change reaches). */
  affects: string[];
  /** Entity touched, when the change is inside one. */
  entity?: string;
  /** Action touched, when the change is inside one. */
  action?: string;
  /** The item that changed, e.g. `param limit`, `record customer field address.city`, `auth_config field api_key`. */
  target: string;
  /** One sentence for a reviewer. */
  message: string;
  /** The old value, when there is one to show (JSON text). */
  before?: string;
  /** The new value, when there is one to show (JSON text). */
  after?: string;
  /**
   * For a change to a shared definition (a `common` param, a record or meta shape, a paging scheme): every action
   * it reaches. When there are several, `action` is absent and `location` is the definition.
   */
  places?: Place[];
  /** Where to look: the head spec, or the base spec for removals. */
  location: SourceLocation;
}

/** The verdict for one connector package. */
export interface ConnectorVerdict {
  /** Connector id. */
  connector: string;
  /** npm name of its package (the config's naming). */
  package: string;
  /** Largest bump its changes ask for (its own and those of the common contract that reach it). */
  bump: Bump | 'none';
  /** Its version before and after the bump (the release state's version; absent for a removed or added package). */
  version: { from?: string; to?: string };
  /** Number of changes per severity. */
  counts: Record<Severity, number>;
}

/** The whole diff. */
export interface DiffResult {
  /** How the base side was given (a directory or a git ref). */
  base: string;
  /** How the head side was given. */
  head: string;
  /** Changes, sorted (see sortChanges). */
  changes: Change[];
  /** One verdict per connector that changed, sorted by id. */
  connectors: ConnectorVerdict[];
  /** Severity overrides of the config (`diff.severity`) that changed at least one change, sorted by check id. */
  overrides?: Record<string, Severity>;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Sorts changes: the common contract first, then by connector, severity (worst first), entity, action, item. */
export function sortChanges(changes: Change[]): Change[] {
  return [...changes].sort(
    (a, b) =>
      compare(a.connector === undefined ? '' : `~${a.connector}`, b.connector === undefined ? '' : `~${b.connector}`) ||
      SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) ||
      compare(a.entity ?? '', b.entity ?? '') ||
      actionRank(a.action ?? '') - actionRank(b.action ?? '') ||
      compare(a.action ?? '', b.action ?? '') ||
      compare(a.target.replace(/`/g, ''), b.target.replace(/`/g, '')) ||
      compare(a.id, b.id) ||
      compare(a.message, b.message) ||
      compare(JSON.stringify(a), JSON.stringify(b)),
  );
}

/** `customers.list`, `customers`, or '' — where inside a connector a change is. */
export function placeOf(change: Pick<Change, 'entity' | 'action'>): string {
  return [change.entity, change.action].filter(Boolean).join('.');
}

/** Every place a change reaches, as `entity.action` (its own place when it has no `places`). */
export function placesOf(change: Pick<Change, 'entity' | 'action' | 'places'>): string[] {
  return change.places ? change.places.map(placeOf) : [placeOf(change)].filter(Boolean);
}

/** Where a change is, for one line of text: `customers.list`, or `3 actions: a.list, b.list, c.list` (`max` named). */
export function whereText(change: Pick<Change, 'entity' | 'action' | 'places'>, max = 4): string {
  const places = placesOf(change);
  if (!change.places || places.length <= 1) return placeOf(change) || places[0] || '';
  const shown = places.slice(0, max).join(', ');
  return `${places.length} actions: ${shown}${places.length > max ? `, +${places.length - max} more` : ''}`;
}

/** Counts per severity. */
export function countBySeverity(changes: readonly Change[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { breaking: 0, warning: 0, 'non-breaking': 0 };
  for (const c of changes) counts[c.severity]++;
  return counts;
}
