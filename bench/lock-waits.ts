import pg from 'pg';

/**
 * What the backends of one database wait for, sampled from `pg_stat_activity` while load runs:
 * every backend waiting on a heavyweight lock (wait_event_type `Lock`), with the backends that
 * block it (`pg_blocking_pids`), each named by the statement it runs or last ran. The fold and
 * the webhook publisher must never be what a request's statement waits for: `onFold` counts the
 * samples where a backend that is neither waited on one that is (it must stay 0).
 */
export type StatementKind = 'send' | 'verify' | 'fold' | 'publisher' | 'other';

/**
 * The kind of statement a backend runs, from its text (the store's statements, src/store/postgres)
 * as `pg_stat_activity` keeps it: its first `track_activity_query_size` bytes (1 kB by default),
 * which is why a send is known by the start of its statement (its INSERT comes later).
 */
export function statementKind(query: string): StatementKind {
  if (/DELETE FROM changes|advisory_xact_lock/.test(query)) return 'fold';
  if (/webhook_deliveries|webhook_endpoints/.test(query)) return 'publisher';
  if (/^\s*WITH (fresh|given) AS|INSERT INTO verifications/.test(query)) return 'send';
  if (/UPDATE verifications|SELECT req\.\*|WITH tried AS/.test(query)) return 'verify';
  return 'other';
}

export interface LockWaitReport {
  samples: number;
  /** Backend-samples running a send's or a verify's statement (how much the samples saw). */
  requestStatements: number;
  /** Backend-samples of a send or a verify by what they waited for (`Lock/transactionid`, `IO/WALSync`, …). */
  requestWaits: Record<string, number>;
  /** Lock waits by waiter and blocker: `send -> fold`, `fold -> fold`, … */
  lockWaits: Record<string, number>;
  /** Lock waits of a backend that is not the fold's nor the publisher's on one that is: must be 0. */
  onFold: number;
  /** A few of those, for the report. */
  examples: string[];
  /** The most batches of the fold seen running at once in one sample (one instance folds at a time: 1). */
  foldsAtOnce: number;
}

interface Row {
  pid: number;
  wait_event_type: string | null;
  wait_event: string | null;
  state: string | null;
  query: string;
  blockers: number[] | null;
}

const SAMPLE = `SELECT pid, state, wait_event_type, wait_event, left(query, 2000) AS query,
    CASE WHEN wait_event_type = 'Lock' THEN pg_blocking_pids(pid) END AS blockers
  FROM pg_stat_activity
  WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;

export class LockWaitSampler {
  private readonly client: pg.Client;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private report = emptyReport();

  /** `url`: a connection to the sampled database that does not pass through a delay proxy. */
  constructor(
    url: string,
    private readonly intervalMs = 20,
  ) {
    this.client = new pg.Client({ connectionString: url });
    this.client.on('error', () => undefined);
  }

  async start(): Promise<void> {
    await this.client.connect();
    const database = (await this.client.query('SELECT current_database() AS d')).rows[0]?.d as string;
    const tick = () => {
      this.running = this.sample(database)
        .catch(() => undefined)
        .finally(() => {
          if (this.timer !== null) this.timer = setTimeout(tick, this.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  /** The report since the last call (or the start), and a fresh one begun. */
  take(): LockWaitReport {
    const report = this.report;
    this.report = emptyReport();
    return report;
  }

  async stop(): Promise<LockWaitReport> {
    const timer = this.timer;
    this.timer = null;
    if (timer) clearTimeout(timer);
    await this.running;
    await this.client.end().catch(() => undefined);
    return this.take();
  }

  private async sample(database: string): Promise<void> {
    const { rows } = await this.client.query<Row>(SAMPLE, [database]);
    const r = this.report;
    r.samples++;
    const kinds = new Map(rows.map((row) => [row.pid, statementKind(row.query)]));
    const folding = rows.filter(
      (row) =>
        row.state === 'active' && row.wait_event_type !== 'Lock' && /DELETE FROM changes/.test(row.query),
    ).length;
    r.foldsAtOnce = Math.max(r.foldsAtOnce, folding);
    for (const row of rows) {
      const kind = kinds.get(row.pid) as StatementKind;
      const request = kind === 'send' || kind === 'verify';
      if (request && row.state === 'active') {
        r.requestStatements++;
        const waited = row.wait_event_type ? `${row.wait_event_type}/${row.wait_event}` : 'on CPU';
        r.requestWaits[`${kind}: ${waited}`] = (r.requestWaits[`${kind}: ${waited}`] ?? 0) + 1;
      }
      if (row.wait_event_type !== 'Lock') continue;
      for (const blocker of row.blockers ?? []) {
        const by = kinds.get(blocker) ?? 'other';
        const key = `${kind} -> ${by}`;
        r.lockWaits[key] = (r.lockWaits[key] ?? 0) + 1;
        const offPath = (k: StatementKind) => k === 'fold' || k === 'publisher';
        if (offPath(by) && !offPath(kind)) {
          r.onFold++;
          if (r.examples.length < 5) {
            const blockerQuery = rows.find((x) => x.pid === blocker)?.query ?? '';
            r.examples.push(`${oneLine(row.query)} waited (${row.wait_event}) on ${oneLine(blockerQuery)}`);
          }
        }
      }
    }
  }
}

const oneLine = (query: string) => query.replace(/\s+/g, ' ').slice(0, 120);

function emptyReport(): LockWaitReport {
  return {
    samples: 0,
    requestStatements: 0,
    requestWaits: {},
    lockWaits: {},
    onFold: 0,
    examples: [],
    foldsAtOnce: 0,
  };
}

/** The reports of several measurements as one. */
export function mergeReports(reports: LockWaitReport[]): LockWaitReport {
  const out = emptyReport();
  const add = (into: Record<string, number>, from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) into[k] = (into[k] ?? 0) + v;
  };
  for (const r of reports) {
    out.samples += r.samples;
    out.requestStatements += r.requestStatements;
    out.onFold += r.onFold;
    out.foldsAtOnce = Math.max(out.foldsAtOnce, r.foldsAtOnce);
    add(out.requestWaits, r.requestWaits);
    add(out.lockWaits, r.lockWaits);
    out.examples.push(...r.examples.slice(0, 5 - out.examples.length));
  }
  return out;
}
