import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { type ChangeRow, changeStatements } from '../support/changes.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { waitFor } from '../support/wait.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** Raw access to the service's database, to write changes as the stores do. */
interface Db {
  url: string;
  dialect: 'sqlite' | 'postgres';
  /** Writes one change and its request (or contact); resolves the request's (or contact's) id. */
  insert(row: ChangeRow): Promise<string>;
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

async function sqliteDb(dir: string): Promise<Db> {
  const path = join(dir, 'verify.db');
  let db: BetterSqlite3.Database | null = null;
  const open = () => {
    db ??= new BetterSqlite3(path);
    return db;
  };
  return {
    url: `sqlite:${path}`,
    dialect: 'sqlite',
    async insert(row) {
      const { statements, subjectId } = changeStatements(row, 'sqlite');
      for (const { sql, params } of statements)
        open()
          .prepare(sql)
          .run(...params);
      return subjectId;
    },
    async query(sql) {
      const statement = open().prepare(sql);
      if (!statement.reader) {
        statement.run();
        return [];
      }
      return statement.all() as Array<Record<string, unknown>>;
    },
    async close() {
      db?.close();
    },
  };
}

async function postgresDb(database: TestDatabase): Promise<Db> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    url: database.url,
    dialect: 'postgres',
    async insert(row) {
      const { statements, subjectId } = changeStatements(row, 'postgres');
      for (const { sql, params } of statements) await client.query(sql, params);
      return subjectId;
    },
    async query(sql) {
      return (await client.query(sql)).rows;
    },
    close: () => client.end(),
  };
}

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

