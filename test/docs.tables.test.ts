import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from './support/markdown.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The rows of a Markdown text that belong to no table: a `|` line after a blank line (or a
 * heading, or prose) that is not a table's header, i.e. not followed by a delimiter row. A blank
 * line inside a table ends it there, and renderers show the rows after it as plain text.
 */
function strayRows(markdown: string): Array<{ line: number; text: string }> {
  const lines = markdown.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, '')).split('\n');
  const isRow = (l: string | undefined) => l !== undefined && /^\s*\|/.test(l);
  const isDelimiter = (l: string | undefined) =>
    l !== undefined && /^\s*\|?(\s*:?-+:?\s*\|)+\s*:?-*:?\s*$/.test(l);
  const stray: Array<{ line: number; text: string }> = [];
  lines.forEach((text, i) => {
    if (!isRow(text) || isRow(lines[i - 1])) return;
    if (!isDelimiter(lines[i + 1])) stray.push({ line: i + 1, text });
  });
  return stray;
}

describe('tables in the README and docs', () => {
  it('are whole: every row belongs to a table', () => {
    const stray = markdownFiles(root).flatMap((file) =>
      strayRows(readFileSync(file, 'utf8')).map((r) => `${relative(root, file)}:${r.line}: ${r.text}`),
    );
    expect(stray).toEqual([]);
  });

  it('are checked: a blank line that cuts a row out of its table is found', () => {
    const table = '| a | b |\n|---|---|\n| 1 | 2 |\n\n| 3 | 4 |\n\nprose\n';
    expect(strayRows(table)).toEqual([{ line: 5, text: '| 3 | 4 |' }]);
    expect(strayRows('| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n')).toEqual([]);
    expect(strayRows('```\n| not a table |\n```\n')).toEqual([]);
  });
});
