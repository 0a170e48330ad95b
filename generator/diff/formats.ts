/** The output formats of `diff`, by name. */
import { formatJson } from './format-json.js';
import { formatMarkdown } from './format-markdown.js';
import { formatGithub, formatText } from './format-text.js';
import type { DiffResult } from './model.js';

/** Renders `result` in `format`. */
export function render(result: DiffResult, format: 'text' | 'markdown' | 'json' | 'github', fileOf?: (file: string) => string): string {
  switch (format) {
    case 'markdown':
      return formatMarkdown(result);
    case 'json':
      return formatJson(result);
    case 'github':
      return formatGithub(result, fileOf);
    default:
      return formatText(result);
  }
}
