/** The directory of the CLI's build of the current sources (built when missing or stale). */
export function buildCli(): Promise<string>;
/** The CLI's main module: from the build (`dir`, from buildCli) when it can be had, else from source through tsx. */
export function loadCli(dir?: string): Promise<{ main(argv: string[]): Promise<number>; runKind?(): string | undefined }>;
/** Runs the CLI on `argv` (a `generate` with nothing to do answered without loading the CLI); returns the exit code. */
export function runCli(argv: string[]): Promise<number>;