describe.each(backends)('webhook delivery from the change log ($name)', ({ postgres }) => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-webhooks-'));
  let pgDatabase: TestDatabase | undefined;
  let db: Db;
  let service: TestService;
  const receiver = new WebhookReceiver();
  let receiverUrl = '';
  const env = () => ({
    DATABASE_URL: db.url,
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    // Steps are run by the tests (deliverNow), not by the timers.
    WEBHOOK_POLL_INTERVAL_MS: '3600000',
    FOLD_INTERVAL_MS: '60000',
    WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.05,0.05,0.05',
    WEBHOOK_TIMEOUT_MS: '2000',
  });

  beforeAll(async () => {
    pgDatabase = postgres ? await createTestDatabase() : undefined;
    db = pgDatabase ? await postgresDb(pgDatabase) : await sqliteDb(dir);
    service = await startTestService(env());
    receiverUrl = await receiver.listen();
  });
  afterAll(async () => {
    await service?.close();
    await db?.close();
    await receiver.close();
    await pgDatabase?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function endpoint(svc: TestService, events: string[] = [...WEBHOOK_EVENT_TYPES], accountId?: string) {
    const res = await svc.post('/v1/admin/webhooks', { url: receiverUrl, events, accountId }, ADMIN_TOKEN);
    expect(res.status).toBe(201);
    receiver.secret = res.body.data.secret;
    return res.body.data as { id: string; secret: string };
  }
  /** The webhook attempt counters of verification.verified, from /metrics. */
  const attemptCounts = async () => {
    const text = (await service.app.inject({ method: 'GET', url: '/metrics' })).body;
    const count = (outcome: string) =>
      Number(
        new RegExp(
          `^contact_verify_webhook_attempts_total\\{event_type="verification.verified",outcome="${outcome}"\\} (\\d+)$`,
          'm',
        ).exec(text)?.[1] ?? 0,
      );
    return { retrying: count('retrying'), succeeded: count('succeeded') };
  };
  /** One fold of the change log, then one step of the worker. */
  /**
   * One fold and one worker step; the step returns once every attempt it started is recorded,
   * and the receiver has seen each request before answering it, so what arrived is then final:
   * "nothing more arrived" needs no waiting.
   */
  const deliverNow = async (svc: TestService = service) => {
    await svc.folds.runOnce();
    await svc.webhooks.runOnce();
  };
  /** The request (or contact) id an event names. */
  const subjectOf = (hit: { verified?: { data: { requestId?: string; contactId?: string } } | null }) =>
    hit.verified?.data.requestId ?? hit.verified?.data.contactId;
  const deliveries = async (id: string) =>
    (await service.get(`/v1/admin/webhooks/${id}/deliveries`, ADMIN_TOKEN)).body.data;
  const remove = (id: string) =>
    service.app.inject({
      method: 'DELETE',
      url: `/v1/admin/webhooks/${id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });

  it('sends every event type, signed, with the event id as webhook-id, and never the internal one', async () => {
    const hook = await endpoint(service);
    receiver.received.length = 0;
    const ids = new Map<string, string>();
    for (const type of WEBHOOK_EVENT_TYPES) ids.set(await db.insert({ type, provider: 'smtp' }), type);
    // A send moved to its provider's count announces nothing.
    await db.insert({ type: 'verification.dispatched', provider: 'smtp' });
    await deliverNow();
    const got = await receiver.waitFor(WEBHOOK_EVENT_TYPES.length);
    expect(receiver.received).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    for (const hit of got) {
      expect(hit.verifyError).toBeNull();
      const event = hit.verified as NonNullable<typeof hit.verified>;
      expect(ids.get(subjectOf(hit) as string)).toBe(event.type);
      expect(event.data.id).toBe(hit.headers['webhook-id']);
      expect(event.data.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
      expect(event.data).toMatchObject({
        accountId: 'acc_default',
        channel: 'EMAIL',
        to: 'j***@example.com',
        provider: 'smtp',
      });
      expect(hit.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    expect(new Set(got.map((h) => h.verified?.type))).toEqual(new Set(WEBHOOK_EVENT_TYPES));
    const listed = await deliveries(hook.id);
    expect(listed).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    expect(
      listed.every(
        (d: { status: string; responseStatus: number }) =>
          d.status === 'succeeded' && d.responseStatus === 200,
      ),
    ).toBe(true);
    // Folded changes are not taken again.
    await deliverNow();
    expect(receiver.received).toHaveLength(WEBHOOK_EVENT_TYPES.length);
    await remove(hook.id);
  });

  it('retries a receiver that answers 500 twice: three requests with the same webhook-id', async () => {
    const hook = await endpoint(service, ['verification.verified']);
    receiver.received.length = 0;
    receiver.answers = [500, 500];
    const before = await attemptCounts();
    await db.insert({ type: 'verification.verified', status: 'verified' });
    // Each retry is sent by the first step after it is due (50 ms after the failure), or by the
    // step of the attempt before when the slot that attempt frees claims later than that (a
    // loaded machine).
    for (let i = 0; i < 3; i++) {
      await waitFor(async () => {
        await deliverNow();
        return receiver.received.length >= i + 1;
      });
    }
    const eventId = receiver.received[0]?.headers['webhook-id'];
    expect(receiver.received.map((r) => r.answered)).toEqual([500, 500, 200]);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const [delivery] = await deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, eventId });
    const after = await attemptCounts();
    expect(after.retrying - before.retrying).toBe(2);
    expect(after.succeeded - before.succeeded).toBe(1);

    // A replay sends it once more, with the same id.
    const replay = await service.post(
      `/v1/admin/webhooks/${hook.id}/deliveries/${delivery.id}/replay`,
      {},
      ADMIN_TOKEN,
    );
    expect(replay.status).toBe(202);
    await deliverNow();
    await receiver.waitFor(4);
    expect(receiver.received[3]?.headers['webhook-id']).toBe(eventId);
    await remove(hook.id);
  });

  it('only sends an account its own events', async () => {
    const other = await service.post('/v1/admin/accounts', { name: 'other' }, ADMIN_TOKEN);
    const hook = await endpoint(service, ['verification.created'], other.body.data.id);
    receiver.received.length = 0;
    await db.insert({ type: 'verification.created' });
    const mine = await db.insert({ type: 'verification.created', accountId: other.body.data.id });
    await deliverNow();
    await receiver.waitFor(1);
    expect(receiver.received.map(subjectOf)).toEqual([mine]);
    await remove(hook.id);
  });

  it('refuses a private address at delivery time without WEBHOOKS_ALLOW_PRIVATE', async () => {
    const hook = await endpoint(service, ['verification.canceled']);
    receiver.received.length = 0;
    // A retry far off: a freed slot would otherwise send a retry due within the step.
    const strict = await startTestService({
      ...env(),
      WEBHOOKS_ALLOW_PRIVATE: 'false',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '3600',
    });
    try {
      await db.insert({ type: 'verification.canceled' });
      await deliverNow(strict);
      expect(receiver.received).toHaveLength(0);
      const [delivery] = await deliveries(hook.id);
      expect(delivery.status).toBe('pending');
      expect(delivery.attempts).toBe(1);
      expect(delivery.lastError).toMatch(/127\.0\.0\.1.*loopback, private or link-local/);
    } finally {
      await strict.close();
      await remove(hook.id);
    }
  });

  it('disables an endpoint that has failed for longer than WEBHOOK_DISABLE_AFTER_SECONDS', async () => {
    const clock = new ManualClock(Date.now());
    const svc = await startTestService(
      { ...env(), WEBHOOK_DISABLE_AFTER_SECONDS: '60', WEBHOOK_RETRY_SCHEDULE_SECONDS: '1,1,1,1' },
      { clock },
    );
    try {
      const hook = await endpoint(svc, ['verification.failed']);
      receiver.received.length = 0;
      receiver.answers = [503, 503, 503];
      await db.insert({ type: 'verification.failed', status: 'failed' });
      await deliverNow(svc);
      await receiver.waitFor(1);
      clock.advance(61_000);
      await svc.webhooks.runOnce();
      await receiver.waitFor(2);
      const read = (await svc.get(`/v1/admin/webhooks/${hook.id}`, ADMIN_TOKEN)).body.data;
      expect(read.enabled).toBe(false);
      expect(read.disabledReason).toMatch(/failed/);
      const [delivery] = (await svc.get(`/v1/admin/webhooks/${hook.id}/deliveries`, ADMIN_TOKEN)).body.data;
      expect(delivery.status).toBe('failed');
      clock.advance(61_000);
      await svc.webhooks.runOnce();
      expect(receiver.received).toHaveLength(2);
      receiver.answers = [];
      await remove(hook.id);
    } finally {
      await svc.close();
    }
  });

  it('keeps the signing secret sealed in the database', async () => {
    const hook = await endpoint(service, ['verification.created']);
    const rows = await db.query('SELECT secret FROM webhook_endpoints');
    const secretBody = hook.secret.slice('whsec_'.length);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(String(row.secret)).toMatch(/^v1\./);
      expect(String(row.secret)).not.toContain(secretBody);
    }
    await remove(hook.id);
  });
});
