import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localesPage } from '../../scripts/locales-page.js';
import { LOCALES } from '../../src/domain/locales.js';

const page = readFileSync(new URL('../../docs/locales.md', import.meta.url), 'utf8');

describe('docs/locales.md', () => {
  it('has the tables `npm run docs:locales` writes from the locales, the country table and the voices', () => {
    expect(page, 'run `npm run docs:locales` and commit docs/locales.md').toBe(localesPage(page));
  });

  it('lists every locale, in both tables', () => {
    const rows = page.split('\n');
    for (const locale of LOCALES)
      expect(
        rows.filter((r) => r.startsWith(`| \`${locale}\` |`)),
        locale,
      ).toHaveLength(2);
  });
});
