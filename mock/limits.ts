/** The mock's stated limits (shared by the server and the CLI, which checks them before loading the mock). */

/** Most records per entity the mock serves (`--records`): each is computed on demand, but a full scan reads them all. */
export const MAX_RECORDS = 1_000_000;

/** Default number of sources that may be created (beyond the one per connector ready at start); more answer 429. */
export const DEFAULT_MAX_SOURCES = 1000;
