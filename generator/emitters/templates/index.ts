/**
 * The handlebars templates of templates/ (READMEs, reference pages, the client guide), precompiled: compiling them
 * costs a cold run more than rendering (~130 ms of CPU), so `npm run build:templates` compiles them once into
 * precompiled.generated.ts and a run only loads handlebars' runtime. A template edited since then (its text no longer
 * has the hash it was precompiled from) is compiled from its text instead, so output never depends on remembering to
 * rebuild; a test keeps the committed module current.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import RuntimeModule from 'handlebars/runtime.js';
import { PRECOMPILED } from './precompiled.generated.js';

/** Handlebars without its compiler (its typings describe only the full package, a superset). */
type Handlebars = typeof import('handlebars');
const Runtime = RuntimeModule as unknown as Handlebars;

/** Where the templates are. */
export const TEMPLATE_DIR = new URL('../../../templates/', import.meta.url);

/** Compile options of every template (file name without `.md.hbs`): Markdown, so nothing is HTML-escaped. */
export const TEMPLATES: Record<string, CompileOptions> = {
  'mcp-readme': { noEscape: true },
  'package-readme': { noEscape: true },
  'partial-client': { noEscape: true, knownHelpersOnly: true },
  'partial-envelope': { noEscape: true, knownHelpersOnly: true },
  'partial-errors': { noEscape: true, knownHelpersOnly: true },
  'partial-search': { noEscape: true, knownHelpersOnly: true },
  'reference-appendix': { noEscape: true, knownHelpersOnly: true },
  'reference-client': { noEscape: true, knownHelpersOnly: true },
  'reference-connector': { noEscape: true, knownHelpersOnly: true },
  'reference-index': { noEscape: true, knownHelpersOnly: true },
  'reference-service': { noEscape: true, knownHelpersOnly: true },
};

/** A rendering function. */
export type Render = (view: object) => string;

/** A template's text. */
export function templateText(name: string): string {
  return readFileSync(new URL(`${name}.md.hbs`, TEMPLATE_DIR), 'utf8');
}

/** The hash a precompiled template is keyed by. */
export function templateHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** The template `name`, in a handlebars environment of its own with `partials` (names of partial-<name> templates). */
export function template(name: string, partials: string[] = []): Render {
  const env = Runtime.create();
  for (const partial of partials) env.registerPartial(partial, load(env, `partial-${partial}`));
  return load(env, name);
}

function load(env: Handlebars, name: string): Render {
  const options = TEMPLATES[name];
  if (!options) throw new Error(`internal: no template ${name} in templates/index.ts`);
  const text = templateText(name);
  const precompiled = PRECOMPILED[name];
  if (precompiled?.hash === templateHash(text)) return env.template(precompiled.spec as TemplateSpecification);
  // Edited since `npm run build:templates`: the compiler (full handlebars) is loaded only for this.
  const compiler = (createRequire(import.meta.url)('handlebars') as Handlebars).create();
  for (const [partial, fn] of Object.entries(env.partials as Record<string, HandlebarsTemplateDelegate>)) compiler.registerPartial(partial, fn);
  return compiler.compile(text, options);
}
