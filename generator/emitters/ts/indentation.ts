/**
 * Indentation of printed lines (prettier's indent queue): each nesting of indents and aligns is made once per style and
 * kept, with its text, its width and the line break that starts a line at it.
 */
import type { PrintOptions } from './printer.js';

/** One step of an indentation: an indent, or an align by a width or a string (prettier's indent queue). */
type IndentStep = { kind: 'indent' } | { kind: 'width'; width: number } | { kind: 'string'; string: string };

/** An indentation: its text and width; the indentations nested in it are made once and kept. */
export interface Indentation {
  value: string;
  /** A line break and the indentation. */
  newline: string;
  length: number;
  queue: IndentStep[];
  indented?: Indentation;
  aligned?: Map<number | string, Indentation>;
}

const INDENT: IndentStep = { kind: 'indent' };

/** Root indentations by style (`tabWidth/useTabs`): their nested indentations persist across documents. */
const roots = new Map<string, Indentation>();

/** prettier's generateIndent: aligns become spaces, or tabs (one per align) when an indent follows them with useTabs. */
function makeIndentation(queue: IndentStep[], options: PrintOptions): Indentation {
  let value = '';
  let length = 0;
  let lastTabs = 0;
  let lastSpaces = 0;
  const addTabs = (count: number) => {
    value += '\t'.repeat(count);
    length += options.tabWidth * count;
  };
  const addSpaces = (count: number) => {
    value += ' '.repeat(count);
    length += count;
  };
  const flush = () => {
    if (options.useTabs) {
      if (lastTabs > 0) addTabs(lastTabs);
    } else if (lastSpaces > 0) addSpaces(lastSpaces);
    lastTabs = 0;
    lastSpaces = 0;
  };
  for (const step of queue) {
    if (step.kind === 'indent') {
      flush();
      if (options.useTabs) addTabs(1);
      else addSpaces(options.tabWidth);
    } else if (step.kind === 'string') {
      flush();
      value += step.string;
      length += step.string.length;
    } else {
      lastTabs += 1;
      lastSpaces += step.width;
    }
  }
  if (lastSpaces > 0) addSpaces(lastSpaces);
  return { value, newline: `\n${value}`, length, queue };
}

/** The indentation of a document's first line (none), per style. */
export function rootIndentation(options: PrintOptions): Indentation {
  const key = `${options.tabWidth}/${options.useTabs}`;
  let root = roots.get(key);
  if (!root) roots.set(key, (root = { value: '', newline: '\n', length: 0, queue: [] }));
  return root;
}

/** `parent` and one indent more. */
export function indented(parent: Indentation, options: PrintOptions): Indentation {
  return (parent.indented ??= makeIndentation([...parent.queue, INDENT], options));
}

/** `parent` aligned by `n` (a width or a string). */
export function aligned(parent: Indentation, n: number | string, options: PrintOptions): Indentation {
  if (!n) return parent; // 0, NaN, '': prettier keeps the indentation
  parent.aligned ??= new Map();
  let child = parent.aligned.get(n);
  if (!child) {
    const step: IndentStep = typeof n === 'number' ? { kind: 'width', width: n } : { kind: 'string', string: n };
    parent.aligned.set(n, (child = makeIndentation([...parent.queue, step], options)));
  }
  return child;
}

