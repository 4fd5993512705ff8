/**
 * The store's share of a send and a verify, for one tree: `createVerifications` (batches of 50 in
 * parallel, as the group commit takes them) then `attempt` (one wrong, one right code per
 * request) on a fresh WAL file, with the fan-out (which folds the analytics buckets on trees that
 * have migration 060) run after every 1,000 changes as the worker would. Reports process CPU µs
 * per request, fan-out included.
 *
 *   node --import tsx bench/store-hotpath.ts --root=/tmp/base [--requests=20000] [--signals]
 *
 * `--signals` adds the risk screen's reads (destinationSignals) before each send.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { arg } from './args.js';

const ROOT = resolve(arg('root', '.'));
const REQUESTS = Number(arg('requests', '20000'));
const BATCH = 50;
const SIGNALS = process.argv.includes('--signals');

const { SqliteStore } = await import(pathToFileURL(join(ROOT, 'src/store/sqlite/sqlite-store.ts')).href);
const { timeOrderedUuid } = await import(pathToFileURL(join(ROOT, 'src/domain/ids.ts')).href);
const dir = mkdtempSync(join(tmpdir(), 'cv-hot-'));
const store = new SqliteStore(join(dir, 'bench.db'));
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** The work a change leaves behind: the fold (trees with a change log) or the fan-out (older ones). */
const fanOut = async () => {
  if (typeof store.fold === 'function') {
    while ((await store.fold(5_000)) >= 5_000) {
      // a full batch: more may wait
    }
    return;
  }
  while ((await store.webhooks.fanOut(Date.now(), 100, () => null)) >= 100) {
    // a full batch: more may wait
  }
};

// What a send stores beside the request: a rendered outbox message's inputs and a risk assessment.
const OUTBOX = JSON.stringify({
  v: 1,
  request: {
    channel: 'EMAIL',
    to: 'u@example.com',
    code: '******',
    codeTtlSeconds: 600,
    deliveryType: 'TEXT',
  },
});
const RISK = JSON.stringify({ score: 0, level: 'low', signals: [] });

const ids: string[] = [];
let t = cpu();
for (let i = 0; i < REQUESTS; i += BATCH) {
  const now = Date.now();
  await Promise.all(
    Array.from({ length: BATCH }, async (_, j) => {
      const id = timeOrderedUuid(now);
      const destination = `u${i + j}-${now}@example.com`;
      ids.push(id);
      // What the risk screen reads before the send (trees that have it and `--signals`).
      if (SIGNALS) await store.destinationSignals('acc_bench', false, destination, null, now);
      await store.createVerifications([
        {
          id,
          accountId: 'acc_bench',
          groupId: id,
          channel: 'EMAIL',
          destination,
          deliveryType: null,
          country: null,
          purpose: null,
          codeHash: createHash('sha256').update(id).digest(),
          maxAttempts: 5,
          createdAt: now,
          expiresAt: now + 600_000,
          deliveryStatus: 'outbox',
          outbox: OUTBOX,
          outboxCode: '123456',
          masked: 'u***@example.com',
          risk: RISK,
          mode: 'live',
        },
      ]);
    }),
  );
  if ((i + BATCH) % 1000 === 0) await fanOut();
}
await fanOut();
const send = ((cpu() - t) * 1000) / REQUESTS;
t = cpu();
for (let i = 0; i < ids.length; i += BATCH) {
  const now = Date.now();
  await Promise.all(
    ids.slice(i, i + BATCH).map(async (id) => {
      await store.attempt('acc_bench', id, now, () => null);
      await store.attempt('acc_bench', id, now, (rows: Array<{ id: string }>) => rows[0]?.id ?? null);
    }),
  );
  if ((i + BATCH) % 1000 === 0) await fanOut();
}
await fanOut();
const verify = ((cpu() - t) * 1000) / REQUESTS;
await store.close();
rmSync(dir, { recursive: true, force: true });
console.log(
  `${ROOT}: createVerifications ${send.toFixed(1)} µs/req, attempt (wrong + right) ${verify.toFixed(1)} µs/req`,
);
