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

function fill(page: string, target: Target): string {
  const text = page.replace(/⟦(service:)?([a-zA-Z-]+)⟧/g, (_, service: string | undefined, name: string) => (service ? target.service(name as ServiceSection) : (target.slots[name] ?? '')));
  // An emptied slot may leave an empty line behind: collapse blank runs again.
  return `${text.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}

/** The page of generated/docs/connectors/<id>.md. */
export function docsTreePage(page: string, connectorId: string): string {
  return fill(page, docsTree(connectorId));
}

/** The page of generated/<id>/REFERENCE.md, with the common contract's excerpt. */
export function packagePage(page: string, appendix: string): string {
  return fill(page, packageCopy(appendix));
}
