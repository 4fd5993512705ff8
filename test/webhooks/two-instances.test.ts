import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { journalInsertSql, journalValues } from '../support/journal.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Two instances over one PostgreSQL database, each with its worker on a short timer: the fan-out
 * and the claims skip what the other holds, so every event reaches the receiver once.
 */
describe.skipIf(!hasPostgres)('webhooks from two instances over PostgreSQL', () => {
  let database: TestDatabase;
  let a: TestService;
  let b: TestService;
  let client: pg.Client;
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      DATABASE_URL: database.url,
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '20',
    };
    a = await startTestService(env);
    b = await startTestService(env);
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await client?.end();
    await receiver.close();
    await database?.drop();
  });

  it('delivers each of 300 events exactly once', async () => {
    const url = await receiver.listen();
    const created = await a.post(
      '/v1/admin/webhooks',
      { url, events: ['verification.verified'] },
      ADMIN_TOKEN,
    );
    receiver.secret = created.body.data.secret;
    const ids: string[] = [];
    // Written in small transactions while both workers run, as sends on several instances would.
    for (let i = 0; i < 30; i++) {
      const rows = Array.from({ length: 10 }, () =>
        journalValues({ type: 'verification.verified' }, 'postgres'),
      );
      await client.query('BEGIN');
      for (const values of rows) await client.query(journalInsertSql('postgres'), values);
      await client.query('COMMIT');
      ids.push(...rows.map((r) => r[0] as string));
    }
    await receiver.waitFor(300, 60_000);
    // Time for a duplicate to show up, were there one.
    await new Promise((r) => setTimeout(r, 500));
    const received = receiver.received.map((r) => r.headers['webhook-id']);
    expect(received).toHaveLength(300);
    expect(new Set(received)).toEqual(new Set(ids));
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
    const { rows } = await client.query(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded' AND attempts = 1",
    );
    expect(rows[0].n).toBe(300);
  });
});
