/** A paging scheme of the IR as the runtime's PaginationDescriptor (plain JSON data): the client and the agent tools use it. */
import type { ConnectorIR, PaginationIR, StopConditionIR } from '../../ir.js';

/** Cursor types the runtime converts a value read from a URL to. */
type CursorType = 'string' | 'integer' | 'number' | 'boolean';
const CURSOR_TYPES: readonly string[] = ['string', 'integer', 'number', 'boolean'] satisfies CursorType[];

/** The runtime's PaginationDescriptor, as data written into generated code (a type literal: plain JSON data). */
export type PagingDescriptor = {
  /** Request param that carries the cursor, page number, offset or token. */
  param: string;
  /** Request param that sets the page size, if any (only where a `shortPage` stop reads it). */
  sizeParam?: string;
  /** The default page size every action of the scheme agrees on (only where a `shortPage` stop reads it). */
  defaultSize?: number;
  /** The cursor param's declared type, when every action of the scheme agrees on it (only where the next value is read from a URL, which the runtime converts to it). */
  paramType?: CursorType;
  /** Where the next value of `param` comes from. */
  next: PaginationIR['next'];
  /** The last page is reached when any of these holds. */
  stop: Pick<StopConditionIR, 'when' | 'key'>[];
};

/** Descriptors made, by scheme and connector: the client and each of its tools ask for the same ones. */
const descriptors = new WeakMap<PaginationIR, Map<ConnectorIR | undefined, PagingDescriptor>>();

/**
 * The descriptor of `scheme`, with the size default and cursor type its connector's actions agree on. Fields the
 * runtime's walker would never read for this scheme are left out: every client bundle carries its descriptors.
 * Made once per scheme and connector: callers read it and never change it.
 */
export function paginationDescriptor(scheme: PaginationIR, connector: ConnectorIR | undefined): PagingDescriptor {
  let byConnector = descriptors.get(scheme);
  if (!byConnector) descriptors.set(scheme, (byConnector = new Map()));
  let descriptor = byConnector.get(connector);
  if (!descriptor) byConnector.set(connector, (descriptor = describe(scheme, connector)));
  return descriptor;
}

function describe(scheme: PaginationIR, connector: ConnectorIR | undefined): PagingDescriptor {
  const sizeDefaults = new Set<number>();
  const paramTypes = new Set<string>();
  for (const a of connector?.entities.flatMap((e) => e.actions) ?? []) {
    if (a.pagination !== scheme.name) continue;
    const size = a.params.find((p) => p.name === scheme.sizeParam)?.default;
    if (typeof size === 'number') sizeDefaults.add(size);
    const type = a.params.find((p) => p.name === scheme.param)?.types[0];
    if (type) paramTypes.add(type);
  }
  // The page size and its default matter only to a shortPage stop; the cursor type only to a value read from a URL.
  const shortPage = scheme.stop.some((s) => s.when === 'shortPage');
  const fromUrl = scheme.next.queryParam !== undefined;
  const descriptor: PagingDescriptor = {
    param: scheme.param,
    ...(scheme.sizeParam && shortPage ? { sizeParam: scheme.sizeParam } : {}),
    ...(sizeDefaults.size === 1 && shortPage ? { defaultSize: [...sizeDefaults][0]! } : {}),
    ...(paramTypes.size === 1 && fromUrl && CURSOR_TYPES.includes([...paramTypes][0]!) ? { paramType: [...paramTypes][0] as CursorType } : {}),
    next: scheme.next,
    stop: scheme.stop,
  };
  // A JSON round trip drops keys the IR holds as undefined, so the written literal has none.
  return JSON.parse(JSON.stringify(descriptor)) as PagingDescriptor;
}
