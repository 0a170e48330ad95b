/**
 * Paging as data. A {@link PaginationDescriptor} (a connector's `pagination[]` entry of the catalogue) says
 * where the next value of the paging param comes from and when the last page is reached; one walker
 * interprets every scheme, so the runtime needs no per-connector code. A next value given as a URL is read by
 * {@link nextFromUrl}, which a descriptor names (`read`) so that only clients paging that way bundle it.
 */

import { LimitError, PaginationError, isRecord } from './errors.js';
import { APIPromise, type CallResult } from './promise.js';

/**
 * How one paging scheme works: a connector's `pagination[]` entry of the catalogue, verbatim shape, plus `read`
 * where `next.queryParam` is set.
 */
export interface PaginationDescriptor {
  /** Informational label (generated descriptors leave it out); the walker is driven by `next` and `stop` only. */
  style?: 'cursor' | 'page' | 'offset' | 'token' | 'link' | 'since_id';
  /** Request param that carries the cursor, page number, offset or token. */
  param: string;
  /** Request param that sets the page size, if any (generated code passes it where a `shortPage` stop reads it). */
  sizeParam?: string;
  /** The size param's spec default, when it has one (generated code passes it where a `shortPage` stop reads it). */
  defaultSize?: number;
  /** Declared type of `param`: a next value read as text from a URL is converted to it (generated code passes it with `next.queryParam`). */
  paramType?: 'string' | 'integer' | 'number' | 'boolean';
  /** Where the next value of `param` comes from. */
  next: { from: 'meta' | 'last_record' | 'page_number' | 'offset'; path?: string; queryParam?: string; start?: number };
  /** The last page is reached when any of these holds. */
  stop: {
    when: 'metaFalse' | 'metaTrue' | 'metaMissing' | 'nextMissing' | 'emptyPage' | 'shortPage' | 'totalReached';
    key?: string;
  }[];
  /**
   * Turns the value `next` points at into the paging value: {@link nextFromUrl} where `next.queryParam` says that
   * value is a URL (without `read` it is used as it is).
   */
  read?: (value: unknown, scheme: PaginationDescriptor) => unknown;
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

/** How far a walk may go: the caller's bounds (a call's `PageOptions` as given). */
export interface WalkLimits {
  /** The caller's bound on items: the walk ends quietly there. */
  maxItems?: number | undefined;
  /** The caller's bound on pages: the walk ends quietly there. */
  maxPages?: number | undefined;
}

/**
 * The result of a list-shaped call: a Promise of the first page (requested when the method is called), and an
 * async iterable of every item of every page; `.pages()` walks pages. Each walk starts from the first page the
 * promise holds and fetches the pages after it. `maxPages` and `maxItems` bound walks: iteration yields at most
 * `maxItems` items, `.pages()` stops after the page that reaches it.
 */
export class PagePromise<Item, P> extends APIPromise<P> implements AsyncIterable<Item> {
  declare protected readonly result: Promise<LoadedPage<Item, P>>;
  /**
   * What a walk needs after the first page, as given: awaiting the call uses none of it. Not a closure: one made
   * here had V8 pretenure list calls' objects, so that every call's page went to the old generation (many more
   * full GCs: 13 instead of 1 in a run of 100-record pages).
   */
  readonly #walkArgs: [
    PageLoader<Item, P>,
    Record<string, unknown> | undefined,
    PaginationDescriptor | null | undefined,
    WalkLimits,
    number | undefined,
  ];
  readonly #maxItems: number;

  /**
   * Built by the client, which starts the first page; without `pagination` the call returns a single page.
   * `pageLimit` is the client's `maxPages` (see {@link walk}).
   */
  constructor(
    load: PageLoader<Item, P>,
    params: Record<string, unknown> | undefined,
    pagination: PaginationDescriptor | null | undefined,
    limits: WalkLimits = {},
    pageLimit?: number,
  ) {
    super(load(params));
    this.#walkArgs = [load, params, pagination, limits, pageLimit];
    this.#maxItems = limits.maxItems ?? Infinity;
  }

  /** Starts a walk over the pages. */
  #walk(): AsyncGenerator<LoadedPage<Item, P>, void, undefined> {
    return walk(this.result, ...this.#walkArgs);
  }

