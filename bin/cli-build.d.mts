/** The directory of the CLI's build of the current sources (built when missing or stale). */
export function buildCli(): Promise<string>;
/** The CLI's main module: from the build when it can be had, else from source through tsx. */
export function loadCli(): Promise<{ main(argv: string[]): Promise<number>; runKind?(): string | undefined }>;
