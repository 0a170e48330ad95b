/**
 * The project config, `connector-codegen.config.json`: found by walking up from the working directory (or given
 * with `--config`), validated against config.schema.json, and resolved into absolute paths and package naming. Every
 * key is optional and defaults to the built-in behaviour; command-line flags override the file. Paths in the file are
 * relative to the file. The schema check is the caller's (load.ts loadConfig: ajv standalone code,
 * validator.generated.ts), so that this module loads without the validator (cli/noop.ts).
 */
import { didYouMean } from '../lib/suggest.js';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ErrorObject } from 'ajv';
import { displayPath, rememberShownPath } from '../lib/display-path.js';
import { DIAGNOSTIC_CODES, SpecError, type Diagnostic, type DiagnosticCode } from '../spec/diagnostics.js';

/** File name of the config, looked up from the working directory towards the root. */
export const CONFIG_FILE = 'connector-codegen.config.json';

/** The config file as written (config.schema.json documents every key). */
export interface ConfigFile {
  /** JSON Schema of the file, for editors. */
  $schema?: string;
  /** Spec directory, relative to the file. */
  spec?: string;
  /** Output directory, relative to the file. */
  output?: string;
  /** Release state directory (versions and changelogs), relative to the file. */
  release?: string;
  /** Connector ids to generate packages for. */
  connectors?: string[];
  /** Package naming and metadata. */
  packages?: PackagesConfig;
  /** How `diff` and `release` rate spec changes. */
  diff?: DiffConfig;
}

/** Severity of a diff check (generator/diff/CHECKS.md). */
export type DiffSeverity = 'breaking' | 'warning' | 'non-breaking';

/** The config's `diff` section. */
export interface DiffConfig {
  /** Check id → the severity this project gives it. */
  severity?: Record<string, DiffSeverity>;
  /** When removing a deprecated item is a warning instead of breaking: `released` (default), `any`, `off`. */
  deprecation?: 'released' | 'any' | 'off';
}

/** How the generated npm packages are named and described. */
export interface PackagesConfig {
  /** npm scope, e.g. `@acme`. */
  scope?: string;
  /** Name pattern of a connector package: `{scope}`, `{connector}` (kebab-case id), `{id}`. */
  name?: string;
  /** Name pattern of the runtime package: `{scope}`. */
  runtimeName?: string;
  /** SPDX license. */
  license?: string;
  /** package.json `author`. */
  author?: string;
  /** package.json `homepage`. */
  homepage?: string;
  /** package.json `repository`; `directory` may use `{id}` and `{connector}`. */
  repository?: string | { type?: string; url: string; directory?: string };
  /** Registry to publish to (publishConfig.registry). */
  registry?: string;
  /** npm access of scoped packages (publishConfig.access). */
  access?: 'public' | 'restricted';
}

/** Package naming with every default filled in. */
export type ResolvedPackages = Required<Pick<PackagesConfig, 'scope' | 'name' | 'runtimeName' | 'license'>> &
  Omit<PackagesConfig, 'scope' | 'name' | 'runtimeName' | 'license'>;

/** The built-in package naming: today's `@connector-sdk/<kebab-id>` and `@connector-sdk/runtime`, MIT. */
export const DEFAULT_PACKAGES: ResolvedPackages = { scope: '@connector-sdk', name: '{scope}/{connector}', runtimeName: '{scope}/runtime', license: 'MIT' };

/** The config every command works with: absolute paths, defaults applied, flags applied. */
export interface ResolvedConfig {
  /** Absolute path of the config file, when one was found. */
  file?: string;
  /** Absolute spec directory. */
  specDir: string;
  /** How the spec directory was chosen, for messages when it is missing. */
  specFrom: 'flag' | 'config' | 'found' | 'default';
  /** Absolute output directory. */
  outDir: string;
  /**
   * Absolute release state directory: CONNECTOR_CODEGEN_RELEASE_DIR when set, else the config's `release`, else
   * `release/` beside the config (or the spec). The project's, not the generator's: an installed generator is shared.
   */
  releaseDir: string;
  /** Connectors to generate (undefined: all). */
  connectors?: string[];
  /** Package naming and metadata. */
  packages: ResolvedPackages;
  /** How `diff` and `release` rate changes (defaults: no overrides, deprecation `released`). */
  diff: Required<DiffConfig>;
}

/** Flags that override the file (already relative to the working directory). */
export interface ConfigOverrides {
  /** `--config FILE`: use this file instead of looking one up. */
  config?: string;
  /** `--spec DIR`. */
  spec?: string;
  /** `--out DIR`. */
  out?: string;
}

