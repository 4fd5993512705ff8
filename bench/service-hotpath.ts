/**
 * The whole service's CPU per send and per verify, for two or more trees side by side in one
 * process: each tree's own composition root on a fresh SQLite file, driven through Fastify's
 * inject in waves of `--concurrency` requests that take turns between the trees, each wave
 * followed by one step of that tree's webhook worker (its fan-out, and the batch fold where the
 * tree has one), so the work a request leaves behind is counted with it. CPU is the process's,
 * read around each wave. Taking turns wave by wave puts every tree through the same moments of a
 * shared machine, whose speed drifts by tens of per cent from one minute to the next; the HTTP
 * parsing that inject leaves out is the same in every tree, so a difference here is, if
 * anything, a larger share of the total than it is behind a socket.
 *
 *   node --import tsx bench/service-hotpath.ts --trees=before=/tmp/a,after=/tmp/b \
 *     [--requests=10000 --concurrency=50 --channel=EMAIL|SMS --blocks=5]
 *
 * Sends go to fresh destinations (EMAIL, or SMS to GB mobile numbers of +447400, scattered over
 * its number blocks, with a test key, which the outbox takes; at most 1,000,000 of them); each verify is one wrong code, then the right one (two requests). Prints one
 * JSON line: per tree µs per send and per verify request, and each tree's ratio to the first
 * tree in each of `--blocks` consecutive blocks of waves (their spread says how far to trust it).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import pino from 'pino';
import { arg, treesArg } from './args.js';

const TREES = treesArg([{ name: 'this', root: process.cwd() }]);
const REQUESTS = Number(arg('requests', '10000'));
const CONCURRENCY = Number(arg('concurrency', '50'));
const BLOCKS = Number(arg('blocks', '5'));
const CHANNEL = arg('channel', 'EMAIL') === 'SMS' ? 'SMS' : 'EMAIL';

interface Tree {
  name: string;
  dir: string;
  db: string;
  service: any;
  auth: Record<string, string>;
  pool: Array<readonly [string, string]>;
  /** CPU ms per wave, per phase. */
  cpu: { send: number[]; verify: number[] };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function open(name: string, root: string): Promise<Tree> {
  const load = (path: string) => import(pathToFileURL(join(root, path)).href);
  const { loadConfig } = await load('src/config/schema.ts');
  const { compose } = await load('src/compose.ts');
  const dir = mkdtempSync(join(tmpdir(), 'cv-svc-'));
  const db = join(dir, 'verify.db');
  const admin = randomBytes(32).toString('base64url');
  const config = loadConfig({
    DATABASE_URL: `sqlite:${db}`,
    ADMIN_TOKEN: admin,
    LOG_LEVEL: 'warn',
    KEY_SEND_PER_SECOND: '1000000',
    KEY_VERIFY_PER_SECOND: '1000000',
    SENDS_PER_DESTINATION_PER_HOUR: '1000',
    COUNTRY_SENDS_PER_HOUR: '10000000',
    RESEND_COOLDOWN_SECONDS: '0',
    // The worker's steps are run after each wave instead (see wave()).
    WEBHOOK_POLL_INTERVAL_MS: '3600000',
  });
  const service = await compose(config, { logger: pino({ level: 'warn' }) });
  await service.app.ready();
  const created = await service.app.inject({
    method: 'POST',
    url: '/v1/admin/api-keys',
    headers: { authorization: `Bearer ${admin}` },
    payload: { name: 'bench', channels: [CHANNEL], test: CHANNEL === 'SMS' },
  });
  const token = (created.json() as { data: { key: string } }).data.key;
  // Every bench send is unconverted until the verify phase: the SMS-pumping breaker would stop the
  // sends to GB after 50 (a conversion floor of 0 never trips it; its check still runs).
  const account = (created.json() as { data: { accountId: string } }).data.accountId;
  await service.app.inject({
    method: 'PATCH',
    url: `/v1/admin/accounts/${account}/settings`,
    headers: { authorization: `Bearer ${admin}` },
    payload: { pumpingMinConversion: 0 },
  });
  return {
    name,
    dir,
    db,
    service,
    auth: { authorization: `Bearer ${token}` },
    pool: [],
    cpu: { send: [], verify: [] },
  };
}

