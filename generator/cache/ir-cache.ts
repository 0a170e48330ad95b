/**
 * The IR cache: per connector file, what normalizing and checking it gave — its IR (before packaging), its warnings and
 * its assumptions — kept under a digest of its text, of service.yaml's text (the only other file its IR reads), of
 * both files' paths (diagnostics name a file as displayed, the IR as written in the spec), of the generator version
 * (which covers normalize and the checks) and of the V8 version (entries are V8-serialized). A one-connector edit
 * normalizes and checks that connector alone (spec/normalize.ts `cached`, spec/checks.ts `fresh`).
 *
 * The same digest without the displayed paths names the connector's inputs for the incremental cache
 * (connector-cache.ts connectorKeys): the files its IR comes from, rather than a serialization of the IR. The IR names
 * a file only as written in the spec, so a spec reached by another path (`--spec ./spec`, another working directory)
 * normalizes its connectors again for their warnings but emits none of them again.
 *
 * A location of the IR keeps its line lazy (yaml-source.ts keyLocation): the line is not part of the object, so the
 * entry lists the locations in the order they were made (the serializer keeps object identity within an entry), for
 * normalize to give them lazy lines again. Entries are written only by a read without errors, under `<cache dir>/ir/`,
 * and are safe to delete.
 *
 * An entry is two V8 serializations, the head's length first (4 bytes): the head — the connector's fields but its nodes
 * (outline, titles), its diagnostics and assumptions — is deserialized when found; the rest — its whole IR and every
 * location in it — only when the run reads the connector's nodes (spec/normalize.ts fromCache). A one-connector edit
 * reads the other connectors' outlines alone, so it never deserializes their entities.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { AssumptionIR, ConnectorIR } from '../ir.js';
import type { Diagnostic } from '../spec/diagnostics.js';
import type { SpecText } from '../spec/load.js';
import type { CachedConnector, NormalizedConnector } from '../spec/normalize.js';
import type { SourceFile } from '../spec/yaml-source.js';
import type { SpecCacheOptions } from './spec-cache.js';
import { readStored, writeStored, type Store } from './store.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 3;
/** Entries kept (a connector's every edit makes one). */
const MAX_ENTRIES = 800;

/** The fields of a connector an entry's head holds: all but its nodes (CachedEntry). */
export type HeadFields = Pick<ConnectorIR, 'id' | 'title' | 'seed' | 'file' | 'description' | 'outline' | 'transitionsUnspecified'>;

/** What an entry gives as soon as it is found. */
export interface CachedHead {
  /** The connector's fields but its nodes. */
  connector: HeadFields;
  /** Its diagnostics (warnings only). */
  diagnostics: Diagnostic[];
  /** Its assumptions, sorted (their locations without lines). */
  assumptions: AssumptionIR[];
  /** Of each assumption, the position of its location in the whole entry's `locations`. */
  assumptionLocations: number[];
}

/** An entry found: its head, and the rest, deserialized on the first call (undefined when that part is damaged). */
export interface CachedEntry {
  head: CachedHead;
  whole(): CachedConnector | undefined;
}

function isHead(value: unknown): value is CachedHead {
  const h = value as Partial<CachedHead> | null;
  return (
    typeof h === 'object' &&
    h !== null &&
    typeof h.connector === 'object' &&
    h.connector !== null &&
    typeof h.connector.outline === 'object' &&
    Array.isArray(h.connector.outline?.entities) &&
    Array.isArray(h.diagnostics) &&
    Array.isArray(h.assumptions) &&
    Array.isArray(h.assumptionLocations) &&
    h.assumptionLocations.length === h.assumptions.length
  );
}

/** An entry's bytes → its head now, the rest when asked; undefined when the head is not one. */
function decodeEntry(bytes: Buffer): CachedEntry | undefined {
  const headLength = bytes.length >= 4 ? bytes.readUInt32LE(0) : Infinity;
  if (4 + headLength > bytes.length) return undefined;
  const head = deserialize(bytes.subarray(4, 4 + headLength)) as unknown;
  if (!isHead(head)) return undefined;
  let whole: CachedConnector | undefined | null = null;
  return {
    head,
    whole: () => {
      if (whole !== null) return whole;
      try {
        const entry = deserialize(bytes.subarray(4 + headLength)) as unknown;
        whole = isEntry(entry) ? entry : undefined;
      } catch {
        whole = undefined;
      }
      return whole;
    },
  };
}

