/**
 * Handlebars templates, compiled through the run's memo (cache/memo.ts): handlebars' compiler costs a run ~0.1 s of
 * CPU for our templates, while its precompiled form loads in a few milliseconds. The template behaves as one from
 * `env.compile(text, options)`; partials are compiled the same way and registered compiled, because handlebars
 * compiles a partial given as text with the options of the template that calls it, which a precompiled template
 * does not carry.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { rememberSync } from '../cache/memo.js';

/** Compile options of our templates (all of them render Markdown or text: nothing is HTML-escaped). */
export type TemplateOptions = { noEscape: true; knownHelpersOnly?: boolean };

/** `text` compiled with `options` in `env` (default: the global environment). */
export function compileTemplate(text: string, options: TemplateOptions, env: typeof Handlebars = Handlebars): HandlebarsTemplateDelegate {
  const spec = rememberSync('handlebars', JSON.stringify([text, options]), () => String(env.precompile(text, { ...options })));
  return env.template(new Function(`return ${spec}`)() as TemplateSpecification);
}

/** The template in `file`, compiled (as compileTemplate does) when it is first rendered. */
export function lazyTemplate(file: URL, options: TemplateOptions, env: typeof Handlebars = Handlebars): (view: object) => string {
  let template: HandlebarsTemplateDelegate | undefined;
  return (view) => (template ??= compileTemplate(readFileSync(file, 'utf8'), options, env))(view);
}

/** Registers the partial `name` of `env`, compiled as compileTemplate compiles it. */
export function registerPartial(env: typeof Handlebars, name: string, text: string, options: TemplateOptions): void {
  env.registerPartial(name, compileTemplate(text, options, env));
}
