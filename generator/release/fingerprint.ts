/**
 * A connector's spec fingerprint: the digest of everything that shapes its package — its own IR and the parts
 * of the common contract it uses — without source locations, so moving lines around changes nothing.
 * `release` records it per version and skips a connector whose fingerprint has not changed since.
 */
import { createHash } from 'node:crypto';
import type { ConnectorIR, SpecIR } from '../ir.js';
import { stableJson } from '../lib/stable-json.js';

/** Keys that say where something is written, not what it is. */
const LOCATION_KEYS = new Set(['source', 'location', 'common']);

function withoutLocations(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLocations);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !LOCATION_KEYS.has(k)).map(([k, v]) => [k, withoutLocations(v)]));
  }
  return value;
}

/** sha256 (hex) of the connector's semantic content. */
export function connectorFingerprint(ir: SpecIR, connector: ConnectorIR): string {
  // The package's name and version are what a release changes, not what it is about.
  const { package: _package, ...spec } = connector;
  const searches = connector.entities.some((e) => e.actions.some((a) => a.name === 'search'));
  // What every package embeds of the common contract (the diff's transport checks reach every connector).
  const s = ir.service;
  const transport = { execute: s.execute, createSource: s.createSource, executeBody: s.executeBody, sourceCreation: s.sourceCreation, authentication: s.authentication, errors: s.errors, versioning: s.versioning, actions: s.actions, assumptions: s.assumptions.filter((x) => !x.id.includes('/')).map((x) => ({ id: x.id, value: x.value })) };
  const service = { envelope: s.envelope, transport, ...(searches ? { search: s.search } : {}) };
  return createHash('sha256').update(stableJson(withoutLocations({ connector: spec, service }))).digest('hex');
}
