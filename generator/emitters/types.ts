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

/** See Emitter.split. `emit(ir)` gives exactly the union of `shared(ir)` and `connector` of each connector. */
export interface EmitterSplit {
  /**
   * The files of one connector. `ir` holds that connector alone (`ir.connectors` is `[connector]`): a connector's
   * files cannot depend on another connector, so they can be reused while its inputs are unchanged.
   */
  connector(ir: SpecIR, connector: ConnectorIR): EmittedFiles | Promise<EmittedFiles>;
  /** The files that read every connector (indexes, catalogue, workspace files): made again on every run. */
  shared?(ir: SpecIR): EmittedFiles | Promise<EmittedFiles>;
}

/** See Emitter.formatted. */
export type Formatted = boolean | 'trusted';

/**
 * The IR restricted to one connector: what EmitterSplit.connector receives. The common contract's list of every
 * assumption keeps the service's own and this connector's (ids `<connector id>/…`), so another connector's edit leaves
 * it unchanged.
 */
export function onlyConnector(ir: SpecIR, connector: ConnectorIR): SpecIR {
  let views = restricted.get(ir);
  if (!views) restricted.set(ir, (views = { owned: ownedAssumptions(ir), byConnector: new Map() }));
  let view = views.byConnector.get(connector);
  if (!view) views.byConnector.set(connector, (view = restrict(ir, connector, views.owned)));
  return view;
}

/** onlyConnector's IRs of one IR, made once per connector (every split emitter asks for each connector's). */
interface ConnectorViews {
  /** Positions in `service.assumptions` of the service's own assumptions (`shared`) and of each connector's. */
  owned: OwnedAssumptions;
  /** The views made so far. */
  byConnector: Map<ConnectorIR, SpecIR>;
}

/** See ConnectorViews.owned. */
interface OwnedAssumptions {
  shared: number[];
  byConnector: Map<string, number[]>;
}

const restricted = new WeakMap<SpecIR, ConnectorViews>();

/** Sorts the assumptions by owner once per IR: a view per connector then costs its own and the shared ones only, not every connector's. */
function ownedAssumptions(ir: SpecIR): OwnedAssumptions {
  const ids = new Set(ir.service.connectorIds);
  const owned: OwnedAssumptions = { shared: [], byConnector: new Map() };
  ir.service.assumptions.forEach((a, i) => {
    const slash = a.id.indexOf('/');
    const owner = slash < 0 ? a.id : a.id.slice(0, slash);
    if (!ids.has(owner)) owned.shared.push(i);
    else (owned.byConnector.get(owner) ?? owned.byConnector.set(owner, []).get(owner)!).push(i);
  });
  return owned;
}

function restrict(ir: SpecIR, connector: ConnectorIR, owned: OwnedAssumptions): SpecIR {
  const all = ir.service.assumptions;
  const shared = owned.shared;
  const own = owned.byConnector.get(connector.id) ?? [];
  // The two position lists merged: the assumptions keep the order they have in the whole list.
  const assumptions = [];
  for (let i = 0, j = 0; i < shared.length || j < own.length; ) {
    assumptions.push(all[j >= own.length || (i < shared.length && shared[i]! < own[j]!) ? shared[i++]! : own[j++]!]!);
  }
  return { ...ir, service: { ...ir.service, assumptions }, connectors: [connector] };
}

/**
 * An emitter made of a per-connector part and a shared part (EmitterSplit); its `emit` runs both, so a whole run and
 * an incremental one run the same code.
 */
export function splitEmitter(emitter: Omit<Emitter, 'emit' | 'split'> & EmitterSplit): Emitter {
  const { name, formatted, connector, shared } = emitter;
  const split: EmitterSplit = shared ? { connector, shared } : { connector };
  return {
    name,
    ...(formatted !== undefined ? { formatted } : {}),
    split,
    async emit(ir) {
      const parts = await Promise.all([shared ? shared(ir) : new Map<string, string>(), ...ir.connectors.map((c) => connector(onlyConnector(ir, c), c))]);
      return new Map(parts.flatMap((files) => [...files]));
    },
  };
}
