/**
 * Where a connector reference links to. The same page is emitted twice: in the repository's docs tree
 * (generated/docs/connectors/<id>.md, linking to the common contract page next to it) and inside the published
 * package (generated/<id>/REFERENCE.md, which carries the parts of the common contract it cites in an appendix,
 * so every link resolves in the npm tarball too). The page is rendered once with placeholders (`⟦…⟧`) where
 * the two differ; `finishPage` fills them in per target — rendering twice would double the emitter's time.
 */

/** File name of the reference inside each package (listed in the package's "files", linked from its README). */
export const PACKAGE_REFERENCE = 'REFERENCE.md';

/** Anchors of the common contract that connector pages link to (ids on both service.md and the appendix). */
export const SERVICE_ANCHORS = {
  envelope: 'envelope',
  errors: 'errors',
  search: 'uniform-search',
  searchSemantics: 'search-semantics',
  limits: 'limits',
  assumptions: 'assumptions',
} as const;

/** A section of the common contract. */
export type ServiceSection = keyof typeof SERVICE_ANCHORS;

/** The placeholder of a link to a section of the common contract. */
export const serviceLink = (section: ServiceSection) => `⟦service:${section}⟧`;

/** The placeholder of a part that only one target has: the navigation line, contents entries, appendix. */
export const slot = (name: 'nav' | 'contents' | 'all-limits' | 'all-assumptions' | 'appendix') => `⟦${name}⟧`;

/** What one target puts in the placeholders. */
interface Target {
  service(section: ServiceSection): string;
  slots: Record<string, string>;
}

/** The docs-tree page: links to service.md and the index next to it. */
function docsTree(connectorId: string): Target {
  return {
    service: (section) => `../service.md#${SERVICE_ANCHORS[section]}`,
    slots: {
      nav: `[All connectors](../README.md) · [Common contract](../service.md) · [Package README](../../${connectorId}/README.md)`,
      contents: '',
      'all-limits': ' (all rows: [common contract](../service.md#limits))',
      'all-assumptions': ' (every assumption: [common contract](../service.md#assumptions))',
      appendix: '',
    },
  };
}

/** The package copy: links within itself; the common contract's excerpt is appended. */
function packageCopy(appendix: string): Target {
  return {
    // Limits and assumptions are not in the excerpt: the page's own sections of them.
    service: (section) => `#${section === 'limits' || section === 'assumptions' ? section : SERVICE_ANCHORS[section]}`,
    slots: {
      nav: '[Package README](README.md)',
      contents: '- Common contract: [envelope](#envelope), [errors](#errors), [uniform search](#uniform-search)',
      'all-limits': '',
      'all-assumptions': '',
      appendix: `---\n\nThe parts of the common contract this page cites, for readers of the published package.\n\n${appendix}`,
    },
  };
}

/**
 * A rendered page cut at its placeholders: the texts between them (even positions) and each placeholder's name, with
 * `service:` for a link (odd positions). Cut once, filled for both targets.
 */
export type PlaceholderPage = readonly string[];

/** Cuts a page as pages() renders it (no run of three newlines: templates.ts) at its placeholders. */
export function cutPage(page: string): PlaceholderPage {
  return page.split(/⟦((?:service:)?[a-zA-Z-]+)⟧/);
}

/**
 * The page with the placeholders filled; a run of three or more newlines collapses to a blank line (an emptied slot
 * may leave one behind) and the text ends with one newline. The cut texts hold no such run, so runs can only form
 * where a filled text meets its neighbours: the pieces are joined with the newlines at each junction counted, rather
 * than the whole page scanned again.
 */
function fill(page: PlaceholderPage, target: Target): string {
  const parts: string[] = [];
  let tail = 0; // newlines at the end of what is joined so far (never more than two)
  const add = (piece: string) => {
    let lead = 0;
    while (lead < piece.length && piece.charCodeAt(lead) === 10) lead++;
    if (lead > 0 && tail + lead > 2) piece = piece.slice(lead - Math.max(0, 2 - tail));
    if (piece === '') return;
    parts.push(piece);
    let end = 0;
    while (end < piece.length && piece.charCodeAt(piece.length - 1 - end) === 10) end++;
    tail = end === piece.length ? tail + end : end;
  };
  for (let i = 0; i < page.length; i++) {
    if (i % 2 === 0) add(page[i]!);
    else {
      const name = page[i]!;
      const value = name.startsWith('service:') ? target.service(name.slice('service:'.length) as ServiceSection) : (target.slots[name] ?? '');
      add(value.includes('\n\n\n') ? value.replace(/\n{3,}/g, '\n\n') : value);
    }
  }
  // The end trimmed of white space, then one newline.
  while (parts.length) {
    const last = parts.pop()!.trimEnd();
    if (last !== '') {
      parts.push(last);
      break;
    }
  }
  parts.push('\n');
  return parts.join('');
}

/** The page of generated/docs/connectors/<id>.md. */
export function docsTreePage(page: PlaceholderPage, connectorId: string): string {
  return fill(page, docsTree(connectorId));
}

/** The page of generated/<id>/REFERENCE.md, with the common contract's excerpt. */
export function packagePage(page: PlaceholderPage, appendix: string): string {
  return fill(page, packageCopy(appendix));
}
