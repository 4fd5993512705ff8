import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deliveryPage, settingsPage } from '../../scripts/settings-page.js';

const read = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

describe('generated settings documentation', () => {
  it('docs/settings.md is what `npm run settings-table` writes from the configuration schema', () => {
    expect(read('settings.md'), 'run `npm run settings-table` and commit docs/settings.md').toBe(
      settingsPage(),
    );
  });

  it("docs/delivery.md's provider and settings tables are what `npm run settings-table` writes from the registry", () => {
    const committed = read('delivery.md');
    expect(committed, 'run `npm run settings-table` and commit docs/delivery.md').toBe(
      deliveryPage(committed),
    );
  });
});
