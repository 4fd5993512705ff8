import { setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { Ledger } from './ledger.js';
import type { ChaosReceiver } from './receiver.js';

/** A stored request as the `verifications` table holds it: the one table the campaign reads. */
export interface StoredRequest {
  id: string;
  status: string;
}

export type ReadRequests = () => Promise<StoredRequest[]>;

export function sqliteRequests(file: string): ReadRequests {
  return async () => {
    const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    try {
      return db.prepare('SELECT id, status FROM verifications').all() as StoredRequest[];
    } finally {
      db.close();
    }
  };
}

export function postgresRequests(url: string): ReadRequests {
  return async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<StoredRequest>('SELECT id, status FROM verifications')).rows;
    } finally {
      await client.end();
    }
  };
}

const OUTCOMES = ['verified', 'failed', 'expired', 'canceled'] as const;
type Counts = Record<'sent' | (typeof OUTCOMES)[number], number>;

export interface Tally {
  /** Requests (channels) whose send was acknowledged, and the send calls. */
  ackedRequests: number;
  ackedSends: number;
  stored: number;
  /** Acknowledged and not stored: must be 0. */
  lost: string[];
  /** Stored, their answer never seen (lost at a kill): fine. */
  storedUnacked: number;
  verifiedAnswers: number;
  verifiedStored: number;
  /** Groups answered `verified: true` more than once: must be 0. */
  doubleVerifies: string[];
  /** Groups answered `verified: true` with no verified request stored: must be 0. */
  lostVerifies: string[];
  /** Acknowledged requests that verify-code answered 404: must be 0. */
  missingOnVerify: number;
  analytics: Counts;
  storedCounts: Counts;
  webhooks: {
    expected: number;
    received: number;
    missing: string[];
    /** Events of no stored state change (or of a status the request does not have). */
    extra: string[];
    /** State changes delivered under two different webhook-ids. */
    doubled: string[];
    /** The same webhook-id delivered again (at least once, fine). */
    redelivered: number;
    badSignatures: number;
    /** Attempts the receiver answered 500 on purpose (retried by the service). */
    refusedOnPurpose: number;
  };
  /** Sends made with an Idempotency-Key and retried through the faults. */
  idempotency: {
    keys: number;
    /** Keys sent more than once (no answer, 503 or 409 first). */
    retried: number;
    /** Retries answered with the first answer (Idempotent-Replayed). */
    replayed: number;
    /**
     * Keys with two live requests: must be 0. A send killed after storing its codes but before
     * its answer was kept runs again once its claim's lease ends (no answer was ever given to
     * replay); its first request is then superseded (canceled), which `rerun` counts.
     */
    twice: string[];
    /** Keys answered 200 whose answered request is not the stored live one: must be 0. */
    mismatched: string[];
    /** Keys run again after a fault, their first, never-answered request superseded. */
    rerun: string[];
  };
  converged: boolean;
  convergeMs: number;
}

export interface CountOptions {
  ledger: Ledger;
  receiver: ChaosReceiver;
  readRequests: ReadRequests;
  /** GET /v1/admin/analytics summed over the campaign's window; null when it did not answer. */
  readAnalytics: () => Promise<Counts | null>;
  /** GET /v1/admin/outbox?to=: the requests of one destination. */
  readOutbox: (to: string) => Promise<Array<{ requestId: string; status: string }>>;
  deadlineMs: number;
}

/**
 * Waits until analytics and webhooks agree with the stored requests (the fold and the webhook
 * worker run asynchronously, with retries) or the deadline passes, then tallies what was seen.
 */
export async function tally(options: CountOptions): Promise<Tally> {
  const started = performance.now();
  for (;;) {
    const t = await once(options);
    const agreed =
      t !== null &&
      (Object.keys(t.storedCounts) as Array<keyof Counts>).every(
        (k) => t.analytics[k] === t.storedCounts[k],
      ) &&
      t.webhooks.missing.length === 0 &&
      t.webhooks.extra.length === 0;
    const late = performance.now() - started > options.deadlineMs;
    if (t && (agreed || late)) {
      const convergeMs = Math.round(performance.now() - started);
      return { ...t, idempotency: await idempotency(options), converged: agreed, convergeMs };
    }
    if (!t && late) throw new Error('the service did not answer analytics before the deadline');
    await sleep(500);
  }
}

