import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SKIPPED = new Set(['node_modules', '.git', 'dist', 'target', 'vendor', 'test-output']);

/** Every Markdown file of the repository a reader may open: README, docs/, clients/, examples/. */
export function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** A fenced code block of a Markdown text: its info string, its code and the line it starts on. */
export interface FencedBlock {
  info: string;
  code: string;
  line: number;
}

/** The fenced code blocks (``` or ~~~) of `markdown`, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*(.*)$/.exec(lines[i] as string);
    if (!open) continue;
    const fence = open[1] as string;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const line = lines[j] as string;
      if (
        line.trim().startsWith(fence[0]?.repeat(fence.length) as string) &&
        line.trim().replace(/[`~]/g, '') === ''
      )
        break;
      body.push(line);
    }
    blocks.push({ info: (open[2] as string).trim(), code: `${body.join('\n')}\n`, line: i + 1 });
    i = j;
  }
  return blocks;
}

/**
 * The code of the row of a Markdown table whose first cell names `title` (as text or as a link
 * text): the contents of the first `code` span of its second cell.
 */
export function readmeRow(markdown: string, title: string): string {
  for (const line of markdown.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 4) continue;
    const name = (cells[1] as string).replace(/^\[(.*)\]\(.*\)$/, '$1');
    if (name !== title) continue;
    const code = /`(.+)`/.exec(cells.slice(2, -1).join('|'));
    if (code) return (code[1] as string).replaceAll('\\|', '|');
  }
  throw new Error(`no table row names ${title}`);
}
