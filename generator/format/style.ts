/**
 * Which prettier style the generated TypeScript must have: the style of the prettier config that governs the output
 * directory (the nearest one, as prettier finds it), or — when none does — the generated style, written into the
 * output as `.prettierrc.yaml` so that `prettier --check` and editors there agree with it. Finding configs costs a few
 * stat calls; only configs that are not plain JSON (JavaScript, YAML, package.json, .editorconfig) need prettier
 * itself to resolve them.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The style of generated TypeScript: prettier's defaults but 120 columns and single quotes (the repository's .prettierrc.json). */
export const GENERATED_STYLE = { printWidth: 120, tabWidth: 2, useTabs: false, singleQuote: true } as const;

/** Config files prettier reads, in the order it looks for them in each directory. */
const CONFIG_NAMES = [
  'package.json',
  'package.yaml',
  '.prettierrc',
  '.prettierrc.json',
  '.prettierrc.yaml',
  '.prettierrc.yml',
  '.prettierrc.json5',
  '.prettierrc.js',
  '.prettierrc.ts',
  '.prettierrc.mjs',
  '.prettierrc.mts',
  '.prettierrc.cjs',
  '.prettierrc.cts',
  'prettier.config.js',
  'prettier.config.ts',
  'prettier.config.mjs',
  'prettier.config.mts',
  'prettier.config.cjs',
  'prettier.config.cts',
  '.prettierrc.toml',
];

/** The config file the generated output carries when no config of the user's governs it. */
export const OWN_CONFIG = '.prettierrc.yaml';

/** prettier's options (the ones generated code depends on) with their defaults. */
const DEFAULTS: Record<string, unknown> = {
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  jsxSingleQuote: false,
  quoteProps: 'as-needed',
  trailingComma: 'all',
  bracketSpacing: true,
  objectWrap: 'preserve',
  bracketSameLine: false,
  arrowParens: 'always',
  endOfLine: 'lf',
  experimentalTernaries: false,
  experimentalOperatorPosition: 'end',
  embeddedLanguageFormatting: 'auto',
  singleAttributePerLine: false,
};

/** How the output is to be formatted. */
export type OutputStyle =
  | { kind: 'generated'; ownConfig: boolean }
  | { kind: 'config'; file: string; options: Record<string, unknown> }
  | { kind: 'resolve'; file: string };

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The nearest prettier config at or above `dir` (package.json counts only with a "prettier" key), and any .editorconfig. */
export function findStyleFiles(dir: string): { config?: string; editorconfig: string[] } {
  const editorconfig: string[] = [];
  let config: string | undefined;
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (isFile(path.join(current, '.editorconfig'))) editorconfig.push(path.join(current, '.editorconfig'));
    if (!config) {
      for (const name of CONFIG_NAMES) {
        const file = path.join(current, name);
        if (!isFile(file)) continue;
        if (name === 'package.json' && !hasPrettierKey(file)) continue;
        if (name === 'package.yaml') continue; // read by prettier only with a "prettier" key; resolved by prettier if present
        config = file;
        break;
      }
    }
    if (path.dirname(current) === current) return { ...(config ? { config } : {}), editorconfig };
  }
}

function hasPrettierKey(file: string): boolean {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>).prettier !== undefined;
  } catch {
    return false;
  }
}

/** Style files found for an output directory (governingStyleFiles). */
export interface StyleFiles {
  /** The nearest prettier config, if any. */
  config?: string;
  /** Every .editorconfig from the directory up. */
  editorconfig: string[];
}

/**
 * The style files that govern `outDir`: the nearest prettier config and any .editorconfig, not counting the config the
 * output itself holds (ours, from the last run).
 */
export function governingStyleFiles(outDir: string): StyleFiles {
  const found = findStyleFiles(outDir);
  const own = path.join(path.resolve(outDir), OWN_CONFIG);
  if (found.config !== own) return found;
  const above = findStyleFiles(path.dirname(path.resolve(outDir)));
  return { ...(above.config ? { config: above.config } : {}), editorconfig: found.editorconfig };
}

/** The style for `outDir`, from its governing style files (`found`: when the run already looked them up). */
export function outputStyle(outDir: string, found: StyleFiles = governingStyleFiles(outDir)): OutputStyle {
  const config = found.config;
  // Without a prettier config of the user's, the output carries its own (it sets every option an .editorconfig would).
  if (!config) return { kind: 'generated', ownConfig: true };
  if (found.editorconfig.length > 0) return { kind: 'resolve', file: config };
  const options = plainJsonConfig(config);
  if (!options) return { kind: 'resolve', file: config };
  return sameAsGenerated(options) ? { kind: 'generated', ownConfig: false } : { kind: 'config', file: config, options };
}

/** Options of a JSON config without overrides or plugins, else undefined (prettier resolves it). */
function plainJsonConfig(file: string): Record<string, unknown> | undefined {
  const name = path.basename(file);
  if (name !== '.prettierrc.json' && name !== '.prettierrc') return undefined;
  try {
    const options = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!options || typeof options !== 'object' || Array.isArray(options)) return undefined;
    const { $schema: _schema, ...rest } = options as Record<string, unknown>;
    return 'overrides' in rest || 'plugins' in rest ? undefined : rest;
  } catch {
    return undefined; // YAML in .prettierrc, or broken: prettier decides
  }
}

/** Whether resolved prettier options give the generated style for TypeScript. */
export function sameAsGenerated(options: Record<string, unknown>): boolean {
  const wanted: Record<string, unknown> = { ...DEFAULTS, ...GENERATED_STYLE };
  const effective: Record<string, unknown> = { ...DEFAULTS, ...options };
  // An option we do not know (a plugin's) may change the output: prettier decides then.
  if (Object.keys(options).some((key) => !(key in DEFAULTS) && key !== 'filepath' && key !== 'parser' && key !== 'editorconfig')) return false;
  return Object.entries(wanted).every(([key, value]) => effective[key] === value);
}

/** The `.prettierrc.yaml` of an output no config of the user's governs. */
export function ownConfigText(): string {
  return [
    '# Generated by connector-codegen from generator/format/style.ts. Do not edit: a prettier config of your own above this directory changes the style.',
    '# The style of the generated code, so that prettier and editors here keep it as generated. With a config of your',
    '# own, connector-codegen formats the generated code in your style instead.',
    ...Object.entries(GENERATED_STYLE).map(([key, value]) => `${key}: ${String(value)}`),
    'endOfLine: lf',
    '',
  ].join('\n');
}
