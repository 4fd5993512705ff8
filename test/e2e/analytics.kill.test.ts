import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { postJson, type RunningServer, startServer } from '../support/process.js';
import { hasPostgres } from '../support/services.js';
import { waitFor } from '../support/wait.js';

const ADMIN = 'e2e-admin-token-of-thirty-two-chars-or-more';

/** The state the database holds: what the analytics must agree with. */
interface Truth {
  sent: number;
  verified: number;
  canceled: number;
  expired: number;
  failed: number;
  /** Attempts counted on each group, less the one that verified it. */
  wrongCodes: number;
  /** Changes not folded yet: none once an analytics read has answered. */
  unfolded: number;
}

/** The changes not folded yet: on PostgreSQL, those of the send statements' sets too (migration 187). */
const UNFOLDED = {
  sqlite: '(SELECT count(*) FROM changes)',
  postgres:
    '(SELECT count(*) FROM changes) + (SELECT coalesce(sum(cardinality(request_ids)), 0) FROM change_sets)',
};

const truthSql = (dialect: keyof typeof UNFOLDED) => `SELECT count(*) AS sent,
    sum(CASE WHEN status = 'verified' THEN 1 ELSE 0 END) AS verified,
    sum(CASE WHEN status = 'canceled' THEN 1 ELSE 0 END) AS canceled,
    sum(CASE WHEN status = 'expired' THEN 1 ELSE 0 END) AS expired,
    sum(CASE WHEN status = 'failed' THEN 1 ELSE 0 END) AS failed,
    (SELECT sum(m) FROM (SELECT max(attempts) - max(CASE WHEN status = 'verified' THEN 1 ELSE 0 END) AS m
       FROM verifications GROUP BY group_id) g) AS wrong_codes,
    ${UNFOLDED[dialect]} AS unfolded
  FROM verifications`;

/**
 * A mix of sends (single, dual, resends), wrong and right codes from many clients at once, the
 * process killed with SIGKILL in the middle of it, then restarted: the analytics answer exactly
 * what the database holds, because every change is logged in the statement (or write unit) that
 * makes it, and folded once.
 */
function killSuite(
  name: string,
  env: () => Record<string, string>,
  truth: () => Promise<Truth>,
  wrongCodeWindow = 0,
) {
  it(`${name}: the analytics agree with the requests after kill -9 in the middle of traffic`, async () => {
    const servers: RunningServer[] = [];
    try {
      const first = await startServer({ ADMIN_TOKEN: ADMIN, RESEND_COOLDOWN_SECONDS: '0', ...env() });
      servers.push(first);
      const keyRes = await postJson(
        `${first.url}/v1/admin/api-keys`,
        { name: 'k', channels: ['EMAIL', 'SMS'] },
        ADMIN,
      );
      const key = keyRes.body.data.key as string;
      const codeOf = async (to: string) => {
        const res = await fetch(`${first.url}/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=1`, {
          headers: { authorization: `Bearer ${ADMIN}` },
        });
        const body = (await res.json()) as { data: Array<{ text: string }> };
        return /\b(\d{6})\b/.exec(body.data[0]?.text ?? '')?.[1] ?? '000000';
      };
      let stop = false;
      let acknowledged = 0;
      const client = async (c: number) => {
        for (let i = 0; !stop; i++) {
          const email = `c${c}-${i % 3}@example.com`;
          const dual = i % 5 === 0;
          const body = dual
            ? {
                channels: ['EMAIL', 'SMS'],
                email,
                phone: `+1415555${String(1000 + c * 10 + (i % 3))}`,
                country: 'US',
              }
            : { channel: 'EMAIL', email };
          const sent = await postJson(`${first.url}/v1/contact/send-code`, body, key).catch(() => null);
          const entry =
            sent?.body?.data && (Array.isArray(sent.body.data) ? sent.body.data[0] : sent.body.data);
          if (!entry) continue;
          acknowledged++;
          const guess = i % 2 === 0 ? await codeOf(email).catch(() => '000000') : '000000';
          for (const code of guess === '000000' ? ['000000'] : ['000001', guess]) {
            await postJson(
              `${first.url}/v1/contact/verify-code`,
              { requestId: entry.requestId, code },
              key,
            ).catch(() => null);
          }
        }
      };
      const clients = Array.from({ length: 12 }, (_, c) => client(c));
      // Killed mid-traffic, once enough has been acknowledged to leave folds and flushes under way.
      await waitFor(() => acknowledged >= 100, { timeoutMs: 30_000, what: '100 acknowledged sends' });
      first.child.kill('SIGKILL');
      stop = true;
      expect(await first.exited).toBe('SIGKILL');
      await Promise.all(clients);

      const second = await startServer({ ADMIN_TOKEN: ADMIN, ...env() });
      servers.push(second);
      const res = await fetch(
        `${second.url}/v1/admin/analytics?from=${new Date(Date.now() - 86_400_000).toISOString()}&interval=day`,
        { headers: { authorization: `Bearer ${ADMIN}` } },
      );
      const buckets = ((await res.json()) as { data: { buckets: Array<Record<string, number>> } }).data
        .buckets;
      const sum = (field: string) => buckets.reduce((a, b) => a + (b[field] ?? 0), 0);
      const t = await truth();
      expect(t.sent).toBeGreaterThan(20);
      expect(t.verified).toBeGreaterThan(0);
      const counted = {
        sent: sum('sent'),
        verified: sum('verified'),
        canceled: sum('canceled'),
        expired: sum('expired'),
        failed: sum('failed'),
        wrongCodes: sum('wrongCodes'),
        unfolded: 0,
      };
      expect({ ...counted, wrongCodes: 0 }).toEqual({ ...t, wrongCodes: 0 });
      expect(t.wrongCodes - counted.wrongCodes).toBeGreaterThanOrEqual(0);
      expect(t.wrongCodes - counted.wrongCodes).toBeLessThanOrEqual(wrongCodeWindow);
    } finally {
      for (const s of servers) s.child.kill('SIGKILL');
    }
  }, 60_000);
}

describe('analytics across kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-kill-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'verify.db');
  killSuite(
    'SQLite',
    () => ({ DATABASE_URL: `sqlite:${file}` }),
    async () => {
      const db = new BetterSqlite3(file, { readonly: true });
      try {
        return truthOf(db.prepare(truthSql('sqlite')).get() as Record<string, unknown>);
      } finally {
        db.close();
      }
    },
  );
});

describe.runIf(hasPostgres)('analytics across kill -9 on PostgreSQL', () => {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  killSuite(
    'PostgreSQL',
    () => ({ DATABASE_URL: (db as TestDatabase).url }),
    async () => {
      const client = new pg.Client({ connectionString: (db as TestDatabase).url });
      await client.connect();
      try {
        return truthOf((await client.query(truthSql('postgres'))).rows[0]);
      } finally {
        await client.end();
      }
    },
    // A wrong code's event follows its counted attempt by one statement on PostgreSQL
    // (docs/events.md): a guess in flight at the kill may have been counted without it.
    12,
  );
});

const truthOf = (r: Record<string, unknown>): Truth => ({
  sent: Number(r.sent),
  verified: Number(r.verified ?? 0),
  canceled: Number(r.canceled ?? 0),
  expired: Number(r.expired ?? 0),
  failed: Number(r.failed ?? 0),
  wrongCodes: Number(r.wrong_codes ?? 0),
  unfolded: Number(r.unfolded),
});
