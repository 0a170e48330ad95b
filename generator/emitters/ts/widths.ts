/**
 * Display widths of printed text, as prettier's document printer measures them (its getStringWidth): printable ASCII
 * by length, the rest character by character, with prettier's own function for what needs Unicode tables.
 */
import { createRequire } from 'node:module';

let prettierStringWidth: ((text: string) => number) | undefined;

/**
 * Characters whose width prettier takes as 1 whatever surrounds them: Latin-1 and Latin Extended letters and signs,
 * general punctuation (dashes, quotes, ellipsis) and the four simple arrows. None is an emoji, a mark, wide, or part
 * of an emoji sequence (© ®, ‼ ⁉ and ↔… are, and are left out).
 */
function isPlainWide(code: number): boolean {
  if (code >= 0xa0 && code <= 0x2ff) return code !== 0xa9 && code !== 0xae;
  if (code >= 0x2010 && code <= 0x205f) return code !== 0x203c && code !== 0x2049;
  return code >= 0x2190 && code <= 0x2193;
}

/**
 * prettier's getStringWidth: printable ASCII counts its length; control characters count 0; east-asian wide and
 * fullwidth characters 2, combining marks 0, emoji sequences 1 or 2, which prettier's own function (loaded on first
 * need) measures.
 */
export function stringWidth(text: string): number {
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7f) return otherWidth(text);
  }
  return n;
}

/**
 * The width of `text`, or some number over `max` once its start alone is wider: fits() need not measure the rest of
 * a long text (a tool's description) that cannot fit anyway. Widths are never negative, so a start of printable ASCII
 * and characters that always count 1 (isPlainWide) wider than `max` settles it; anything else is measured whole.
 */
export function widthUpTo(text: string, max: number): number {
  const n = text.length;
  if (n <= max) return stringWidth(text);
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && !isPlainWide(code))) return stringWidth(text);
    if (i >= max) return i + 1;
  }
  return n;
}

/** The width of a text that is not all printable ASCII (DEL, which counted 1 there, now counts 0, as in prettier). */
function otherWidth(text: string): number {
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f) width++;
    else if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) continue;
    else if (isPlainWide(code)) width++;
    else {
      prettierStringWidth ??= (createRequire(import.meta.url)('prettier') as { util: { getStringWidth: (text: string) => number } }).util.getStringWidth;
      return prettierStringWidth(text);
    }
  }
  return width;
}