/** Each key's destination is its own: exactly one request there, the one answered. */
async function idempotency({ ledger, readOutbox }: CountOptions): Promise<Tally['idempotency']> {
  const twice: string[] = [];
  const mismatched: string[] = [];
  const rerun: string[] = [];
  for (const sent of ledger.idempotent) {
    const stored = await readOutbox(sent.to);
    const live = stored.filter((s) => s.status !== 'canceled');
    if (live.length > 1) twice.push(sent.to);
    else if (stored.length > 1) rerun.push(sent.to);
    const answered = sent.requestIds?.[0];
    if (answered && (live.length !== 1 || live[0]?.requestId !== answered)) mismatched.push(sent.to);
  }
  return {
    keys: ledger.idempotent.length,
    retried: ledger.idempotent.filter((s) => s.tries > 1).length,
    replayed: ledger.idempotent.filter((s) => s.replayed).length,
    twice,
    mismatched,
    rerun,
  };
}

async function once(
  options: CountOptions,
): Promise<Omit<Tally, 'idempotency' | 'converged' | 'convergeMs'> | null> {
  const { ledger, receiver } = options;
  const rows = await options.readRequests();
  const analytics = await options.readAnalytics();
  if (!analytics) return null;
  const status = new Map(rows.map((r) => [r.id, r.status]));

  const storedCounts: Counts = { sent: rows.length, verified: 0, failed: 0, expired: 0, canceled: 0 };
  for (const r of rows)
    if (r.status in storedCounts && r.status !== 'sent') storedCounts[r.status as keyof Counts]++;

  const lost = [...ledger.acked.keys()].filter((id) => !status.has(id));
  const storedUnacked = rows.filter((r) => !ledger.acked.has(r.id)).length;
  const doubleVerifies = [...ledger.verifiedAnswers].filter(([, n]) => n > 1).map(([g]) => g);
  const lostVerifies = [...ledger.verifiedAnswers.keys()].filter(
    (group) => !group.split('+').some((id) => status.get(id) === 'verified'),
  );

  // Every stored request has exactly one event per state change: created, and its final status.
  const expected = new Set<string>();
  for (const r of rows) {
    expected.add(`${r.id} verification.created`);
    if (r.status !== 'pending') expected.add(`${r.id} verification.${r.status}`);
  }
  const got = new Map<string, number>();
  for (const e of receiver.events.values()) {
    const key = `${e.requestId} ${e.type}`;
    got.set(key, (got.get(key) ?? 0) + 1);
  }
  const missing = [...expected].filter((k) => !got.has(k));
  const extra = [...got.keys()].filter((k) => !expected.has(k));
  const doubled = [...got].filter(([, n]) => n > 1).map(([k]) => k);

  return {
    ackedRequests: ledger.acked.size,
    ackedSends: ledger.sendsAcked,
    stored: rows.length,
    lost,
    storedUnacked,
    verifiedAnswers: [...ledger.verifiedAnswers.values()].reduce((a, b) => a + b, 0),
    verifiedStored: storedCounts.verified,
    doubleVerifies,
    lostVerifies,
    missingOnVerify: ledger.missingOnVerify.length,
    analytics,
    storedCounts,
    webhooks: {
      expected: expected.size,
      received: [...got.keys()].filter((k) => expected.has(k)).length,
      missing,
      extra,
      doubled,
      redelivered: receiver.duplicates,
      badSignatures: receiver.badSignatures,
      refusedOnPurpose: receiver.refused,
    },
  };
}

/** Reads the admin analytics of every day since `from`, summed. */
export function analyticsReader(url: string, adminToken: string, from: Date): () => Promise<Counts | null> {
  return async () => {
    try {
      const res = await fetch(`${url}/v1/admin/analytics?from=${from.toISOString()}&interval=day`, {
        headers: { authorization: `Bearer ${adminToken}` },
        signal: AbortSignal.timeout(15_000),
      });
      if (res.status !== 200) return null;
      const buckets = ((await res.json()) as { data: { buckets: Array<Record<string, number>> } }).data
        .buckets;
      const sum = (k: string) => buckets.reduce((a, b) => a + (b[k] ?? 0), 0);
      return {
        sent: sum('sent'),
        verified: sum('verified'),
        failed: sum('failed'),
        expired: sum('expired'),
        canceled: sum('canceled'),
      };
    } catch {
      return null;
    }
  };
}

/** The outbox's messages to one destination (each names its request). */
export function outboxReader(
  url: string,
  adminToken: string,
): (to: string) => Promise<Array<{ requestId: string; status: string }>> {
  return async (to) => {
    const res = await fetch(`${url}/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=50`, {
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(15_000),
    });
    if (res.status !== 200) throw new Error(`GET /v1/admin/outbox answered ${res.status}`);
    return ((await res.json()) as { data: Array<{ requestId: string; status: string }> }).data;
  };
}