/** An entry's bytes: the head, then the rest (see CachedEntry); undefined when an assumption's location is not among the locations. */
function encodeEntry(connector: Omit<ConnectorIR, 'package'>, own: NormalizedConnector): Uint8Array[] | undefined {
  const { package: _package, ...unpackaged } = connector as ConnectorIR;
  const assumptionLocations = own.assumptions.map((a) => own.locations.indexOf(a.location));
  if (assumptionLocations.includes(-1)) return undefined;
  const { id, title, seed, file, description, outline, transitionsUnspecified } = unpackaged;
  const fields: HeadFields = { id, title, seed, file, description, outline, ...(transitionsUnspecified !== undefined ? { transitionsUnspecified } : {}) };
  const head = serialize({ connector: fields, diagnostics: own.diagnostics, assumptions: own.assumptions, assumptionLocations } satisfies CachedHead);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(head.length, 0);
  return [length, head, serialize({ connector: unpackaged, locations: own.locations } satisfies CachedConnector)];
}

function isEntry(value: unknown): value is CachedConnector {
  const e = value as Partial<CachedConnector> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof e.connector === 'object' &&
    e.connector !== null &&
    Array.isArray(e.connector.entities) &&
    Array.isArray(e.locations)
  );
}

/** The IR cache of one read of the spec: the entries found for its connector files, and the keys of those files. */
export class IrCache {
  private constructor(
    private readonly store: Store,
    /** Connector file (spec path) → its key. */
    private readonly keys: Map<string, string>,
    /** Connector file (spec path) → the digest of its inputs: its key without the paths as displayed. */
    private readonly inputs: Map<string, string>,
    private readonly found: Map<string, CachedEntry>,
  ) {}

  /**
   * Reads the entries of the connector files as read, before parsing (spec/load.ts KnownFiles): an entry holds what a
   * clean read gave, so a file that has one needs no parsing; normalize uses entries only with a valid service.yaml.
   */
  static async open(options: SpecCacheOptions, service: SpecText | undefined, connectors: readonly SpecText[]): Promise<IrCache> {
    const store: Store = { dir: path.join(options.dir, 'ir'), ext: '.v8', max: MAX_ENTRIES };
    const keys = new Map<string, string>();
    const inputs = new Map<string, string>();
    if (service) {
      const serviceDigest = createHash('sha256')
        .update(`${ENTRY_VERSION}\0${options.version}\0${process.versions.v8}\0${service.specPath}\0`)
        .update(service.text)
        .digest('hex');
      for (const source of connectors) {
        const input = createHash('sha256').update(`${serviceDigest}\0${source.specPath}\0`).update(source.text).digest('hex');
        inputs.set(source.specPath, input);
        keys.set(source.specPath, createHash('sha256').update(`${input}\0${service.file}\0${source.file}`).digest('hex'));
      }
    }
    const found = readStored(store, keys.values(), decodeEntry);
    return new IrCache(store, keys, inputs, found);
  }

  /** The connector files (spec paths) that have an entry. */
  known(): Set<string> {
    return new Set([...this.keys].flatMap(([specPath, key]) => (this.found.has(key) ? [specPath] : [])));
  }

  /** The digest of the inputs of the connector file at `specPath` (its key without displayed paths), if it was read. */
  inputKeyOf(specPath: string): string | undefined {
    return this.inputs.get(specPath);
  }

  /** The cached connector of `source`, if any. */
  get(source: SourceFile): CachedEntry | undefined {
    const key = this.keys.get(source.specPath);
    const entry = key === undefined ? undefined : this.found.get(key);
    if (entry) this.found.delete(key!); // each entry is handed out once: its objects become the run's IR
    return entry;
  }

  /** Stores the connectors normalized in this read (call it only when the read found no error). */
  async save(fresh: ReadonlyMap<ConnectorIR, NormalizedConnector>): Promise<void> {
    const entries: [string, Uint8Array[]][] = [];
    for (const [connector, own] of fresh) {
      const key = this.keys.get(own.source.specPath);
      const bytes = key === undefined ? undefined : encodeEntry(connector, own);
      if (bytes) entries.push([key!, bytes]);
    }
    await writeStored(this.store, entries);
  }
}
