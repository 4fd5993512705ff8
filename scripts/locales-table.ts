/** Rewrites the generated tables of docs/locales.md (`npm run docs:locales`). */
import { readFileSync, writeFileSync } from 'node:fs';
import { localesPage } from './locales-page.js';

const page = new URL('../docs/locales.md', import.meta.url);
writeFileSync(page, localesPage(readFileSync(page, 'utf8')));
