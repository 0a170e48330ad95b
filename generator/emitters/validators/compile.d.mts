/** Types of compile.mjs (plain JavaScript, so worker threads can load it without a TypeScript loader). */
export declare function compile(job: { key: string; schemas: [string, object][]; exports: Record<string, string> }): { key: string; code: string };
