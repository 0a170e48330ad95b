/**
 * Paging in the diff: every part of a scheme (param, size param, backward param, next value source, first page number, each
 * stop condition, style), and which scheme each action pages with. A scheme is a shared definition: its changes
 * are reported once, with every action that pages with it (`places`). An action that switches to another
 * scheme is breaking only when the two work differently.
 */
import type { ActionIR, PaginationIR, SourceLocation, StopConditionIR } from '../ir.js';
import type { Place } from './model.js';
import { show, type ChangeSink, type Scope } from './sink.js';

/** Whether an action's pagination value names a scheme (not `none`, not `unspecified`). */
export const PAGED = (p: string): boolean => p !== 'none' && p !== 'unspecified';

const stopText = (s: StopConditionIR) => (s.key === undefined ? s.when : `${s.when} ${s.key}`);

/** The parts of a scheme the runtime's walker reads, normalized (page numbers start at 1 unless said). */
export function schemeParts(s: PaginationIR): { param: string; sizeParam: string | null; previousParam: string | null; next: Record<string, unknown>; start: number | null; stop: string[] } {
  const { start, ...next } = s.next;
  return {
    param: s.param,
    sizeParam: s.sizeParam ?? null,
    previousParam: s.previousParam ?? null,
    next,
    start: s.next.from === 'page_number' ? (start ?? 1) : (start ?? null),
    stop: [...new Set(s.stop.map(stopText))].sort(),
  };
}

/** The parts in which two schemes differ (empty: they page the same way). */
function differingParts(b: PaginationIR, h: PaginationIR): string[] {
  const [pb, ph] = [schemeParts(b), schemeParts(h)];
  return (Object.keys(pb) as (keyof typeof pb)[]).filter((k) => show(pb[k]) !== show(ph[k]));
}

/** Compares one scheme defined in both specs (same name); `places` are the actions paging with it. */
export function compareScheme(sink: ChangeSink, scope: Scope, b: PaginationIR, h: PaginationIR, places: Place[]): void {
  const target = `paging scheme \`${h.name}\``;
  const at = h.source;
  const extra = (before: unknown, after: unknown) => ({ before, after, places });
  const [pb, ph] = [schemeParts(b), schemeParts(h)];
  if (b.style !== h.style) sink.add('pagination-style-changed', scope, target, `style of ${target} changed from ${b.style} to ${h.style}`, at, extra(b.style, h.style));
  if (pb.param !== ph.param) sink.add('pagination-param-changed', scope, target, `${target} carries the next page in \`${ph.param}\` instead of \`${pb.param}\``, at, extra(pb.param, ph.param));
  if (pb.sizeParam !== ph.sizeParam) {
    if (pb.sizeParam === null) sink.add('pagination-size-param-added', scope, target, `${target} sets the page size with \`${ph.sizeParam}\``, at, extra(null, ph.sizeParam));
    else sink.add('pagination-size-param-changed', scope, target, ph.sizeParam === null ? `${target} no longer names a page-size param (was \`${pb.sizeParam}\`)` : `${target} sets the page size with \`${ph.sizeParam}\` instead of \`${pb.sizeParam}\``, at, extra(pb.sizeParam, ph.sizeParam));
  }
  if (pb.previousParam !== ph.previousParam) {
    if (pb.previousParam === null) sink.add('pagination-previous-param-added', scope, target, `${target} pages backwards with \`${ph.previousParam}\``, at, extra(null, ph.previousParam));
    else sink.add('pagination-previous-param-changed', scope, target, ph.previousParam === null ? `${target} no longer pages backwards with \`${pb.previousParam}\`` : `${target} pages backwards with \`${ph.previousParam}\` instead of \`${pb.previousParam}\``, at, extra(pb.previousParam, ph.previousParam));
  }
  if (show(pb.next) !== show(ph.next)) sink.add('pagination-next-changed', scope, target, `${target} takes the next value from ${nextText(h)} instead of ${nextText(b)}`, at, extra(pb.next, ph.next));
  if (pb.start !== ph.start) sink.add('pagination-start-changed', scope, target, `${target} starts at page ${ph.start ?? '(unstated)'} instead of ${pb.start ?? '(unstated)'}`, at, extra(pb.start, ph.start));
  for (const stop of pb.stop.filter((s) => !ph.stop.includes(s))) sink.add('pagination-stop-removed', scope, target, `${target} no longer stops on \`${stop}\``, at, extra(stop, null));
  for (const stop of ph.stop.filter((s) => !pb.stop.includes(s))) sink.add('pagination-stop-added', scope, target, `${target} also stops on \`${stop}\``, at, extra(null, stop));
  sink.docs(scope, target, b, h, ['description', 'assumption', 'provenance'], at, 'response');
}

function nextText(s: PaginationIR): string {
  const { from, path, queryParam } = s.next;
  return `${from}${path !== undefined ? ` \`${path}\`` : ''}${queryParam !== undefined ? ` (query param \`${queryParam}\`)` : ''}`;
}

/** The schemes of both specs by name, for actions that switch scheme. */
export interface SchemeLookup {
  /** Base schemes by name. */
  base: Map<string, PaginationIR>;
  /** Head schemes by name. */
  head: Map<string, PaginationIR>;
}

/** Compares how one action pages: starts, stops, or switches scheme (a switch to a scheme that works the same is a rename). */
export function compareActionPaging(sink: ChangeSink, scope: Scope, b: ActionIR, h: ActionIR, schemes: SchemeLookup): void {
  if (b.pagination === h.pagination) return;
  const target = `action \`${h.name}\``;
  const at: SourceLocation = h.source;
  const extra = { before: b.pagination, after: h.pagination };
  if (!PAGED(b.pagination) && PAGED(h.pagination)) return sink.add('pagination-added', scope, target, `${target} now pages with scheme \`${h.pagination}\``, at, extra);
  if (PAGED(b.pagination) && !PAGED(h.pagination)) return sink.add('pagination-removed', scope, target, `${target} no longer pages (was scheme \`${b.pagination}\`)`, at, extra);
  if (!PAGED(b.pagination)) return; // none ↔ unspecified: neither pages
  const [bs, hs] = [schemes.base.get(b.pagination), schemes.head.get(h.pagination)];
  const parts = bs && hs ? differingParts(bs, hs) : ['scheme'];
  // The head scheme is a shared definition: a renamed scheme is one change for all its actions.
  const shared = hs ? { shared: { key: `scheme ${h.pagination}`, location: hs.source } } : {};
  if (parts.length === 0) {
    sink.add('pagination-scheme-renamed', scope, target, `${target} pages with scheme \`${h.pagination}\`, which works as \`${b.pagination}\` did`, at, { ...extra, ...shared });
  } else {
    sink.add('pagination-scheme-changed', scope, target, `${target} pages with scheme \`${h.pagination}\` instead of \`${b.pagination}\` (other ${parts.join(', ')})`, at, { ...extra, ...shared });
  }
}

/** Actions of a connector that page with `scheme`, as places. */
export function pagingPlaces(entities: readonly { name: string; actions: readonly ActionIR[] }[], scheme: string): Place[] {
  return entities.flatMap((e) => e.actions.filter((a) => a.pagination === scheme).map((a) => ({ entity: e.name, action: a.name, location: { file: a.source.file, line: a.source.line } })));
}
