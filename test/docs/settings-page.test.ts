import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsPage } from '../../scripts/settings-page.js';

describe('docs/settings.md', () => {
  it('is what `npm run settings-table` writes from the configuration schema', () => {
    const committed = readFileSync(new URL('../../docs/settings.md', import.meta.url), 'utf8');
    expect(committed, 'run `npm run settings-table` and commit docs/settings.md').toBe(settingsPage());
  });
});
