/**
 * Writes docs/settings.md, the table of every core setting, from the configuration schema:
 * `npm run settings-table`. Provider settings have their own table in docs/delivery.md. A test
 * fails when the committed page differs from what this prints.
 */
import { writeFileSync } from 'node:fs';
import { settingsPage } from './settings-page.js';

writeFileSync(new URL('../docs/settings.md', import.meta.url), settingsPage());
