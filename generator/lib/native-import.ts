/**
 * import() of a module that is not part of the CLI's own code (a file built at run time), through Node's ES module
 * loader. The CLI build runs as scripts with V8 code caches (bin/code-cache.cjs), where import() cannot be used: Node
 * 20 loses the dynamic-import callback of a function that comes from a code cache. The build's loader provides the
 * loader's import under this symbol; from source it is a plain import().
 */
const NATIVE_IMPORT = Symbol.for('connector-codegen.native-import');

/** Imports the module `specifier` (a file URL or a package name). */
export function nativeImport(specifier: string): Promise<unknown> {
  const provided = (globalThis as Record<symbol, ((specifier: string) => Promise<unknown>) | undefined>)[NATIVE_IMPORT];
  return provided ? provided(specifier) : import(specifier);
}
