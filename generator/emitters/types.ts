/** The emitter plugin contract: one emitter per artefact kind, reading only the IR. */
import type { ConnectorIR, SpecIR } from '../ir.js';

/** Files to write, relative to the output directory → content. */
export type EmittedFiles = Map<string, string>;

/** One artefact kind (catalogue, types, client, validators, …). */
export interface Emitter {
  /** Short name, shown by `--timings`. */
  name: string;
  /** Files to write, relative to the output directory → content. */
  emit(ir: SpecIR): EmittedFiles | Promise<EmittedFiles>;
  /**
   * Whether its TypeScript files are already formatted as prettier formats them in the generated style
   * (ts/doc.ts GENERATED_STYLE): those skip prettier (format/format.ts) unless the output's own prettier config asks
   * for another style, or a line is longer than the style allows (a layout the printer does not model). `trusted`
   * skips that check too (code kept as written under `// prettier-ignore`). A function decides per file. Default:
   * false (the file goes through prettier).
   */
  formatted?: Formatted | ((ir: SpecIR, path: string) => Formatted);
  /**
   * How `emit` splits by connector, for incremental generation (generate.ts keeps the files of a connector whose
   * inputs are unchanged from the last run). Absent: the emitter runs whole on every run that generates anything.
   */
  split?: EmitterSplit;
}

/** See Emitter.split. `emit(ir)` gives exactly the union of `shared`, `service` and `connector` of each connector. */
export interface EmitterSplit {
  /**
   * The files of one connector. `ir` holds that connector alone (`ir.connectors` is `[connector]`): a connector's
   * files cannot depend on another connector, so they can be reused while its inputs are unchanged.
   */
  connector(ir: SpecIR, connector: ConnectorIR): EmittedFiles | Promise<EmittedFiles>;
  /**
   * A connector's part of the shared files (its entry in a catalogue or an index), as text; `ir` as for `connector`.
   * Made with the connector's files and kept with them in the incremental cache, so a one-connector edit makes the
   * shared files from every connector's fragment and works out the edited connector's alone.
   */
  fragment?(ir: SpecIR, connector: ConnectorIR): string;
  /**
   * The files that read every connector (indexes, catalogue, workspace files): made again on every run. `fragments`:
   * each connector's `fragment` (id → text, in the IR's order of connectors); empty without `fragment`.
   */
  shared?(ir: SpecIR, fragments: ReadonlyMap<string, string>): EmittedFiles | Promise<EmittedFiles>;
  /**
   * The files that read no connector (copies of the runtime and of the MCP server's sources): `ir` is serviceOnly's,
   * and `withConnectors` tells whether the run generates any connector. Kept in the incremental cache under a key of the
   * generator version, the common contract, the packaging and `withConnectors` (cache/connector-cache.ts), so a run
   * makes them again only when one of those changes, and an edit of a connector never.
   */
  service?(ir: SpecIR, withConnectors: boolean): EmittedFiles | Promise<EmittedFiles>;
}

/** The IR as EmitterSplit.service receives it: no connector, and of the assumptions the common contract's own. */
export function serviceOnly(ir: SpecIR): SpecIR {
  const { common } = viewsOf(ir).owners;
  return { ...ir, service: { ...ir.service, assumptions: common.map((i) => ir.service.assumptions[i]!) }, connectors: [] };
}

/** See Emitter.formatted. */
export type Formatted = boolean | 'trusted';

/**
 * The IR restricted to one connector: what EmitterSplit.connector receives. The common contract's list of every
 * assumption keeps the service's own and this connector's (ids `<connector id>/…`), so another connector's edit leaves
 * it unchanged.
 */
export function onlyConnector(ir: SpecIR, connector: ConnectorIR): SpecIR {
  const views = viewsOf(ir);
  let view = views.byConnector.get(connector);
  if (!view) views.byConnector.set(connector, (view = restrict(ir, connector, views.owners)));
  return view;
}

/** onlyConnector's IRs, made once per IR and connector (every split emitter asks for each connector's), and the owners of the IR's assumptions. */
const restricted = new WeakMap<SpecIR, { owners: AssumptionOwners; byConnector: Map<ConnectorIR, SpecIR> }>();

/** The IR's entry of `restricted`, made on first need (its owners serve serviceOnly too). */
function viewsOf(ir: SpecIR): { owners: AssumptionOwners; byConnector: Map<ConnectorIR, SpecIR> } {
  let views = restricted.get(ir);
  if (!views) restricted.set(ir, (views = { owners: assumptionOwners(ir), byConnector: new Map() }));
  return views;
}

/** Positions in the IR's list of assumptions: the common contract's own, and each connector's (by id). */
interface AssumptionOwners {
  common: number[];
  byConnector: Map<string, number[]>;
}

/** Sorts the assumptions by owner once per IR: filtering the whole list per connector grew with the square of the spec. */
function assumptionOwners(ir: SpecIR): AssumptionOwners {
  const ids = new Set(ir.service.connectorIds);
  const owners: AssumptionOwners = { common: [], byConnector: new Map() };
  ir.service.assumptions.forEach((a, i) => {
    const owner = a.id.split('/')[0]!;
    if (!ids.has(owner)) owners.common.push(i);
    else (owners.byConnector.get(owner) ?? owners.byConnector.set(owner, []).get(owner)!).push(i);
  });
  return owners;
}

function restrict(ir: SpecIR, connector: ConnectorIR, owners: AssumptionOwners): SpecIR {
  // The common contract's and the connector's, in the list's order: a merge of two ascending lists of positions.
  const { common } = owners;
  const own = owners.byConnector.get(connector.id) ?? [];
  const all = ir.service.assumptions;
  const assumptions = [];
  for (let i = 0, j = 0; i < common.length || j < own.length; ) assumptions.push(all[j >= own.length || (i < common.length && common[i]! < own[j]!) ? common[i++]! : own[j++]!]!);
  return { ...ir, service: { ...ir.service, assumptions }, connectors: [connector] };
}

/**
 * An emitter made of a per-connector part and a shared part (EmitterSplit); its `emit` runs both, so a whole run and
 * an incremental one run the same code.
 */
export function splitEmitter(emitter: Omit<Emitter, 'emit' | 'split'> & EmitterSplit): Emitter {
  const { name, formatted, connector, fragment, shared, service } = emitter;
  const split: EmitterSplit = { connector, ...(fragment ? { fragment } : {}), ...(shared ? { shared } : {}), ...(service ? { service } : {}) };
  return {
    name,
    ...(formatted !== undefined ? { formatted } : {}),
    split,
    async emit(ir) {
      const fragments = new Map(fragment ? ir.connectors.map((c) => [c.id, fragment(onlyConnector(ir, c), c)]) : []);
      const parts = await Promise.all([
        shared ? shared(ir, fragments) : new Map<string, string>(),
        service ? service(serviceOnly(ir), ir.connectors.length > 0) : new Map<string, string>(),
        ...ir.connectors.map((c) => connector(onlyConnector(ir, c), c)),
      ]);
      return new Map(parts.flatMap((files) => [...files]));
    },
  };
}
