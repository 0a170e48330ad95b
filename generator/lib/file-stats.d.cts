/** Options of filesUnder. */
export interface WalkOptions {
  /** Which file names count (default: all). */
  include?: (name: string) => boolean;
  /** Names of directories not entered, at any depth below the root. */
  skip?: ReadonlySet<string>;
}
/** The regular files under `root` (or `root` itself, as '', when it is a file), relative, in a stable order. */
export declare function filesUnder(root: string, options?: WalkOptions): string[];
/** One line per file — `label/relative path`, size, modification time — of `files` under `root`; `seen` shares stats between calls. */
export declare function statLines(label: string, root: string, files: string[], seen?: Map<string, string>): string;
