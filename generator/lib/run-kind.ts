/**
 * What kind of run this process made, for the CLI build's code caches (bin/code-cache.cjs): the first run of each
 * kind adds the code it compiled to them. The bin names a run by its command; a command whose runs compile very
 * different code names them more finely (generate: which emitters ran on the main thread).
 */
let kind: string | undefined;

/** Records the kind of this run. */
export function setRunKind(value: string): void {
  kind = value;
}

/**
 * Adds `part` to the kind of this run (once): work that only some runs of a kind do (an edit that compiles validators
 * here) then reaches the code caches too.
 */
export function addToRunKind(part: string): void {
  if (kind === undefined || kind.split('+').includes(part)) return;
  kind = `${kind}+${part}`;
}

/** The kind recorded by the command, if it recorded one. */
export function runKind(): string | undefined {
  return kind;
}
