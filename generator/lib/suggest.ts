/** "Did you mean …?": the closest known name to a mistyped one, for CLI errors and spec diagnostics. */

/** Optimal string alignment distance (Levenshtein with adjacent transpositions), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const rows: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[s.length]![t.length]!;
}

/**
 * The known name closest to `given`, when it is close enough to be a likely typo: at most a third of the name's
 * length in edits (at least one), or `given` is a prefix of exactly one name (`--chec` → `--check`).
 */
export function closest(given: string, known: Iterable<string>): string | undefined {
  const candidates = [...new Set(known)].filter((k) => k !== given);
  if (candidates.length === 0 || given === '') return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of candidates.sort()) {
    const d = editDistance(given, k);
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(Math.max(given.length, best.length) / 3))) return best;
  const prefixed = candidates.filter((k) => given.length >= 2 && k.toLowerCase().startsWith(given.toLowerCase()));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** `; did you mean 'x'?` when a close name exists, else ''. */
export function didYouMean(given: string, known: Iterable<string>, quote = "'"): string {
  const match = closest(given, known);
  return match === undefined ? '' : `; did you mean ${quote}${match}${quote}?`;
}
