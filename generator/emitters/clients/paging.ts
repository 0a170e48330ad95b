/** A paging scheme of the IR as the runtime's PaginationDescriptor (JSON text): the client and the agent tools use it. */
import type { ConnectorIR, PaginationIR } from '../../ir.js';

/** The descriptor of `scheme`, with the size default and cursor type its connector's actions agree on. */
export function paginationDescriptor(scheme: PaginationIR, connector: ConnectorIR | undefined): string {
  const sizeDefaults = new Set<number>();
  const paramTypes = new Set<string>();
  for (const a of connector?.entities.flatMap((e) => e.actions) ?? []) {
    if (a.pagination !== scheme.name) continue;
    const size = a.params.find((p) => p.name === scheme.sizeParam)?.default;
    if (typeof size === 'number') sizeDefaults.add(size);
    const type = a.params.find((p) => p.name === scheme.param)?.types[0];
    if (type) paramTypes.add(type);
  }
  const descriptor = {
    param: scheme.param,
    ...(scheme.sizeParam ? { sizeParam: scheme.sizeParam } : {}),
    // One default page size when every action of the scheme agrees on it.
    ...(sizeDefaults.size === 1 ? { defaultSize: [...sizeDefaults][0] } : {}),
    // The cursor param's declared type, when every action of the scheme agrees on it.
    ...(paramTypes.size === 1 ? { paramType: [...paramTypes][0] } : {}),
    next: scheme.next,
    stop: scheme.stop,
  };
  return JSON.stringify(descriptor);
}