const unique = randomBytes(3).toString('hex');
const body = (i: number) =>
  CHANNEL === 'EMAIL'
    ? { channel: 'EMAIL', email: `u${i}-${unique}@example.com` }
    : {
        channel: 'SMS',
        phone: `+447400${String((i * 7919) % 1_000_000).padStart(6, '0')}`,
        country: 'GB',
      };
const wrong = (code: string) => String((Number(code) + 1) % 10 ** code.length).padStart(code.length, '0');

let failures = 0;
async function post(tree: Tree, url: string, payload: object): Promise<void> {
  const res = await tree.service.app.inject({ method: 'POST', url, headers: tree.auth, payload });
  if (res.statusCode !== 200 && failures++ === 0) console.error(`${url}: ${res.statusCode} ${res.body}`);
}

/** One wave of requests on one tree, then one step of its worker; returns the CPU ms spent. */
async function wave(
  tree: Tree,
  from: number,
  count: number,
  one: (i: number) => Promise<void>,
): Promise<number> {
  const start = cpuMs();
  await Promise.all(Array.from({ length: count }, (_, j) => one(from + j)));
  await tree.service.webhooks.runOnce();
  return cpuMs() - start;
}

async function phase(
  kind: 'send' | 'verify',
  count: (t: Tree) => number,
  one: (t: Tree, i: number) => Promise<void>,
) {
  const total = Math.max(...TREES.map((_, k) => count(trees[k] as Tree)));
  for (let i = 0, w = 0; i < total; i += CONCURRENCY, w++) {
    // Each wave in turn, starting with a different tree each time.
    for (let k = 0; k < trees.length; k++) {
      const tree = trees[(k + w) % trees.length] as Tree;
      const n = Math.min(CONCURRENCY, count(tree) - i);
      if (n > 0) tree.cpu[kind].push(await wave(tree, i, n, (j) => one(tree, j)));
    }
  }
}

const trees: Tree[] = [];
for (const t of TREES) trees.push(await open(t.name, t.root));
try {
  // Warm-up: the JIT, the statement caches, the key cache.
  for (const tree of trees)
    for (let i = 0; i < 10; i++)
      await wave(tree, REQUESTS + i * CONCURRENCY, CONCURRENCY, (j) =>
        post(tree, '/v1/contact/send-code', body(j)),
      );
  const since = Date.now();
  await phase(
    'send',
    () => REQUESTS,
    (tree, i) => post(tree, '/v1/contact/send-code', body(i)),
  );
  for (const tree of trees) {
    const reader = new BetterSqlite3(tree.db, { readonly: true });
    tree.pool = (
      reader
        .prepare(
          'SELECT id, outbox FROM verifications WHERE created_at >= ? AND outbox IS NOT NULL ORDER BY id',
        )
        .all(since) as Array<{ id: string; outbox: string }>
    ).map((r) => [r.id, (JSON.parse(r.outbox) as { request: { code: string } }).request.code] as const);
    reader.close();
  }
  await phase(
    'verify',
    (tree) => tree.pool.length,
    async (tree, i) => {
      const [requestId, code] = tree.pool[i] as readonly [string, string];
      await post(tree, '/v1/contact/verify-code', { requestId, code: wrong(code) });
      await post(tree, '/v1/contact/verify-code', { requestId, code });
    },
  );
} finally {
  for (const tree of trees) {
    await tree.service.close();
    rmSync(tree.dir, { recursive: true, force: true });
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const perRequest = (tree: Tree, kind: 'send' | 'verify') =>
  (sum(tree.cpu[kind]) * 1000) / (kind === 'send' ? REQUESTS : 2 * tree.pool.length);
/** A tree's µs per request over the whole phase, and its ratio to the first tree block by block. */
const report = (kind: 'send' | 'verify') =>
  Object.fromEntries(
    trees.map((tree) => {
      const base = trees[0] as Tree;
      const size = Math.ceil(tree.cpu[kind].length / BLOCKS);
      const ratios = Array.from({ length: BLOCKS }, (_, b) => {
        const mine = sum(tree.cpu[kind].slice(b * size, (b + 1) * size));
        const theirs = sum(base.cpu[kind].slice(b * size, (b + 1) * size));
        return Number((mine / theirs).toFixed(3));
      });
      return [tree.name, { us: Number(perRequest(tree, kind).toFixed(1)), ratios }];
    }),
  );
console.log(
  JSON.stringify({
    channel: CHANNEL,
    requests: REQUESTS,
    failures,
    send: report('send'),
    verify: report('verify'),
  }),
);
