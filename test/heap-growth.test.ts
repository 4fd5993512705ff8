import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../src/heap-growth.js';

describe('limitHeapGrowth', () => {
  it('leaves a growing factor the operator gave on the command line or in NODE_OPTIONS', () => {
    expect(limitHeapGrowth(['--heap-growing-percent=50'])).toBe(false);
    expect(limitHeapGrowth(['--heap_growing_percent=50'])).toBe(false);
    expect(limitHeapGrowth([], '--max-old-space-size=512 --heap-growing-percent=50')).toBe(false);
  });

  it('sets it otherwise', () => {
    expect(limitHeapGrowth(['--enable-source-maps'], '--max-old-space-size=512')).toBe(true);
    expect(limitHeapGrowth([])).toBe(true);
  });

  it('names a flag this Node.js knows (V8 ignores an unknown one without a word)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
    expect(options).toMatch(/--heap-growing-percent \(/);
    expect(HEAP_GROWING_PERCENT).toBeGreaterThan(0);
  });
});
