/**
 * Text matching of the uniform search: words (for `keyword` and `fuzzy`), SQL LIKE patterns (`like`) and the
 * bounded edit distance `fuzzy` allows.
 */

/** Runs of anything but letters (\p{L}) and decimal digits (\p{Nd}) separate words. */
const WORD_SEPARATORS = /[^\p{L}\p{Nd}]+/u;

/** The words of a text, lower-cased (split first, then lower-cased), in order, duplicates kept. */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const part of text.split(WORD_SEPARATORS)) if (part !== '') words.push(part.toLowerCase());
  return words;
}

/** The distinct words of a text, in first-seen order. */
export function distinctWordsOf(text: string): string[] {
  return [...new Set(wordsOf(text))];
}

/** Length of a word in letters (code points). */
export function letterCount(word: string): number {
  let n = 0;
  for (const _ of word) n++;
  return n;
}

/** Edits `fuzzy` allows for an operand word: 0 up to 4 letters, 1 for 5–8, 2 beyond. */
export function allowedEdits(word: string): number {
  const n = letterCount(word);
  return n <= 4 ? 0 : n <= 8 ? 1 : 2;
}

/**
 * Levenshtein distance (insert, delete, substitute; one code point each) between two words when it is at most
 * `max`, else `max + 1`. Rows of the matrix stop early once every cell exceeds `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  const x = Array.from(a);
  const y = Array.from(b);
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      row.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = row;
  }
  return Math.min(prev[y.length]!, max + 1);
}

/**
 * A `like` pattern as a matcher over whole values, case-insensitive (both sides lower-cased): `%` is any run of
 * characters (possibly empty), `_` exactly one character (code point), `\` makes the next character literal
 * (a trailing `\` is a literal backslash).
 */
export function likeMatcher(pattern: string): (value: string) => boolean {
  let source = '';
  const chars = Array.from(pattern.toLowerCase());
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    if (c === '\\' && i + 1 < chars.length) source += escapeRegExp(chars[++i]!);
    else if (c === '%') source += '.*';
    else if (c === '_') source += '.';
    else source += escapeRegExp(c);
  }
  const re = new RegExp(`^${source}$`, 'su');
  return (value) => re.test(value.toLowerCase());
}

function escapeRegExp(c: string): string {
  // Only syntax characters may be escaped under the `u` flag.
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}