  /** Every page, in order, until the scheme's stop conditions or the limits end the walk (each call walks anew). */
  async *pages(): AsyncGenerator<P, void, undefined> {
    for await (const loaded of this.#walk()) yield loaded.data;
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    let count = 0;
    for await (const loaded of this.#walk()) {
      for (const item of loaded.items) {
        yield item;
        if (++count >= this.#maxItems) return;
      }
    }
  }
}

/**
 * The first page, then page after page, each request being the original params with the paging param set to the
 * next value. The one interpreter of paging schemes: {@link PagePromise} walks with it, and the agent tools run it
 * one step to learn the next page's params. Without `limits.maxPages`, `pageLimit` is the safety limit on pages:
 * reaching it with pages left throws {@link LimitError}.
 */
export async function* walk<L extends PageView>(
  first: Promise<L>,
  load: (params: Record<string, unknown> | undefined) => Promise<L>,
  params: Record<string, unknown> | undefined,
  scheme: PaginationDescriptor | null | undefined,
  { maxItems = Infinity, maxPages }: WalkLimits,
  pageLimit = Infinity,
): AsyncGenerator<L, void, undefined> {
  const param = scheme?.param as string;
  // Paging values requested so far; without one (undefined) a request asks for the first page.
  const seen = new Set([JSON.stringify(params?.[param])]);
  let firstPageSize: number | undefined;
  let items = 0;
  // The first page was requested with the call: await it even when no page is wanted, so its failure is seen.
  let loaded = await first;
  if (maxPages! <= 0 || maxItems <= 0) return;
  for (let pages = 1; ; pages++) {
    const count = loaded.items.length;
    items += count;
    firstPageSize ??= count;
    yield loaded;
    if (!scheme || pages >= maxPages! || items >= maxItems) return;
    const current = params?.[param];
    const { from, path, start } = scheme.next;
    // The value of the paging param for the next page.
    let next =
      from === 'meta'
        ? valueAt(loaded.meta, path)
        : from === 'last_record'
          ? count && valueAt(loaded.items[count - 1], path)
          : from === 'page_number'
            ? Number(current ?? start ?? 1) + 1
            : Number(current ?? 0) + count;
    if (scheme.read) next = scheme.read(next, scheme);
    const size = Number(params?.[scheme.sizeParam!]);
    // null, undefined and '' all mean "no value" (`(x ?? '') === ''`).
    const isLast = scheme.stop.some(({ when, key }) => {
      const value = valueAt(loaded.meta, key);
      return when === 'metaFalse'
        ? value === false
        : when === 'metaTrue'
          ? value === true
          : when === 'metaMissing'
            ? (value ?? '') === ''
            : when === 'nextMissing'
              ? (next ?? '') === ''
              : when === 'emptyPage'
                ? !count
                : when === 'shortPage'
                  ? // The requested page size: the size param, else its spec default, else the size of the first page.
                    count < (size > 0 ? size : (scheme.defaultSize ?? firstPageSize!))
                  : (value ?? '') !== '' && Number(current ?? 0) + count >= Number(value); // totalReached
    });
    if (isLast) return;
    if (maxPages === undefined && pages >= pageLimit)
      throw new LimitError('maxPages', pageLimit, `Iterating past page ${pages}`);
    const key = JSON.stringify(next);
    if (seen.has(key)) throw new PaginationError(`The server repeated ${param}=${key}: paging would loop forever`);
    seen.add(key);
    params = { ...params, [param]: next };
    loaded = await load(params);
  }
}

/** Value at a dotted path ("pagination.cursor"); the value itself when there is no path. */
function valueAt(value: unknown, path: string | undefined): unknown {
  for (const part of path?.split('.') ?? []) value = isRecord(value) ? value[part] : undefined;
  return value;
}

/**
 * The paging value a URL carries (a `read` for schemes whose `next.queryParam` is set): that query param of the
 * (possibly relative) URL, as the number `paramType` declares if it is one; undefined when the value is missing,
 * the param absent or the URL unparsable.
 */
export function nextFromUrl(url: unknown, { next, paramType }: PaginationDescriptor): unknown {
  try {
    // A missing value yields none ("undefined" names no query param).
    const value = new URL(String(url), 'http://x.invalid').searchParams.get(next.queryParam!) ?? undefined;
    return (paramType === 'integer' || paramType === 'number') && value?.trim() && Number.isFinite(+value)
      ? +value
      : value;
  } catch {
    return undefined;
  }
}
