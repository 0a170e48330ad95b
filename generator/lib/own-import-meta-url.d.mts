import type { Plugin } from 'esbuild';
/** Replaces `import.meta.url` in each TypeScript module with that module's own file URL. */
export declare const ownImportMetaUrl: Plugin;
