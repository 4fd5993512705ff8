/**
 * Prints the README's table of core settings from the configuration schema:
 * `npm run settings-table`. Provider settings have their own table in the README's Delivery part.
 */
import { describeSettings } from '../src/config/schema.js';
import { deliverySettings } from '../src/delivery/settings.js';

const deliveryEnv = new Set(
  Object.values(deliverySettings).map((s) => (s as unknown as { env: string }).env),
);
const cell = (v: unknown) => (v === undefined || v === '' ? '—' : `\`${String(v)}\``);
const rows = describeSettings()
  .filter((s) => !deliveryEnv.has(s.env))
  .map(
    (s) =>
      `| \`${s.env}\` | ${cell(s.default)} | ${s.secret ? 'yes' : ''} | ${s.description.replace(/\|/g, '\\|')} |`,
  );
process.stdout.write(`| Variable | Default | Secret | Meaning |\n|---|---|---|---|\n${rows.join('\n')}\n`);