/** The nearest config file at or above `dir`, if any. */
export function findConfigFile(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const candidate = path.join(current, CONFIG_FILE);
    if (isFile(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Name of the spec directory looked for without a config. */
const SPEC_DIR = 'spec';

/** The nearest `spec/` holding a service.yaml at or above `dir`, if any. */
export function findSpecDir(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (isFile(path.join(current, SPEC_DIR, 'service.yaml'))) return path.join(current, SPEC_DIR);
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Checks a config file's parsed `data` (from `text`) against the schema: returns it typed, or throws SpecError with
 * located diagnostics.
 */
export type SchemaCheck = (file: string, text: string, data: unknown) => ConfigFile;

/**
 * Reads, validates (with `checkSchema`) and resolves the config seen from `cwd`. Without a config file (and without
 * --spec) the spec is the nearest spec/ up from `cwd`, and the output goes beside it. Throws SpecError with located
 * diagnostics. Commands use load.ts loadConfig, which brings the schema check.
 */
export function resolveConfig(cwd: string, overrides: ConfigOverrides, checkSchema: SchemaCheck): ResolvedConfig {
  const file = overrides.config !== undefined ? path.resolve(cwd, overrides.config) : findConfigFile(cwd);
  const data = file ? readConfigFile(file, overrides.config !== undefined, checkSchema) : {};
  const found = file || overrides.spec !== undefined ? undefined : findSpecDir(cwd);
  const base = file ? path.dirname(file) : found ? path.dirname(found) : cwd;
  const packages: ResolvedPackages = { ...DEFAULT_PACKAGES, ...data.packages };
  const resolved: ResolvedConfig = {
    specDir: overrides.spec !== undefined ? path.resolve(cwd, overrides.spec) : path.resolve(base, data.spec ?? SPEC_DIR),
    specFrom: overrides.spec !== undefined ? 'flag' : file ? 'config' : found ? 'found' : 'default',
    outDir: overrides.out !== undefined ? path.resolve(cwd, overrides.out) : path.resolve(base, data.output ?? 'generated'),
    releaseDir: process.env['CONNECTOR_CODEGEN_RELEASE_DIR'] ? path.resolve(process.env['CONNECTOR_CODEGEN_RELEASE_DIR']) : path.resolve(base, data.release ?? 'release'),
    packages,
    diff: { severity: { ...data.diff?.severity }, deprecation: data.diff?.deprecation ?? 'released' },
  };
  // Messages name these paths as they were typed.
  if (overrides.spec !== undefined) rememberShownPath(resolved.specDir, overrides.spec);
  if (overrides.out !== undefined) rememberShownPath(resolved.outDir, overrides.out);
  if (overrides.config !== undefined) rememberShownPath(file!, overrides.config);
  if (file) resolved.file = file;
  if (data.connectors) resolved.connectors = [...data.connectors].sort();
  if (file) checkNames(file, packages);
  return resolved;
}

/** Largest config file read (a real one is under 2 KB). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Parses and schema-validates one config file. */
function readConfigFile(file: string, explicit: boolean, checkSchema: SchemaCheck): ConfigFile {
  let text: string;
  // Only a regular file of a sane size is read: a FIFO or /dev/zero given as --config would block or never end.
  const info = statSync(file, { throwIfNoEntry: false });
  const refused = !info ? undefined : info.isDirectory() ? 'it is a directory' : !info.isFile() ? 'it is not a regular file (a FIFO, a device or a socket)' : info.size > MAX_CONFIG_BYTES ? `it is over ${MAX_CONFIG_BYTES / 1024} KiB` : undefined;
  if (refused) throw configError(file, 1, 1, 'CFG001', `cannot read the config${explicit ? ' given with --config' : ''}: ${refused}`);
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw configError(file, 1, 1, 'CFG001', `cannot read the config${explicit ? ' given with --config' : ''}: ${reason}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const { line, col } = jsonErrorPosition(text, error as Error);
    throw configError(file, line, col, 'CFG001', `not valid JSON: ${(error as Error).message.replace(/ in JSON at position \d+.*$/, '')}`);
  }
  return checkSchema(file, text, data);
}

/** Line and column of a JSON.parse error (Node names the offset). */
function jsonErrorPosition(text: string, error: Error): { line: number; col: number } {
  const offset = Number(/position (\d+)/.exec(error.message)?.[1] ?? 0);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, col: before.at(-1)!.length + 1 };
}

/** Schema errors (ajv's) as located diagnostics. */
export function schemaProblems(file: string, text: string, errors: ErrorObject[]): Diagnostic[] {
  const lines = text.split('\n');
  // The JSON pointer's last key, found in the text: enough to place a diagnostic in a small config file.
  const locate = (pointer: string, key?: string): { line: number; col: number } => {
    const name = key ?? pointer.split('/').filter(Boolean).at(-1);
    if (name !== undefined && !/^\d+$/.test(name)) {
      const i = lines.findIndex((l) => l.includes(`"${name}"`));
      if (i >= 0) return { line: i + 1, col: lines[i]!.indexOf(`"${name}"`) + 1 };
    }
    return { line: 1, col: 1 };
  };
  const out = new Map<string, Diagnostic>();
  for (const e of errors) {
    const where = e.instancePath === '' ? 'the config' : e.instancePath.slice(1).replace(/\//g, '.');
    let d: Diagnostic;
    if (e.keyword === 'additionalProperties') {
      const key = (e.params as { additionalProperty: string }).additionalProperty;
      const allowed = Object.keys((e.parentSchema as { properties?: object }).properties ?? {}).filter((k) => k !== '$schema');
      const { line, col } = locate(e.instancePath, key);
      d = diagnostic(file, line, col, 'CFG002', `unknown key '${key}' in ${where} (allowed: ${allowed.join(', ')})`);
    } else if (e.keyword === 'propertyNames') {
      const key = (e.params as { propertyName: string }).propertyName;
      const { line, col } = locate(e.instancePath, key);
      d = diagnostic(file, line, col, 'CFG002', `unknown check id '${key}' in ${where} (connector-codegen diff --list-checks lists them)`);
    } else if (e.keyword === 'oneOf' || e.keyword === 'if' || (e as { propertyName?: string }).propertyName !== undefined) {
      continue; // the branch errors (or the propertyNames error) say what is wrong
    } else {
      const { line, col } = locate(e.instancePath);
      const detail = e.keyword === 'pattern' ? `must match ${(e.params as { pattern: string }).pattern}` : e.keyword === 'enum' ? `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : (e.message ?? 'is invalid');
      d = diagnostic(file, line, col, 'CFG003', `${where} ${detail}, got ${JSON.stringify(e.data)}`);
    }
    out.set(`${d.line}:${d.col}:${d.message}`, d);
  }
  return [...out.values()];
}

function diagnostic(file: string, line: number, col: number, code: DiagnosticCode, message: string): Diagnostic {
  return { file: displayPath(file), line, col, severity: 'error', code, message, hint: DIAGNOSTIC_CODES[code].hint };
}

function configError(file: string, line: number, col: number, code: DiagnosticCode, message: string): SpecError {
  return new SpecError([diagnostic(file, line, col, code, message)]);
}


/** npm package name rules (lowercase, URL-safe, at most 214 characters). */
const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** The npm name of a connector's package. */
export function connectorPackageName(packages: ResolvedPackages, connectorId: string): string {
  return packages.name.replaceAll('{scope}', packages.scope).replaceAll('{connector}', kebab(connectorId)).replaceAll('{id}', connectorId);
}

/** The npm name of the runtime package. */
export function runtimePackageName(packages: ResolvedPackages): string {
  return packages.runtimeName.replaceAll('{scope}', packages.scope);
}

function kebab(id: string): string {
  return id.replace(/_/g, '-');
}

/** Rejects name patterns that cannot give valid npm names (checked on a sample id). */
function checkNames(file: string, packages: ResolvedPackages): void {
  const problems: Diagnostic[] = [];
  for (const [key, name] of [['name', connectorPackageName(packages, 'sample_id')], ['runtimeName', runtimePackageName(packages)]] as const) {
    if (!NPM_NAME.test(name) || name.length > 214 || /\{[a-z]+\}/.test(name)) {
      const text = readFileSync(file, 'utf8').split('\n');
      const i = Math.max(0, text.findIndex((l) => l.includes(`"${key}"`)));
      problems.push(diagnostic(file, i + 1, Math.max(1, text[i]!.indexOf(`"${key}"`) + 1), 'CFG005', `packages.${key} gives the invalid npm package name '${name}'`));
    }
  }
  if (connectorPackageName(packages, 'a') === runtimePackageName(packages)) {
    problems.push(diagnostic(file, 1, 1, 'CFG005', `packages.name and packages.runtimeName give the same package name '${runtimePackageName(packages)}'`));
  }
  if (problems.length) throw new SpecError(problems);
}

/** Rejects `connectors` entries that are not connectors of the spec. */
export function checkConnectorSelection(config: Pick<ResolvedConfig, 'file' | 'connectors'>, specConnectorIds: readonly string[]): void {
  if (!config.connectors || !config.file) return;
  const known = new Set(specConnectorIds);
  const unknown = config.connectors.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const text = readFileSync(config.file, 'utf8').split('\n');
  throw new SpecError(
    unknown.map((id) => {
      const i = Math.max(0, text.findIndex((l) => l.includes(`"${id}"`)));
      return diagnostic(config.file!, i + 1, Math.max(1, text[i]!.indexOf(`"${id}"`) + 1), 'CFG004', `connectors names '${id}', which is not a connector of the spec${didYouMean(id, specConnectorIds)} (known: ${specConnectorIds.join(', ')})`);
    }),
  );
}
