/**
 * The handlebars templates of the reference (templates/reference-*.md.hbs and their partials), loaded once per
 * process (precompiled: templates/index.ts). Output is Markdown: nothing is HTML-escaped; view models escape table
 * cells themselves.
 */
import { template } from '../templates/index.js';

/** Partials the pages share: the common contract's envelope, errors and uniform search sections. */
const PARTIALS = ['envelope', 'errors', 'search'] as const;

/** A compiled page template. */
export type Page = (view: object) => string;

/** The page templates by name. */
export interface Pages {
  index: Page;
  service: Page;
  connector: Page;
  /** The common contract's excerpt appended to the package copy of a connector page. */
  appendix: Page;
  /** The client guide (options, errors, retries, limits, logging, fetch, mock) for every package. */
  client: Page;
}

let compiled: Pages | undefined;

/** The page templates, compiled on first use. */
export function pages(): Pages {
  if (compiled) return compiled;
  const compile = (name: string): Page => {
    const render = template(`reference-${name}`, [...PARTIALS]);
    // Blank runs left by skipped sections collapse to one blank line; the file ends with one newline.
    return (view) => `${render(view).replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
  };
  compiled = { index: compile('index'), service: compile('service'), connector: compile('connector'), appendix: compile('appendix'), client: compile('client') };
  return compiled;
}
