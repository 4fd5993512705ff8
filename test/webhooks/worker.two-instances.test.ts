import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { waitFor } from '../support/wait.js';
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

  it('delivers the event of each of 200 sends, made on both instances, exactly once', async () => {
    const url = await receiver.listen();
    const created = await a.post(
      '/v1/admin/webhooks',
      { url, events: ['verification.created'] },
      ADMIN_TOKEN,
    );
    receiver.secret = created.body.data.secret;
    const apiKey = await a.createKey({ channels: ['EMAIL'] });
    const requestIds: string[] = [];
    // Sends on both instances while both workers run, in rounds of 20 (10 on each).
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).post(
            '/v1/contact/send-code',
            { channel: 'EMAIL', email: `two-${round}-${i}@example.com` },
            apiKey,
          ),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        requestIds.push(answer.body.data.requestId);
      }
    }
    await receiver.waitFor(200, 60_000);
    // The receiver may have answered before an instance recorded the success: wait for the
    // records, then every delivery must have succeeded on its first attempt. Once all 200 are
    // recorded nothing can be claimed again, so a duplicate, were there one, has arrived by then.
    const firstAttempts = async () =>
      (
        await client.query(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'succeeded' AND attempts = 1",
        )
      ).rows[0].n as number;
    await waitFor(async () => (await firstAttempts()) === 200, { what: '200 deliveries recorded' }).catch(
      () => undefined,
    );
    expect(await firstAttempts()).toBe(200);
    expect(receiver.received).toHaveLength(200);
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(200);
    expect(new Set(receiver.received.map((r) => r.verified?.data.requestId))).toEqual(new Set(requestIds));
    expect(receiver.received.every((r) => r.verifyError === null)).toBe(true);
  });
});
