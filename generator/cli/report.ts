/**
 * Diagnostics as users read them, in three formats. text: like tsc and eslint — `file:line:col severity CODE
 * message`, a code frame (the line and a caret) and colour on a terminal, the hint, and what was folded into the
 * diagnostic; json: one document (for editors and scripts); github: workflow annotations that GitHub shows on the
 * pull request's diff.
 */
import { closeSync, fstatSync, openSync, readSync, constants as fsConstants } from 'node:fs';
import { DIAGNOSTIC_CODES, relatedLines, type Diagnostic } from '../spec/diagnostics.js';
import { paint, type Style } from './style.js';

/** Formats of `validate --format`. */
export const DIAGNOSTIC_FORMATS = ['text', 'json', 'github'] as const;
/** One of DIAGNOSTIC_FORMATS. */
export type DiagnosticFormat = (typeof DIAGNOSTIC_FORMATS)[number];

/** Files larger than this are not read for a code frame. */
const FRAME_FILE_LIMIT = 4 * 1024 * 1024;
/** Frame lines are cut around the caret to this width. */
const FRAME_WIDTH = 160;

/** Control characters shown as their Unicode pictures, so a frame never sends them to the terminal. */
function visible(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, (c) => (c === '\u007f' ? '\u2421' : String.fromCharCode(0x2400 + c.charCodeAt(0)))).replace(/\t/g, ' ');
}

/** Text of a file for a frame: from `sources`, else read (regular files within the limit only). */
function sourceText(file: string, sources: ReadonlyMap<string, string>, cache: Map<string, string | undefined>): string | undefined {
  if (sources.has(file)) return sources.get(file);
  if (cache.has(file)) return cache.get(file);
  let text: string | undefined;
  try {
    const fd = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    try {
      const stat = fstatSync(fd);
      if (stat.isFile() && stat.size <= FRAME_FILE_LIMIT) {
        const buffer = Buffer.alloc(stat.size);
        readSync(fd, buffer, 0, stat.size, 0);
        text = buffer.toString('utf8');
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    text = undefined;
  }
  cache.set(file, text);
  return text;
}

/** Length of the token at a column: a quoted scalar, or a run up to whitespace, `:`, `,` or a bracket. */
function tokenLength(line: string, col: number): number {
  const rest = line.slice(col - 1);
  const match = /^("(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?|[^\s:,#[\]{}]+)/.exec(rest);
  return Math.max(1, match?.[0].length ?? 1);
}

/** The line of a diagnostic with its number and a caret under the offending token. */
export function codeFrame(text: string, line: number, col: number, style: Pick<Style, 'color'>): string[] {
  const lines = text.split(/\r?\n/);
  const source = lines[line - 1];
  if (source === undefined) return [];
  const p = paint(style);
  const first = Math.max(1, line - 1);
  const gutter = String(line).length;
  // Long lines are cut to a window around the column.
  const start = col > FRAME_WIDTH - 20 ? col - 40 : 0;
  const cut = (s: string) => (start > 0 ? `…${s.slice(start, start + FRAME_WIDTH)}` : s.slice(0, FRAME_WIDTH));
  const out: string[] = [];
  for (let n = first; n <= line; n++) {
    const marker = n === line ? p.red('>') : ' ';
    out.push(`${marker} ${p.gray(`${String(n).padStart(gutter)} |`)} ${visible(cut(lines[n - 1] ?? ''))}`);
  }
  const caretCol = Math.max(0, col - 1 - start + (start > 0 ? 1 : 0));
  const width = Math.min(tokenLength(source, col), Math.max(1, FRAME_WIDTH - caretCol));
  out.push(`  ${p.gray(`${' '.repeat(gutter)} |`)} ${' '.repeat(caretCol)}${p.red('^'.repeat(width))}`);
  return out;
}

/** Renders diagnostics as text (each followed by a blank line when frames are shown). */
export function renderText(diagnostics: Diagnostic[], style: Style, sources: ReadonlyMap<string, string> = new Map()): string {
  const p = paint(style);
  const cache = new Map<string, string | undefined>();
  const blocks = diagnostics.map((d) => {
    const severity = d.severity === 'error' ? p.red(p.bold('error')) : p.yellow(p.bold('warning'));
    const lines = [`${p.cyan(d.file)}:${p.yellow(String(d.line))}:${p.yellow(String(d.col))} ${severity} ${p.gray(d.code)} ${d.message}`];
    if (style.frames) {
      const text = sourceText(d.file, sources, cache);
      if (text !== undefined) lines.push(...codeFrame(text, d.line, d.col, style));
    }
    lines.push(`  ${p.blue('hint:')} ${d.hint}`, ...relatedLines(d).map((l) => p.dim(l)));
    return lines.join('\n');
  });
  return blocks.map((b) => `${b}\n${style.frames ? '\n' : ''}`).join('');
}

/** `2 errors and 1 warning in the spec` (+ `; nothing was written.` when the command writes). */
export function summaryLine(diagnostics: Diagnostic[], where: string, wrote?: 'nothing'): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.length - errors;
  const counts = [errors ? `${errors} error${errors === 1 ? '' : 's'}` : '', warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
  const folded = diagnostics.reduce((n, d) => n + (d.related?.length ?? 0), 0);
  return `${counts || 'no problems'} in the ${where}${folded ? ` (${folded} more folded into ${folded === 1 ? 'it' : 'them'})` : ''}${wrote === 'nothing' ? '; nothing was written' : ''}.`;
}

/** The json format: one document with every diagnostic (stable key order). */
export function renderJson(diagnostics: Diagnostic[], extra: Record<string, unknown> = {}): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const document = {
    valid: errors === 0,
    errors,
    warnings: diagnostics.length - errors,
    ...extra,
    diagnostics: diagnostics.map((d) => ({
      file: d.file,
      line: d.line,
      col: d.col,
      severity: d.severity,
      code: d.code,
      title: DIAGNOSTIC_CODES[d.code].title,
      message: d.message,
      hint: d.hint,
      related: (d.related ?? []).map((r) => ({ file: r.file, line: r.line, col: r.col, code: r.code, message: r.message, kind: r.kind })),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Escapes a workflow command's message (data) or property. */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** The github format: one `::error` / `::warning` workflow command per diagnostic. */
export function renderGithub(diagnostics: Diagnostic[]): string {
  return diagnostics
    .map((d) => {
      const props = `file=${escapeProperty(d.file)},line=${d.line},col=${d.col},title=${escapeProperty(`${d.code} ${DIAGNOSTIC_CODES[d.code].title}`)}`;
      const body = [d.message, `hint: ${d.hint}`, ...relatedLines(d).map((l) => l.trim())].join('\n');
      return `::${d.severity} ${props}::${escapeData(body)}\n`;
    })
    .join('');
}
