/**
 * Writes docs/settings.md, the table of every core setting, and the provider and delivery
 * settings tables of docs/delivery.md, from the configuration schema and the provider registry:
 * `npm run settings-table`. A test fails when a committed page differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { deliveryPage, settingsPage } from './settings-page.js';

writeFileSync(new URL('../docs/settings.md', import.meta.url), settingsPage());
const delivery = new URL('../docs/delivery.md', import.meta.url);
writeFileSync(delivery, deliveryPage(readFileSync(delivery, 'utf8')));
