/**
 * The build of a package that inlines third-party code: one whose manifest lists devDependencies (the packages
 * to inline, at exact versions). Today that is the MCP server, which inlines the MCP SDK and ajv so that
 * installing it from a registry needs only the packages connector-codegen publishes.
 *
 * tsc has compiled the package into `.build/tsc/` (type-checked ESM and declarations). From there:
 * - `dist/cjs/index.js`: the main entry as one CommonJS bundle (esbuild): third-party code inlined, the package's
 *   dependencies and Node's built-ins left as imports. CommonJS so that `require()` works on Node 18; one copy of
 *   the implementation serves both formats, so there is no dual-package state.
 * - `dist/esm/index.js`: the ESM entry, re-exporting the bundle's names (Node reads them from esbuild's export
 *   annotation; bundlers follow the re-export).
 * - each executable (`bin`) as tsc wrote it; it may import only the main entry (`./index.js`) and Node.
 * - `dist/{esm,cjs}/*.d.ts`: the declarations the main entry reaches. They may import only dependencies: a type of
 *   an inlined package is not part of the API (the package does not depend on it).
 * - `dist/THIRD-PARTY-LICENSES.md`: name, version, license and license text of every package inlined.
 */
import { builtinModules } from 'node:module';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BUNDLE_INPUT_DIR } from '../emitters/packages/manifest.js';
import { displayPath } from '../lib/display-path.js';

type Esbuild = typeof import('esbuild');

/** The parts of a package manifest the bundler reads. */
export interface BundleManifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  /** Packages to inline: name → exact version. */
  devDependencies?: Record<string, string>;
  bin?: Record<string, string>;
}

/** File of the license notices, inside dist/. */
export const NOTICES_FILE = 'THIRD-PARTY-LICENSES.md';

/** Whether the build bundles this package (it lists packages to inline). */
export function isBundled(manifest: BundleManifest): boolean {
  return Object.keys(manifest.devDependencies ?? {}).length > 0;
}

