/**
 * Paging as data. A {@link PaginationDescriptor} (a connector's `pagination[]` entry of the catalogue) says
 * where the next value of the paging param comes from and when the last page is reached; one walker
 * interprets every scheme, so the runtime needs no per-connector code.
 */

import { LimitError, PaginationError, isRecord } from './errors.js';
import { APIPromise, type CallResult } from './promise.js';

/** How one paging scheme works (a connector's `pagination[]` entry of the catalogue, verbatim shape). */
export interface PaginationDescriptor {
  /** Informational label (generated descriptors leave it out); the walker is driven by `next` and `stop` only. */
  style?: 'cursor' | 'page' | 'offset' | 'token' | 'link' | 'since_id';
  /** Request param that carries the cursor, page number, offset or token. */
  param: string;
  /** Request param that sets the page size, if any. */
  sizeParam?: string;
  /** The size param's spec default, when it has one (generated code passes it). */
  defaultSize?: number;
  /** Declared type of `param`: a next value read as text (from a URL) is converted to it. */
  paramType?: 'string' | 'integer' | 'number' | 'boolean';
  /** Where the next value of `param` comes from. */
  next: { from: 'meta' | 'last_record' | 'page_number' | 'offset'; path?: string; queryParam?: string; start?: number };
  /** The last page is reached when any of these holds. */
  stop: {
    when: 'metaFalse' | 'metaTrue' | 'metaMissing' | 'nextMissing' | 'emptyPage' | 'shortPage' | 'totalReached';
    key?: string;
  }[];
}

/** One fetched page as the walker sees it: what the caller gets (with its response), the items in it, and the meta paging reads. */
export interface LoadedPage<Item, P> extends CallResult<P> {
  items: Item[];
  meta: unknown;
}

/** What paging reads of a page: its items and its meta (the agent tools' output guard passes a page of its own). */
export type PageView = Pick<LoadedPage<unknown, unknown>, 'items' | 'meta'>;

/** Fetches one page for the given params (undefined: the call has no params). */
export type PageLoader<Item, P> = (params: Record<string, unknown> | undefined) => Promise<LoadedPage<Item, P>>;

/** How far a walk may go. */
export interface WalkLimits {
  /** The caller's bound on items: the walk ends quietly there. */
  maxItems?: number | undefined;
  /** The caller's bound on pages: the walk ends quietly there. */
  maxPages?: number | undefined;
  /** Without `maxPages`: the safety limit on pages (the client's `maxPages`); reaching it with pages left throws {@link LimitError}. */
  pageLimit?: number | undefined;
}

/**
 * The result of a list-shaped call: a Promise of the first page (requested when the method is called), and an
 * async iterable of every item of every page; `.pages()` walks pages. Each walk starts from the first page the
 * promise holds and fetches the pages after it. `maxPages` and `maxItems` bound walks: iteration yields at most
 * `maxItems` items, `.pages()` stops after the page that reaches it.
 */
export class PagePromise<Item, P> extends APIPromise<P> implements AsyncIterable<Item> {
  declare protected readonly result: Promise<LoadedPage<Item, P>>;
  readonly #load: PageLoader<Item, P>;
  readonly #params: Record<string, unknown> | undefined;
  readonly #pagination: PaginationDescriptor | null;
  readonly #limits: WalkLimits;

  /** Built by the client, which starts the first page; `pagination` null means the call returns a single page. */
  constructor(
    load: PageLoader<Item, P>,
    params: Record<string, unknown> | undefined,
    pagination: PaginationDescriptor | null,
    limits: WalkLimits = {},
  ) {
    super(load(params));
    this.#load = load;
    this.#params = params;
    this.#pagination = pagination;
    this.#limits = limits;
  }

  /** Every page, in order, until the scheme's stop conditions or the limits end the walk. */
  pages(): AsyncIterable<P> {
    const walk = () => this.#walk();
    return {
      async *[Symbol.asyncIterator]() {
        for await (const loaded of walk()) yield loaded.data;
      },
    };
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const maxItems = this.#limits.maxItems ?? Infinity;
    let count = 0;
    for await (const loaded of this.#walk()) {
      for (const item of loaded.items) {
        yield item;
        if (++count >= maxItems) return;
      }
    }
  }

