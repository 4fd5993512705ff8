import { randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  analyticsReader,
  outboxReader,
  postgresRequests,
  type ReadRequests,
  sqliteRequests,
  type Tally,
  tally,
} from './count.js';
import { SmallDisk } from './disk.js';
import { Ledger } from './ledger.js';
import { Load } from './load.js';
import { freePort, peersProblem, ScratchPostgres, ScratchRedis } from './peers.js';
import { ChaosReceiver } from './receiver.js';
import { ServiceProcess } from './service.js';

export interface CampaignOptions {
  /** kill -9 rounds. */
  rounds: number;
  /** PostgreSQL only: crashes of the campaign's PostgreSQL, then of its Redis, under load. */
  postgresRestarts: number;
  redisRestarts: number;
  /** SQLite only: fill its data directory's filesystem under load, then free it. */
  diskFull: boolean;
  clients: number;
  /** How long analytics and webhooks may take to agree with the store once the load stops. */
  convergeMs: number;
  log: (line: string) => void;
}

export interface StoreReport {
  store: 'SQLite' | 'PostgreSQL';
  rounds: number;
  durationMs: number;
  tally: Tally;
  /** Milliseconds: a new process's start to /health 200 after each kill -9. */
  killRestartMs: number[];
  /** Milliseconds from the peer's (or the space's) return to a send answered 200, no restart. */
  postgresBackMs: number[];
  redisBackMs: number[];
  diskBackMs: number[];
  /** Answers by fault: `kind status` → count. */
  faults: Record<string, Record<string, number>>;
  /** What the campaign could not do here, said plainly. */
  notes: string[];
  /** Broken invariants: empty when the service passed. */
  failures: string[];
}

const ADMIN_TOKEN = `chaos-admin-${randomBytes(16).toString('hex')}`;
const MAX_ATTEMPTS = 3;
const EVENTS = ['created', 'verified', 'failed', 'expired', 'canceled'].map((t) => `verification.${t}`);

/** The service's settings: limits out of the way of the load, webhooks and sweeps quick. */
const serviceEnv = (databaseUrl: string): Record<string, string> => ({
  DATABASE_URL: databaseUrl,
  ADMIN_TOKEN,
  CODE_SECRET: `chaos-code-secret-${randomBytes(16).toString('hex')}`,
  LIVE_OUTBOX: 'allow',
  RESEND_COOLDOWN_SECONDS: '0',
  SENDS_PER_DESTINATION_PER_HOUR: '1000',
  FAILURES_PER_DESTINATION_PER_DAY: '10000',
  KEY_SEND_PER_SECOND: '1000000',
  KEY_VERIFY_PER_SECOND: '1000000',
  COUNTRY_SENDS_PER_HOUR: '100000000',
  MAX_ATTEMPTS: String(MAX_ATTEMPTS),
  // The shortest lifetime, swept often: codes left pending expire during a long campaign.
  CODE_TTL_SECONDS: '60',
  SWEEP_INTERVAL_SECONDS: '2',
  // A send whose process died holds its Idempotency-Key this long; clients retry past it.
  IDEMPOTENCY_LEASE_SECONDS: '2',
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOK_POLL_INTERVAL_MS: '250',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,2,2,5,5,10,10,10,10',
});

/** Runs `work` with a scratch directory, a receiver and a ledger, and always cleans up. */
class Run {
  readonly ledger = new Ledger();
  readonly receiver = new ChaosReceiver();
  readonly dir = mkdtempSync(join(tmpdir(), 'cv-chaos-'));
  readonly tag = randomBytes(4).toString('hex');
  readonly started = new Date();
  /** Run in reverse order at the end; `keep` is true when the campaign failed. */
  readonly cleanups: Array<(keep: boolean) => Promise<void> | void> = [];
  readonly report: Omit<StoreReport, 'tally' | 'durationMs' | 'rounds'> & { rounds: number };
  service!: ServiceProcess;
  load!: Load;
  private canaries = 0;