const builtins = new Set(builtinModules);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`), or undefined for relative and Node's. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:') || builtins.has(specifier.split('/')[0]!)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Module specifiers of a JavaScript or declaration file (static imports, re-exports, import() types). */
function specifiers(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

async function newestMtime(files: string[]): Promise<number> {
  const times = await Promise.all(files.map((f) => stat(f).then((s) => s.mtimeMs)));
  return Math.max(0, ...times);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
}

/** The declaration files `index.d.ts` reaches, relative to `input`; each may import only `dependencies`. */
async function publicDeclarations(input: string, manifest: BundleManifest): Promise<string[]> {
  const reached = new Set<string>();
  const queue = ['index.d.ts'];
  while (queue.length) {
    const file = queue.shift()!;
    if (reached.has(file)) continue;
    reached.add(file);
    const code = await readFile(path.join(input, file), 'utf8').catch(() => {
      throw new Error(`bundling ${manifest.name}: ${file} is missing from ${displayPath(input)}`);
    });
    for (const reference of code.matchAll(/^\/\/\/\s*<reference\s+types="([^"]+)"/gm)) {
      throw new Error(`the types of ${manifest.name} (${file}) reference the types of '${reference[1]}', which its users need not have: keep such types out of its public API`);
    }
    for (const specifier of specifiers(code)) {
      const dependency = packageOf(specifier);
      if (dependency !== undefined) {
        if (!manifest.dependencies?.[dependency]) throw new Error(`the types of ${manifest.name} (${file}) import '${specifier}', which is ${manifest.devDependencies?.[dependency] ? 'inlined by the bundle' : 'not a dependency'}: keep its types out of the public API`);
      } else if (specifier.startsWith('.')) queue.push(path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.d.ts')));
    }
  }
  return [...reached].sort();
}

/** The directory of the package a bundled file belongs to (the segment after the last node_modules/). */
function packageRoot(file: string): string | undefined {
  const parts = file.split(path.sep);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) return undefined;
  return parts.slice(0, at + (parts[at + 1]?.startsWith('@') ? 3 : 2)).join(path.sep);
}

/** One inlined package and its license text. */
interface Notice {
  name: string;
  version: string;
  license: string;
  text: string;
  /** Its `engines.node`, if it says. */
  node?: string;
}

/** The lowest major version of a `>=N…` range (undefined for other forms: those are not compared). */
function lowestMajor(range: string | undefined): number | undefined {
  const match = range?.trim().match(/^>=\s*v?(\d+)(?:\.\d+){0,2}$/);
  return match ? Number(match[1]) : undefined;
}

/** Name, version, license and license text of every package the bundle holds; throws for one without a license file. */
async function notices(roots: Set<string>, bundleOf: string): Promise<Notice[]> {
  const out = await Promise.all(
    [...roots].map(async (root) => {
      const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { name: string; version: string; license?: string; engines?: { node?: string } };
      const files = (await readdir(root)).filter((f) => /^(licen[cs]e|copying|notice)(\.|-|$)/i.test(f)).sort();
      if (files.length === 0) throw new Error(`${bundleOf} cannot inline ${manifest.name}@${manifest.version}: it ships no license file, whose text the bundle must carry`);
      const text = (await Promise.all(files.map((f) => readFile(path.join(root, f), 'utf8')))).join('\n\n').trim();
      return { name: manifest.name, version: manifest.version, license: manifest.license ?? 'see the text', text, ...(manifest.engines?.node ? { node: manifest.engines.node } : {}) };
    }),
  );
  // One entry per name and version (npm can install the same version twice).
  const unique = new Map(out.map((n) => [`${n.name}@${n.version}`, n]));
  return [...unique.values()].sort((a, b) => (a.name === b.name ? (a.version < b.version ? -1 : 1) : a.name < b.name ? -1 : 1));
}

function noticesText(manifest: BundleManifest, list: Notice[]): string {
  return [
    `# Third-party software in ${manifest.name}@${manifest.version}`,
    '',
    `\`dist/cjs/index.js\` bundles the following packages (inlined by esbuild when the package was built), so that`,
    'installing it fetches none of them. Their licenses:',
    '',
    ...list.map((n) => `- ${n.name} ${n.version} (${n.license})`),
    '',
    ...list.flatMap((n) => [`## ${n.name} ${n.version} — ${n.license}`, '', '```text', n.text, '```', '']),
  ].join('\n');
}

/**
 * Writes dist/ of a bundled package from its tsc output (see the module comment), unless dist/ is newer than every
 * input. Returns whether dist/ changed.
 */
