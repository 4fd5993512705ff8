import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The README is a newcomer's front door: details belong in docs/, so it stays short. */
describe('README', () => {
  it('stays under 300 lines', () => {
    const lines = readFileSync(new URL('../README.md', import.meta.url), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(300);
  });
});
