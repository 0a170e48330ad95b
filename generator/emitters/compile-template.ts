/**
 * Handlebars templates, compiled through the run's memo (cache/memo.ts): handlebars' compiler costs a run ~0.1 s of
 * CPU for our templates and loads ~650 KB of modules, while a precompiled template needs only handlebars' runtime.
 * The compiler is loaded when a template is not in the memo. A template behaves as one from `env.compile(text,
 * options)`; partials are compiled the same way and registered compiled, because handlebars compiles a partial given
 * as text with the options of the template that calls it, which a precompiled template does not carry.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import runtime from 'handlebars/runtime.js';
import { rememberSync } from '../cache/memo.js';

/** A handlebars environment (templates, partials, helpers); the runtime has no compiler. */
export type TemplateEnvironment = Omit<typeof import('handlebars'), 'compile' | 'precompile' | 'parse'>;

/** Compile options of our templates (all of them render Markdown or text: nothing is HTML-escaped). */
export type TemplateOptions = { noEscape: true; knownHelpersOnly?: boolean };

/** The global environment. */
const globalEnvironment = runtime as unknown as TemplateEnvironment;

/** A new isolated environment (its own partials and helpers). */
export function createEnvironment(): TemplateEnvironment {
  return globalEnvironment.create() as unknown as TemplateEnvironment;
}

/** `text` compiled with `options` in `env` (default: the global environment). */
export function compileTemplate(text: string, options: TemplateOptions, env: TemplateEnvironment = globalEnvironment): HandlebarsTemplateDelegate {
  const spec = rememberSync('handlebars', JSON.stringify([text, options]), () => {
    const compiler = createRequire(import.meta.url)('handlebars') as typeof import('handlebars');
    return String(compiler.precompile(text, { ...options }));
  });
  return env.template(new Function(`return ${spec}`)() as TemplateSpecification);
}

/** The template in `file`, compiled (as compileTemplate does) when it is first rendered. */
export function lazyTemplate(file: URL, options: TemplateOptions, env: TemplateEnvironment = globalEnvironment): (view: object) => string {
  let template: HandlebarsTemplateDelegate | undefined;
  return (view) => (template ??= compileTemplate(readFileSync(file, 'utf8'), options, env))(view);
}

/** Registers the partial `name` of `env`, compiled as compileTemplate compiles it. */
export function registerPartial(env: TemplateEnvironment, name: string, text: string, options: TemplateOptions): void {
  env.registerPartial(name, compileTemplate(text, options, env));
}