export async function bundlePackage(dir: string, manifest: BundleManifest, esbuild: Esbuild): Promise<boolean> {
  const input = path.join(dir, BUNDLE_INPUT_DIR);
  const dist = path.join(dir, 'dist');
  const mainOut = path.join(dist, 'cjs/index.js');
  const inputs = [...(await filesUnder(input)), path.join(dir, 'package.json')];
  if (existsSync(mainOut) && existsSync(path.join(dist, NOTICES_FILE)) && (await stat(mainOut)).mtimeMs >= (await newestMtime(inputs))) return false;

  const dependencies = Object.keys(manifest.dependencies ?? {});
  const inlined = manifest.devDependencies ?? {};
  const banner = `/* ${manifest.name}@${manifest.version}, built by connector-codegen. Third-party code inlined here: see ../${NOTICES_FILE}. */`;
  const entry = path.join(input, 'index.js');
  let result;
  try {
    result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node18',
      external: dependencies.flatMap((d) => [d, `${d}/*`]),
      banner: { js: banner },
      metafile: true,
      write: false,
      outfile: mainOut,
      absWorkingDir: dir,
      logLevel: 'silent',
    });
  } catch (error) {
    const errors = (error as { errors?: { text: string; location?: { file: string; line: number } }[] }).errors ?? [];
    throw new Error(`bundling ${manifest.name} failed:\n${errors.map((e) => `  ${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`).join('\n') || (error as Error).message}`);
  }

  // What got inlined: every package under a node_modules/ among the inputs. Own code imports only what it declares.
  const roots = new Set<string>();
  for (const [file, meta] of Object.entries(result.metafile.inputs)) {
    const absolute = path.resolve(dir, file);
    const root = packageRoot(absolute);
    if (root) roots.add(root);
    else
      for (const imported of meta.imports) {
        const name = imported.original === undefined ? undefined : packageOf(imported.original);
        if (name !== undefined && !dependencies.includes(name) && inlined[name] === undefined) {
          throw new Error(`${path.relative(input, absolute)} of ${manifest.name} imports '${imported.original}', which is neither a dependency nor a package to inline (devDependencies)`);
        }
      }
  }
  const list = await notices(roots, manifest.name);
  for (const [name, version] of Object.entries(inlined)) {
    const found = list.filter((n) => n.name === name);
    if (found.length === 0) continue; // declared but unused: nothing inlined
    if (/^\d+\.\d+\.\d+/.test(version) && !found.some((n) => n.version === version)) {
      throw new Error(`${manifest.name} pins ${name}@${version}, but the bundle would inline ${found.map((n) => n.version).join(', ')} (connector-codegen's installation): run npm install in connector-codegen`);
    }
  }

  // The package must not promise a Node version that code it carries does not run on.
  const promised = lowestMajor(manifest.engines?.node);
  for (const n of list) {
    const needed = lowestMajor(n.node);
    if (promised !== undefined && needed !== undefined && needed > promised) {
      throw new Error(`${manifest.name} declares engines.node "${manifest.engines!.node}", but it inlines ${n.name}@${n.version}, which needs Node "${n.node}"`);
    }
  }

  // The names the ESM entry re-exports: the entry's exports, read by esbuild.
  const shape = await esbuild.build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', packages: 'external', metafile: true, write: false, outdir: path.join(dir, '.build/shape'), absWorkingDir: dir, logLevel: 'silent' });
  const names = Object.values(shape.metafile.outputs).find((o) => o.entryPoint)?.exports ?? [];

  const files = new Map<string, string>();
  files.set('cjs/index.js', result.outputFiles[0]!.text);
  files.set('cjs/package.json', '{ "type": "commonjs" }\n');
  files.set(
    'esm/index.js',
    `${banner}\n// The implementation is the CommonJS bundle (one copy for both formats); these are its names.\n${names.length ? `export { ${[...names].sort().join(', ')} } from '../cjs/index.js';\n` : ''}`,
  );
  for (const file of await publicDeclarations(input, manifest)) {
    const text = await readFile(path.join(input, file), 'utf8');
    files.set(`esm/${file}`, text);
    files.set(`cjs/${file}`, text);
  }
  for (const [command, target] of Object.entries(manifest.bin ?? {})) {
    const rel = path.posix.relative('dist', path.posix.normalize(target));
    if (!rel.startsWith('esm/')) throw new Error(`${manifest.name}: bin ${command} (${target}) must be under dist/esm/`);
    const code = await readFile(path.join(input, rel.slice('esm/'.length)), 'utf8');
    const outside = specifiers(code).filter((s) => s !== './index.js' && (s.startsWith('.') || packageOf(s) !== undefined));
    if (outside.length) throw new Error(`${manifest.name}: bin ${command} may import only the package's main entry ('./index.js'), not ${outside.map((s) => `'${s}'`).join(', ')}`);
    files.set(rel, code);
  }
  files.set(NOTICES_FILE, noticesText(manifest, list));

  await rm(dist, { recursive: true, force: true });
  for (const [rel, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await mkdir(path.dirname(path.join(dist, rel)), { recursive: true });
    await writeFile(path.join(dist, rel), text);
  }
  return true;
}
