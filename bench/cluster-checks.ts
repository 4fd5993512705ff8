import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type LockWaitReport, LockWaitSampler } from './lock-waits.js';
import type { ReceivedEvent } from './webhook-sink.js';

/**
 * What must hold when several instances share one PostgreSQL and one Redis, checked through the
 * HTTP API of every instance in turn: a limit counted on one instance holds on the others (a
 * cooldown refused elsewhere), one live code per destination however the sends race, each webhook
 * event delivered once, the analytics equal to the stored rows, and no send or verify waiting on
 * the fold or the webhook publisher. Run by `npm run bench:cluster` (its instances in network
 * namespaces, behind the delay proxy) and by test/e2e/scale/cluster.test.ts (on loopback).
 */
export interface ClusterUnderTest {
  /** Base URL of each instance. */
  urls: string[];
  adminToken: string;
  /** The cluster's database, reached directly (not through the delay proxy). */
  databaseUrl: string;
  /** A receiver the instances can reach, and what it has received so far. */
  webhook: { url: string; events(): Promise<ReceivedEvent[]> };
  /** Sends of the mixed traffic (default 240). */
  sends?: number;
  /** Concurrent clients of the mixed traffic (default 8). */
  clients?: number;
  log?: (line: string) => void;
}

export interface CheckResult {
  name: string;
  passed: boolean;
  detail: string;
}

interface Answer {
  status: number;
  body: { data?: Record<string, unknown>; error?: { code: string } } | null;
}

async function call(method: string, url: string, token: string, body?: unknown): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Limits raised so that the checks' own traffic is never refused by them. */
const OPEN_LIMITS = {
  keySendPerSecond: 1_000_000,
  keyVerifyPerSecond: 1_000_000,
  sendsPerDestinationPerHour: 1000,
  failuresPerDestinationPerDay: 10_000,
};