  /** The first page, then page after page, each request being the original params with the paging param set to the next value. */
  async *#walk(): AsyncGenerator<LoadedPage<Item, P>, void, undefined> {
    const scheme = this.#pagination;
    const { maxItems = Infinity, maxPages, pageLimit = Infinity } = this.#limits;
    let params = this.#params;
    const seen = new Set<string>();
    if (scheme && params?.[scheme.param] !== undefined) seen.add(JSON.stringify(params[scheme.param]));
    let firstPageSize: number | undefined;
    let pages = 0;
    let items = 0;
    // The first page was requested with the call: await it even when no page is wanted, so its failure is seen.
    let loaded = await this.result;
    if (maxPages! <= 0 || maxItems <= 0) return;
    for (; ; loaded = await this.#load(params)) {
      pages++;
      items += loaded.items.length;
      firstPageSize ??= loaded.items.length;
      yield loaded;
      if (!scheme || pages >= maxPages! || items >= maxItems) return;
      const next = nextValue(scheme, params ?? {}, loaded);
      if (isLastPage(scheme, params ?? {}, loaded, next, firstPageSize)) return;
      if (maxPages === undefined && pages >= pageLimit)
        throw new LimitError('maxPages', pageLimit, `Iterating past page ${pages}`);
      const key = JSON.stringify(next);
      if (seen.has(key)) {
        throw new PaginationError(`The server repeated ${scheme.param}=${key}; stopping instead of looping forever`);
      }
      seen.add(key);
      params = { ...params, [scheme.param]: next };
    }
  }
}

/** The value of the paging param for the page after `loaded`. */
export function nextValue(scheme: PaginationDescriptor, params: Record<string, unknown>, loaded: PageView): unknown {
  const { from, path, queryParam, start } = scheme.next;
  const current = params[scheme.param];
  switch (from) {
    case 'meta': {
      const value = valueAt(loaded.meta, path);
      return queryParam === undefined || isMissing(value)
        ? value
        : asParamType(queryParamOf(String(value), queryParam), scheme.paramType);
    }
    case 'last_record':
      return loaded.items.length === 0 ? undefined : valueAt(loaded.items[loaded.items.length - 1], path);
    case 'page_number':
      return Number(current ?? start ?? 1) + 1;
    case 'offset':
      return Number(current ?? 0) + loaded.items.length;
  }
}

/** True when any stop condition of the scheme holds for this page. */
export function isLastPage(
  scheme: PaginationDescriptor,
  params: Record<string, unknown>,
  loaded: PageView,
  next: unknown,
  firstPageSize: number,
): boolean {
  const count = loaded.items.length;
  return scheme.stop.some(({ when, key }) => {
    const metaValue = valueAt(loaded.meta, key);
    switch (when) {
      case 'metaFalse':
        return metaValue === false;
      case 'metaTrue':
        return metaValue === true;
      case 'metaMissing':
        return isMissing(metaValue);
      case 'nextMissing':
        return isMissing(next);
      case 'emptyPage':
        return count === 0;
      case 'shortPage':
        return count < pageSize(scheme, params, firstPageSize);
      case 'totalReached': {
        const total = Number(metaValue);
        return !isMissing(metaValue) && Number.isFinite(total) && Number(params[scheme.param] ?? 0) + count >= total;
      }
    }
  });
}

/** The requested page size: the size param, else its spec default, else the size of the first page. */
function pageSize(scheme: PaginationDescriptor, params: Record<string, unknown>, firstPageSize: number): number {
  const requested = Number(scheme.sizeParam === undefined ? undefined : params[scheme.sizeParam]);
  if (Number.isFinite(requested) && requested > 0) return requested;
  return scheme.defaultSize ?? firstPageSize;
}

/** Value at a dotted path ("pagination.cursor"); the value itself when there is no path. */
function valueAt(value: unknown, path: string | undefined): unknown {
  if (path === undefined) return value;
  let current = value;
  for (const part of path.split('.')) current = isRecord(current) ? current[part] : undefined;
  return current;
}

/** null, undefined and "" all mean "no value". */
function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A numeric param read from a URL is text: give the server the number the param declares. */
function asParamType(value: string | undefined, type: PaginationDescriptor['paramType']): unknown {
  if (value === undefined || (type !== 'integer' && type !== 'number')) return value;
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : value;
}

/** A query param of a (possibly relative) URL; undefined when absent or unparsable. */
function queryParamOf(url: string, name: string): string | undefined {
  try {
    return new URL(url, 'http://relative.invalid').searchParams.get(name) ?? undefined;
  } catch {
    return undefined;
  }
}
