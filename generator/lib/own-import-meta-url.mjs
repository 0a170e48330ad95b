// An esbuild plugin that replaces `import.meta.url` in each TypeScript module with that module's own file URL, so a
// bundle resolves paths relative to a source file exactly as the source does. Plain JavaScript: bin/cli-build.cjs
// uses it before any TypeScript can load, and (not being .ts) this file is never rewritten by it.
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** @type {import('esbuild').Plugin} */
export const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
      if (args.path.endsWith('own-import-meta-url.mjs')) return undefined;
      return {
        contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};