  constructor(
    readonly store: StoreReport['store'],
    readonly options: CampaignOptions,
  ) {
    active.add(this);
    this.report = {
      store,
      rounds: 0,
      killRestartMs: [],
      postgresBackMs: [],
      redisBackMs: [],
      diskBackMs: [],
      faults: {},
      notes: [],
      failures: [],
    };
  }

  log(line: string): void {
    this.options.log(`[${this.store}] ${line}`);
  }

  /** Starts the service, makes its key, its webhook endpoint, and starts the load. */
  async begin(env: Record<string, string>): Promise<void> {
    const hookUrl = await this.receiver.listen();
    this.cleanups.push(() => this.receiver.close());
    this.service = new ServiceProcess(await freePort(), env, join(this.dir, 'service.log'));
    this.cleanups.push(() => this.service.close());
    await this.service.start();
    const key = await this.admin('POST', '/v1/admin/api-keys', { name: 'chaos', channels: ['EMAIL', 'SMS'] });
    // The SMS-pumping breaker would trip on the pairs verified by their email code: off.
    await this.admin('PATCH', '/v1/admin/accounts/acc_default/settings', { pumpingMinConversion: 0 });
    const hook = await this.admin('POST', '/v1/admin/webhooks', { url: hookUrl, events: EVENTS });
    this.receiver.secret = hook.data.secret ?? '';
    this.load = new Load(
      {
        url: this.service.url,
        apiKey: key.data.key ?? '',
        adminToken: ADMIN_TOKEN,
        tag: this.tag,
        clients: this.options.clients,
        maxAttempts: MAX_ATTEMPTS,
      },
      this.ledger,
    );
    this.cleanups.push(() => this.load.stop());
  }

