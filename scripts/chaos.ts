import { writeFileSync } from 'node:fs';
import {
  abortCampaigns,
  type CampaignOptions,
  postgresCampaign,
  type StoreReport,
  sqliteCampaign,
} from './chaos/campaign.js';
import { details, table } from './chaos/table.js';

/**
 * npm run chaos: the fault campaign (docs/operations.md, "Fault campaign"). Send and verify load
 * while the service is killed with SIGKILL, its own PostgreSQL and Redis crash and restart, and
 * SQLite's disk fills up; then acknowledged sends are counted against stored requests, verified
 * codes against single use, analytics and webhook events against the stored state changes.
 *
 *   --rounds=N          kill -9 rounds on each store (default: 20 on SQLite, 10 on PostgreSQL)
 *   --store=sqlite|postgres|all
 *   --restarts=N        crashes of PostgreSQL, then of Redis (default 3; 1 with --rounds under 5)
 *   --clients=N         concurrent clients (default 6)
 *   --no-disk-full      skip filling SQLite's disk
 *   --json=FILE         also write the reports as JSON
 *
 * Exits 1 when an invariant broke.
 */
const arg = (name: string): string | undefined =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const int = (name: string, fallback: number) => {
  const value = arg(name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`--${name}=${value}: a whole number is expected`);
  return Number(value);
};

const rounds = arg('rounds');
const store = arg('store') ?? 'all';
if (!['sqlite', 'postgres', 'all'].includes(store))
  throw new Error(`--store=${store}: sqlite, postgres or all`);
const base: Omit<CampaignOptions, 'rounds'> = {
  postgresRestarts: int('restarts', rounds !== undefined && Number(rounds) < 5 ? 1 : 3),
  redisRestarts: int('restarts', rounds !== undefined && Number(rounds) < 5 ? 1 : 3),
  diskFull: !process.argv.includes('--no-disk-full'),
  clients: int('clients', 6),
  convergeMs: 120_000,
  log: (line) => console.log(line),
};

// Interrupted: stop the service and the campaign's own servers, unmount its disk.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void abortCampaigns().finally(() => process.exit(130)));

const reports: StoreReport[] = [];
if (store !== 'postgres') reports.push(await sqliteCampaign({ ...base, rounds: int('rounds', 20) }));
if (store !== 'sqlite') reports.push(await postgresCampaign({ ...base, rounds: int('rounds', 10) }));

console.log(`\n${table(reports)}\n\n${details(reports)}`);
const json = arg('json');
if (json) writeFileSync(json, JSON.stringify(reports, null, 2));
process.exit(reports.some((r) => r.failures.length > 0) ? 1 : 0);
