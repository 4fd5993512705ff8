/** `npm run docs:architecture`: writes the generated parts of docs/architecture.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { architecturePage } from './architecture-page.js';

const page = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(page, architecturePage(readFileSync(page, 'utf8')));
