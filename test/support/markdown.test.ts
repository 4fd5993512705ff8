import { describe, expect, it } from 'vitest';
import { fencedBlocks, readmeRow } from './markdown.js';

describe('README snippet extraction', () => {
  it('finds fenced blocks with their info strings and lines, ``` and ~~~ alike', () => {
    const md = 'text\n```python\nprint(1)\n```\n\n~~~ts title\nconst a = "```";\n~~~\n````sh\nx\n````\n';
    expect(fencedBlocks(md)).toEqual([
      { info: 'python', code: 'print(1)\n', line: 2 },
      { info: 'ts title', code: 'const a = "```";\n', line: 6 },
      { info: 'sh', code: 'x\n', line: 9 },
    ]);
  });

  it("reads a table row's code span, its first cell a link or a word", () => {
    const md =
      '| Language | Code |\n|---|---|\n| [Go](clients/go/README.md) | `a := 1; b \\| c` |\n| C# | `var x = 1;` |\n';
    expect(readmeRow(md, 'Go')).toBe('a := 1; b | c');
    expect(readmeRow(md, 'C#')).toBe('var x = 1;');
    expect(() => readmeRow(md, 'Rust')).toThrow(/no table row/);
  });
});
