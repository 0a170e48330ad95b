/** Reading the generated Markdown: every .md file under generated/, its links, anchors and code blocks. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** The repository's generated/ directory. */
export const generatedDir = path.resolve(import.meta.dirname, '../../generated');

/** Every Markdown file under generated/ (relative path → content), sorted by path. */
export function markdownFiles(): Map<string, string> {
  const files = readdirSync(generatedDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => path.relative(generatedDir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  return new Map(files.map((rel) => [rel, readFileSync(path.join(generatedDir, rel), 'utf8')]));
}

/** Text outside fenced code blocks (links and headings inside code are not Markdown). */
export function outsideCode(markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** Inline links `[text](target)` outside code, with their line numbers. */
export function links(markdown: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  const lines = outsideCode(markdown).split('\n');
  lines.forEach((text, i) => {
    // Code spans may hold brackets: drop them before looking for links (link text keeps its code spans).
    for (const m of text.replace(/`[^`]*`/g, 'code').matchAll(/\]\(([^)\s]+)\)/g)) out.push({ target: m[1]!, line: i + 1 });
  });
  return out;
}

/** GitHub's heading slug: lowercase, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Anchors a page defines: explicit `<a id="…">` and heading slugs (duplicates get -1, -2 as on GitHub). */
export function anchors(markdown: string): Set<string> {
  const text = outsideCode(markdown);
  const out = new Set<string>();
  for (const m of text.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(m[1]!);
  const seen = new Map<string, number>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const slug = githubSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    out.add(n ? `${slug}-${n}` : slug);
    seen.set(slug, n + 1);
  }
  return out;
}

/** Fenced code blocks of a language, with the line their code starts on. */
export function codeBlocks(markdown: string, language: string): { code: string; line: number }[] {
  const out: { code: string; line: number }[] = [];
  const re = new RegExp(String.raw`^\`\`\`${language}[ \t]*\n([\s\S]*?)^\`\`\`[ \t]*$`, 'gm');
  for (const m of markdown.matchAll(re)) out.push({ code: m[1]!, line: markdown.slice(0, m.index).split('\n').length + 1 });
  return out;
}

/** The sections of a page under headings matching `heading` (its capture 1 names the section), to the next heading of the same or a higher level. */
export function sections(markdown: string, heading: RegExp): Map<string, string> {
  const text = outsideCode(markdown);
  const out = new Map<string, string>();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = heading.exec(lines[i]!);
    if (!m) continue;
    const level = /^#+/.exec(lines[i]!)![0].length;
    let end = i + 1;
    while (end < lines.length && !(/^#+\s/.test(lines[end]!) && /^#+/.exec(lines[end]!)![0].length <= level)) end++;
    out.set(m[1]!, lines.slice(i + 1, end).join('\n'));
  }
  return out;
}

/** The first cells of a section's table rows: the names a table lists (code spans unwrapped). */
export function firstColumn(section: string): string[] {
  return section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => /^\| (`+) ?(.*?) ?\1 \|/.exec(l)?.[2]?.replace(/\\\|/g, '|') ?? '');
}