export async function clusterChecks(c: ClusterUnderTest): Promise<CheckResult[]> {
  const log = c.log ?? (() => undefined);
  const run = randomBytes(3).toString('hex');
  const admin = (method: string, path: string, body?: unknown) =>
    call(method, `${c.urls[0]}/v1/admin${path}`, c.adminToken, body);
  const db = new pg.Pool({ connectionString: c.databaseUrl, max: 4 });
  db.on('error', () => undefined);
  const sampler = new LockWaitSampler(c.databaseUrl, 10);
  await sampler.start();
  const results: CheckResult[] = [];
  try {
    const account = async (name: string, settings: Record<string, number>) => {
      const made = await admin('POST', '/accounts', { name: `${name}-${run}`, settings });
      if (made.status !== 201) throw new Error(`creating an account answered ${made.status}`);
      const accountId = String(made.body?.data?.id);
      const key = await admin('POST', '/api-keys', { name, channels: ['EMAIL'], accountId });
      if (key.status !== 201) throw new Error(`creating an API key answered ${key.status}`);
      return { accountId, key: String(key.body?.data?.key) };
    };
    const cooldown = await account('cooldown', { ...OPEN_LIMITS, resendCooldownSeconds: 30 });
    const traffic = await account('traffic', { ...OPEN_LIMITS, resendCooldownSeconds: 0 });
    const hook = await admin('POST', '/webhooks', {
      url: c.webhook.url,
      events: [
        'verification.created',
        'verification.verified',
        'verification.failed',
        'verification.canceled',
        'verification.expired',
      ],
      accountId: traffic.accountId,
    });
    if (hook.status !== 201) throw new Error(`creating the webhook endpoint answered ${hook.status}`);
    const on = (i: number) => c.urls[i % c.urls.length] as string;
    const send = (i: number, key: string, email: string) =>
      call('POST', `${on(i)}/v1/contact/send-code`, key, { channel: 'EMAIL', email });
    const verify = (i: number, key: string, requestId: string, otpCode: string) =>
      call('POST', `${on(i)}/v1/contact/verify-code`, key, { requestId, otpCode });
    const codeOf = async (requestId: string) =>
      String(
        (await db.query('SELECT outbox_code FROM verifications WHERE id = $1', [requestId])).rows[0]
          ?.outbox_code,
      );

    log('checks: a cooldown counted on one instance, refused on the others');
    {
      const refusals: string[] = [];
      for (let i = 0; i < c.urls.length; i++) {
        const email = `cooldown-${i}-${run}@example.com`;
        const first = await send(i, cooldown.key, email);
        if (first.status !== 200) refusals.push(`first send on instance ${i + 1}: ${first.status}`);
        for (let j = 1; j < c.urls.length; j++) {
          const again = await send(i + j, cooldown.key, email);
          if (again.status !== 429 || again.body?.error?.code !== 'RATE_LIMITED')
            refusals.push(`resend on instance ${((i + j) % c.urls.length) + 1}: ${again.status}`);
        }
      }
      const n = c.urls.length;
      results.push({
        name: 'limits shared: a cooldown refused on another instance',
        passed: refusals.length === 0,
        detail:
          refusals.length === 0
            ? `${n} destinations, each sent on one instance and refused 429 RATE_LIMITED on the ${n - 1} others`
            : refusals.slice(0, 5).join('; '),
      });
    }

    log('checks: sends to one destination racing on every instance');
    {
      const destinations = Array.from({ length: 6 }, (_, d) => `race-${d}-${run}@example.com`);
      const perDestination = 2 * c.urls.length;
      const answers = await Promise.all(
        destinations.flatMap((email) =>
          Array.from({ length: perDestination }, (_, i) => send(i, traffic.key, email)),
        ),
      );
      const { rows } = await db.query<{ destination: string; pending: number; total: number }>(
        `SELECT destination, count(*) FILTER (WHERE status = 'pending')::int AS pending, count(*)::int AS total
         FROM verifications WHERE account_id = $1 AND destination = ANY($2) GROUP BY destination`,
        [traffic.accountId, destinations],
      );
      const ok = answers.filter((a) => a.status === 200).length;
      const wrong = rows.filter((r) => r.pending !== 1);
      // The live one verifies on any instance, once: the same right code on every instance at once.
      const live = await db.query<{ id: string }>(
        `SELECT id FROM verifications WHERE account_id = $1 AND destination = $2 AND status = 'pending'`,
        [traffic.accountId, destinations[0]],
      );
      const liveId = String(live.rows[0]?.id);
      const code = await codeOf(liveId);
      const verifies = await Promise.all(c.urls.map((_, i) => verify(i, traffic.key, liveId, code)));
      const winners = verifies.filter((v) => v.status === 200 && v.body?.data?.verified === true).length;
      results.push({
        name: 'one live code per destination',
        passed:
          ok === answers.length &&
          rows.length === destinations.length &&
          wrong.length === 0 &&
          rows.every((r) => r.total === perDestination) &&
          winners === 1,
        detail:
          `${destinations.length} destinations × ${perDestination} concurrent sends over ${c.urls.length} instances: ` +
          `${ok}/${answers.length} answered 200, ${rows.filter((r) => r.pending === 1).length}/${destinations.length} with exactly one pending request` +
          `${wrong.length > 0 ? ` (not: ${wrong.map((r) => `${r.pending} pending`).join(', ')})` : ''}; ` +
          `its right code sent to every instance at once verified ${winners} time${winners === 1 ? '' : 's'}`,
      });
    }

    log('checks: mixed traffic over every instance');
    const sends = c.sends ?? 240;
    const clients = c.clients ?? 8;
    let nonOk = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: clients }, async (_, client) => {
        for (let n = next++; n < sends; n = next++) {
          // A few destinations come back (a resend cancels the code before it).
          const email = `mix-${n % 5 === 0 ? n % 15 : n}-${run}@example.com`;
          const sent = await send(n + client, traffic.key, email);
          if (sent.status !== 200) {
            nonOk++;
            continue;
          }
          const requestId = String(sent.body?.data?.requestId);
          if (n % 3 === 0) {
            const wrong = await verify(n + 1, traffic.key, requestId, '000000');
            if (wrong.status !== 200) nonOk++;
          }
          if (n % 4 !== 1) {
            const right = await verify(n + 2, traffic.key, requestId, await codeOf(requestId));
            if (right.status !== 200) nonOk++;
          }
        }
      }),
    );

    log('checks: every webhook event once');
    {
      const expected = await db.query<{ type: string; request_id: string }>(
        `SELECT 'verification.created' AS type, id AS request_id FROM verifications WHERE account_id = $1
         UNION ALL
         SELECT 'verification.' || status, id FROM verifications WHERE account_id = $1 AND status <> 'pending'`,
        [traffic.accountId],
      );
      const wanted = new Set(expected.rows.map((r) => `${r.type} ${r.request_id}`));
      const deadline = Date.now() + 60_000;
      // The receiver may have taken other accounts' events before: only this account's count.
      const ours = async () => (await c.webhook.events()).filter((e) => e.accountId === traffic.accountId);
      let events = await ours();
      const keyOf = (e: ReceivedEvent) => `${e.type} ${e.requestId}`;
      while (Date.now() < deadline && [...wanted].some((k) => !events.some((e) => keyOf(e) === k))) {
        await new Promise((r) => setTimeout(r, 250));
        events = await ours();
      }
      // A little longer, for a second delivery of anything, to arrive.
      await new Promise((r) => setTimeout(r, 1500));
      events = await ours();
      const ids = new Map<string, number>();
      const keys = new Map<string, number>();
      for (const e of events) {
        ids.set(e.id, (ids.get(e.id) ?? 0) + 1);
        keys.set(keyOf(e), (keys.get(keyOf(e)) ?? 0) + 1);
      }
      const twice = [...ids.values()].filter((n) => n > 1).length;
      const sameChangeTwice = [...keys.values()].filter((n) => n > 1).length;
      const missing = [...wanted].filter((k) => !keys.has(k));
      const unexpected = [...keys.keys()].filter((k) => !wanted.has(k));
      results.push({
        name: 'each webhook event once',
        passed: twice === 0 && sameChangeTwice === 0 && missing.length === 0 && unexpected.length === 0,
        detail:
          `${events.length} deliveries for ${wanted.size} events: ${twice} delivered twice, ${sameChangeTwice} changes announced twice, ` +
          `${missing.length} missing, ${unexpected.length} unexpected${missing.length > 0 ? ` (first missing: ${missing[0]})` : ''}`,
      });
    }

    log('checks: the analytics against the stored rows');
    {
      const from = new Date(Date.now() - 2 * 86_400_000).toISOString();
      const read = await call(
        'GET',
        `${on(c.urls.length - 1)}/v1/admin/analytics?accountId=${traffic.accountId}&from=${from}&interval=day`,
        c.adminToken,
      );
      const buckets = ((read.body?.data?.buckets ?? []) as Array<Record<string, number>>) ?? [];
      const sum = (field: string) => buckets.reduce((a, b) => a + (b[field] ?? 0), 0);
      const counted = {
        sent: sum('sent'),
        verified: sum('verified'),
        canceled: sum('canceled'),
        failed: sum('failed'),
        expired: sum('expired'),
        wrongCodes: sum('wrongCodes'),
      };
      const { rows } = await db.query(
        `SELECT count(*)::int AS sent, count(*) FILTER (WHERE status = 'verified')::int AS verified,
           count(*) FILTER (WHERE status = 'canceled')::int AS canceled,
           count(*) FILTER (WHERE status = 'failed')::int AS failed,
           count(*) FILTER (WHERE status = 'expired')::int AS expired,
           coalesce(sum(wrong_codes), 0)::int AS "wrongCodes",
           (SELECT coalesce(sum(sends), 0)::int FROM contacts WHERE account_id = $1) AS contact_sends
         FROM verifications WHERE account_id = $1`,
        [traffic.accountId],
      );
      const stored = rows[0] as Record<string, number>;
      const { contact_sends: contactSends, ...truth } = stored;
      const same = Object.entries(truth).every(([k, v]) => counted[k as keyof typeof counted] === v);
      results.push({
        name: 'analytics equal to the stored rows',
        passed: read.status === 200 && same && contactSends === truth.sent && nonOk === 0,
        detail:
          `analytics ${JSON.stringify(counted)}, stored ${JSON.stringify(truth)}, contacts' sends ${contactSends}` +
          (nonOk > 0 ? `; ${nonOk} requests of the mixed traffic did not answer 200` : ''),
      });
    }
  } finally {
    const waits: LockWaitReport = await sampler.stop();
    results.push({
      name: 'no send or verify waits on the fold or the webhook publisher',
      passed: waits.onFold === 0 && waits.foldsAtOnce <= 1,
      detail:
        `${waits.samples} samples of pg_stat_activity, ${waits.requestStatements} of a send or verify at work: ` +
        `${waits.onFold} waiting on the fold or the publisher; at most ${waits.foldsAtOnce} fold${waits.foldsAtOnce === 1 ? '' : 's'} running at once` +
        (waits.examples.length > 0 ? ` (${waits.examples[0]})` : ''),
    });
    await db.end();
  }
  return results;
}