  private async admin(
    method: string,
    path: string,
    body: unknown,
  ): Promise<{ data: Record<string, string> }> {
    const res = await fetch(`${this.service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const parsed = (await res.json()) as { data: Record<string, string> };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed;
  }

  /** Load for a while, then kill -9 and start a new process, `rounds` times. */
  async killRounds(rounds: number): Promise<void> {
    for (let r = 1; r <= rounds; r++) {
      this.ledger.phase = 'steady';
      await sleep(1500 + (r % 4) * 500);
      this.ledger.phase = 'kill -9';
      await this.service.kill();
      await sleep(200);
      const ms = await this.service.start();
      this.report.killRestartMs.push(Math.round(ms));
      this.report.rounds = r;
      this.log(`round ${r}/${rounds}: killed, healthy again ${Math.round(ms)} ms after restart`);
    }
    this.ledger.phase = 'steady';
  }

  /**
   * Milliseconds until `ready` holds and a send answers 200, the service left running; on the
   * deadline the failure is written down and the service restarted, so the campaign goes on.
   */
  async backBySelf(what: string, ready: () => Promise<boolean>): Promise<number | null> {
    const started = performance.now();
    const deadline = started + 60_000;
    while (performance.now() < deadline) {
      if ((await ready()) && (await this.load.canary(this.canaries++)) === 200)
        return Math.round(performance.now() - started);
      await sleep(100);
    }
    this.report.failures.push(`the service did not come back by itself within 60 s after ${what}`);
    await this.service.kill();
    await this.service.start();
    return null;
  }

  /** Stops the load and counts, then turns broken invariants into failures. */
  async finish(readRequests: ReadRequests): Promise<StoreReport> {
    this.ledger.phase = 'settle';
    await this.load.stop();
    const t = await tally({
      ledger: this.ledger,
      receiver: this.receiver,
      readRequests,
      readAnalytics: analyticsReader(
        this.service.url,
        ADMIN_TOKEN,
        new Date(this.started.getTime() - 3_600_000),
      ),
      readOutbox: outboxReader(this.service.url, ADMIN_TOKEN),
      deadlineMs: this.options.convergeMs,
    });
    for (const phase of this.ledger.answers.keys()) this.report.faults[phase] = this.ledger.statuses(phase);
    this.report.failures.push(...failuresOf(t, this.ledger));
    return { ...this.report, tally: t, durationMs: Date.now() - this.started.getTime() };
  }

  async cleanup(keepDir: boolean): Promise<void> {
    active.delete(this);
    for (const c of this.cleanups.splice(0).reverse()) await Promise.resolve(c(keepDir)).catch(() => {});
    if (keepDir) this.log(`kept for inspection: ${this.dir}`);
    else rmSync(this.dir, { recursive: true, force: true });
  }
}

/** The campaigns under way, for abortCampaigns. */
const active = new Set<Run>();

/** Stops every campaign under way and its servers (an interrupted run, a test that timed out). */
export async function abortCampaigns(): Promise<void> {
  for (const run of [...active]) await run.cleanup(true);
}

function failuresOf(t: Tally, ledger: Ledger): string[] {
  const f: string[] = [];
  const few = (ids: string[]) => ids.slice(0, 5).join(', ') + (ids.length > 5 ? ', …' : '');
  if (t.lost.length) f.push(`${t.lost.length} acknowledged requests are not stored: ${few(t.lost)}`);
  if (t.missingOnVerify) f.push(`${t.missingOnVerify} verifies of acknowledged requests answered 404`);
  if (t.doubleVerifies.length)
    f.push(`${t.doubleVerifies.length} groups verified twice: ${few(t.doubleVerifies)}`);
  if (t.lostVerifies.length)
    f.push(
      `${t.lostVerifies.length} groups answered verified are not stored verified: ${few(t.lostVerifies)}`,
    );
  for (const k of Object.keys(t.storedCounts) as Array<keyof Tally['storedCounts']>)
    if (t.analytics[k] !== t.storedCounts[k])
      f.push(`analytics ${k} ${t.analytics[k]} but ${t.storedCounts[k]} stored`);
  const w = t.webhooks;
  if (w.missing.length)
    f.push(`${w.missing.length} state changes without a webhook event: ${few(w.missing)}`);
  if (w.extra.length) f.push(`${w.extra.length} webhook events of no stored change: ${few(w.extra)}`);
  if (w.doubled.length)
    f.push(`${w.doubled.length} state changes delivered under two event ids: ${few(w.doubled)}`);
  if (w.badSignatures) f.push(`${w.badSignatures} webhook requests with a bad signature`);
  const i = t.idempotency;
  if (i.twice.length) f.push(`${i.twice.length} Idempotency-Keys with two live requests: ${few(i.twice)}`);
  if (i.mismatched.length)
    f.push(
      `${i.mismatched.length} Idempotency-Keys answered a request that is not the stored live one: ${few(i.mismatched)}`,
    );
  const unclean = new Map<string, number>();
  for (const u of ledger.unclean) {
    const key = `${u.kind} ${u.status} ${u.code} during ${u.phase}`;
    unclean.set(key, (unclean.get(key) ?? 0) + 1);
  }
  for (const [key, n] of unclean) f.push(`${n}× ${key} (not a clean 503)`);
  if (t.ackedRequests === 0 || t.verifiedAnswers === 0) f.push('the load acknowledged or verified nothing');
  return f;
}

export async function sqliteCampaign(options: CampaignOptions): Promise<StoreReport> {
  const run = new Run('SQLite', options);
  let failed = true;
  try {
    let dataDir = join(run.dir, 'data');
    let disk: SmallDisk | null = null;
    if (options.diskFull) {
      const mounted = SmallDisk.mount(dataDir, 512);
      if (typeof mounted === 'string') {
        run.report.notes.push(`disk full not tested: ${mounted}`);
        dataDir = join(run.dir, 'plain');
      } else {
        disk = mounted;
        run.cleanups.push((keep) => {
          mounted.release();
          // The database lives on the mount: a failed campaign keeps a copy.
          if (keep) cpSync(mounted.dir, join(run.dir, 'kept-data'), { recursive: true });
          mounted.unmount();
        });
      }
    }
    const file = join(dataDir, 'verify.db');
    await run.begin(serviceEnv(`sqlite:${file}`));
    await run.killRounds(options.rounds);
    if (disk) await diskFull(run, disk);
    const report = await run.finish(sqliteRequests(file));
    failed = report.failures.length > 0;
    return report;
  } finally {
    await run.cleanup(failed);
  }
}

/** Fills the filesystem under load until sends are refused, then frees it. */
async function diskFull(run: Run, disk: SmallDisk): Promise<void> {
  run.ledger.phase = 'disk full';
  const taken = disk.fill();
  const refusedSends = () =>
    Object.entries(run.ledger.statuses('disk full'))
      .filter(([k]) => k.startsWith('send ') && k !== 'send 200')
      .reduce((a, [, n]) => a + n, 0);
  const deadline = performance.now() + 20_000;
  while (refusedSends() < 20 && performance.now() < deadline) await sleep(100);
  await sleep(1000);
  const health = await run.service.health();
  run.log(
    `disk full (${Math.round(taken / 1048576)} MiB filler, ${disk.free()} bytes left): ${refusedSends()} sends refused, /health ${health?.status ?? 'no answer'} ${JSON.stringify(health?.body?.services ?? {})}`,
  );
  if (refusedSends() === 0) run.report.notes.push('disk full: no send was refused within 20 s');
  run.ledger.phase = 'disk freed';
  disk.release();
  // Healthy again in full: the embedded limits write their counters again too.
  const ms = await run.backBySelf('the disk was freed', async () => {
    const health = await run.service.health();
    return health?.status === 200 && health.body.services?.rateLimitStore === 'up';
  });
  if (ms !== null) run.report.diskBackMs.push(ms);
  run.log(`space freed: sends answered 200 again after ${ms ?? 'a restart'} ms`);
  run.ledger.phase = 'steady';
  await sleep(1500);
}

export async function postgresCampaign(options: CampaignOptions): Promise<StoreReport> {
  const problem = peersProblem();
  if (problem) throw new Error(`the PostgreSQL campaign needs its own servers: ${problem}`);
  const run = new Run('PostgreSQL', options);
  let failed = true;
  try {
    // PostgreSQL runs as its own user when the campaign is root: a directory it may enter.
    const pgDir = mkdtempSync(join(tmpdir(), 'cv-chaos-pg-'));
    chmodSync(pgDir, 0o700);
    run.cleanups.push(() => rmSync(pgDir, { recursive: true, force: true }));
    const postgres = await ScratchPostgres.start(pgDir, await freePort());
    run.cleanups.push(() => postgres.close());
    const redis = await ScratchRedis.start(join(run.dir, 'redis'), await freePort());
    run.cleanups.push(() => redis.close());
    run.log(`own PostgreSQL on port ${postgres.port}, own Redis on port ${redis.port}`);

    await run.begin({ ...serviceEnv(postgres.url), REDIS_URL: redis.url });
    await run.killRounds(options.rounds);
    for (let n = 1; n <= options.postgresRestarts; n++) {
      await sleep(1500);
      run.ledger.phase = 'PostgreSQL crash';
      await postgres.down('immediate');
      await sleep(1500);
      await postgres.up();
      const ms = await run.backBySelf(
        'PostgreSQL restarted',
        async () => (await run.service.health())?.status === 200,
      );
      if (ms !== null) run.report.postgresBackMs.push(ms);
      run.log(`PostgreSQL crash ${n}: sends answered 200 again ${ms ?? '(restarted)'} ms after it was back`);
    }
    for (let n = 1; n <= options.redisRestarts; n++) {
      run.ledger.phase = 'steady';
      await sleep(1500);
      run.ledger.phase = 'Redis crash';
      await redis.down();
      await sleep(1500);
      await redis.up();
      const ms = await run.backBySelf(
        'Redis restarted',
        async () => (await run.service.health())?.body?.services?.rateLimitStore === 'up',
      );
      if (ms !== null) run.report.redisBackMs.push(ms);
      run.log(`Redis crash ${n}: sends answered 200 again ${ms ?? '(restarted)'} ms after it was back`);
    }
    run.ledger.phase = 'steady';
    await sleep(1500);
    const report = await run.finish(postgresRequests(postgres.url));
    failed = report.failures.length > 0;
    return report;
  } finally {
    await run.cleanup(failed);
  }
}
