/**
 * The layout of the caches' files that hold several bodies (connector entries, validator piece packs): one line, a
 * JSON array of rows whose second item is the byte length of a body, then the bodies one after another. A reader
 * reads the first bytes (enough for the index line of its kind of file), and the whole file when the line goes on;
 * a file that does not read back whole (a row without a length, a truncated or padded file) is a miss.
 */

/** An index as read: its rows, and where each row's body is ([start, length] in the file). */
export interface FileIndex {
  /** The rows, as written. */
  rows: unknown[][];
  /** Each row's body: [start, length]. */
  bodies: [start: number, length: number][];
}

/**
 * The index of a file of `size` bytes from its first bytes `head`: 'more' when the index line goes on beyond them,
 * undefined when the file does not read back whole.
 */
export function readIndex(head: Buffer, size: number): FileIndex | 'more' | undefined {
  const end = head.indexOf(0x0a);
  if (end < 0) return head.length < size ? 'more' : undefined;
  let rows: unknown;
  try {
    rows = JSON.parse(head.toString('utf8', 0, end));
  } catch {
    return undefined;
  }
  if (!Array.isArray(rows)) return undefined;
  const bodies: [number, number][] = [];
  let at = end + 1;
  for (const row of rows) {
    if (!Array.isArray(row) || !Number.isInteger(row[1]) || row[1] < 0) return undefined;
    bodies.push([at, row[1] as number]);
    at += row[1] as number;
  }
  return at === size ? { rows: rows as unknown[][], bodies } : undefined;
}
