/**
 * The handlebars templates of the reference (templates/reference-*.md.hbs and their partials), compiled once
 * per process in an isolated handlebars environment. Output is Markdown: nothing is HTML-escaped; view models
 * escape table cells themselves.
 */
import { readFileSync } from 'node:fs';
import { compileTemplate, createEnvironment, registerPartial, type TemplateOptions } from '../compile-template.js';

const TEMPLATE_DIR = new URL('../../../templates/', import.meta.url);

/** Partials the pages share: the common contract's envelope, errors and uniform search sections. */
const PARTIALS = ['envelope', 'errors', 'search'] as const;

/** A compiled page template. */
export type Page = (view: object) => string;

function read(name: string): string {
  return readFileSync(new URL(name, TEMPLATE_DIR), 'utf8');
}

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
  const env = createEnvironment();
  const options: TemplateOptions = { noEscape: true, knownHelpersOnly: true };
  for (const name of PARTIALS) registerPartial(env, name, read(`partial-${name}.md.hbs`), options);
  const compile = (name: string): Page => {
    const template = compileTemplate(read(`reference-${name}.md.hbs`), options, env);
    // Blank runs left by skipped sections collapse to one blank line; the file ends with one newline.
    return (view) => `${template(view).replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
  };
  compiled = { index: compile('index'), service: compile('service'), connector: compile('connector'), appendix: compile('appendix'), client: compile('client') };
  return compiled;
}
