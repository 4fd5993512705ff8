import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownFiles } from './support/markdown.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Relative link targets of a Markdown text: `[text](target)`, outside code blocks. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1] as string)
    .filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target));
}

describe('links in the README and docs', () => {
  it('point at files that exist', () => {
    const broken: string[] = [];
    for (const file of markdownFiles(root)) {
      for (const target of relativeLinks(readFileSync(file, 'utf8'))) {
        const path = resolve(dirname(file), decodeURIComponent(target.split('#')[0] as string));
        if (!existsSync(path)) broken.push(`${relative(root, file)} → ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('are found by the check (a broken link is reported)', () => {
    expect(relativeLinks('see [a](docs/nowhere.md), [b](https://x.test) and `[c](d.md)`')).toEqual([
      'docs/nowhere.md',
    ]);
  });
});
