/**
 * The Markdown reference, from the spec: generated/docs/README.md (index of connectors),
 * generated/docs/service.md (the common contract), generated/docs/connectors/<id>.md (one page per
 * connector), and the same connector page inside each package as generated/<id>/REFERENCE.md (published with
 * it, so the package README's link resolves on npm too).
 */
import { splitEmitter } from '../types.js';
import { clientGuide } from './client-guide.js';
import { connectorView } from './connector-view.js';
import { cutPage, docsTreePage, PACKAGE_REFERENCE, packagePage } from './links.js';
import { commonView, indexView, serviceView, type CommonView } from './service-view.js';
import { pages } from './templates.js';

/** The appendix of each common view (commonView gives every connector of a run the same one): rendered once. */
const appendices = new WeakMap<CommonView, string>();

/** Writes the reference. */
export const docsEmitter = splitEmitter({
  name: 'docs',
  connector(ir, connector) {
    const page = pages();
    const common = commonView(ir);
    // Rendered once; the two copies differ only in links and the appendix (see links.ts).
    const body = cutPage(page.connector({ ...connectorView(ir, connector), ...common }));
    return new Map([
      [`docs/connectors/${connector.id}.md`, docsTreePage(body, connector.id)],
      [`${connector.id}/${PACKAGE_REFERENCE}`, packagePage(body, appendixOf(common))],
    ]);
  },
  shared(ir) {
    const page = pages();
    const files = new Map<string, string>();
    files.set('docs/README.md', page.index(indexView(ir)));
    files.set('docs/service.md', page.service({ ...serviceView(ir), ...commonView(ir) }));
    const example = ir.connectors[0];
    if (example) files.set('docs/client.md', page.client({ runtimeName: ir.packaging.runtime.name, packageName: example.package.name, guide: clientGuide(ir, example, { mockSources: true }) }));
    return files;
  },
});

function appendixOf(common: CommonView): string {
  let appendix = appendices.get(common);
  if (appendix === undefined) appendices.set(common, (appendix = pages().appendix(common)));
  return appendix;
}
