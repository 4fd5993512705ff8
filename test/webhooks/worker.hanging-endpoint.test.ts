import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService, testConfig } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

/**
 * A receiver that accepts the connection and never answers must not hold up the others: the
 * worker keeps a steady pool of attempts, caps each endpoint's share of it, and moves an endpoint
 * that keeps timing out to a slow lane of its own.
 */
describe.each(backends)('a hanging webhook endpoint beside a healthy one ($name)', ({ postgres }) => {
  let db: TestDatabase | undefined;
  let service: TestService | undefined;
  const receivers: WebhookReceiver[] = [];

  afterEach(async () => {
    // Receivers first: closing the hanging one ends the attempts the service would wait for.
    for (const r of receivers.splice(0)) await r.close();
    await service?.close();
    service = undefined;
    await db?.drop();
    db = undefined;
  });

  async function start(env: Record<string, string>) {
    db = postgres ? await createTestDatabase() : undefined;
    service = await startTestService({
      ...(db ? { DATABASE_URL: db.url } : {}),
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      KEY_SEND_PER_SECOND: '10000',
      ...env,
    });
    return service;
  }
  async function endpoint(svc: TestService, options: { hang?: boolean } = {}) {
    const receiver = new WebhookReceiver();
    receiver.hang = options.hang ?? false;
    receivers.push(receiver);
    const res = await svc.post(
      '/v1/admin/webhooks',
      { url: await receiver.listen(), events: ['verification.created'] },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(201);
    receiver.secret = res.body.data.secret;
    return { receiver, id: res.body.data.id as string };
  }
  /** `count` sends through the API, ten at a time; their requestIds. */
  async function send(svc: TestService, count: number): Promise<string[]> {
    const key = await svc.createKey({ channels: ['EMAIL'] });
    const ids: string[] = [];
    for (let i = 0; i < count; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, (_, j) =>
          svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: `hang-${i + j}@example.com` }, key),
        ),
      );
      for (const a of answers) {
        expect(a.status).toBe(200);
        ids.push(a.body.data.requestId);
      }
    }
    return ids;
  }
  /** Waits for an observable condition (up to 10 s on a loaded machine). */
  async function until(condition: () => Promise<boolean>) {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not met within 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  const metric = async (svc: TestService, name: string) => {
    const text = (await svc.app.inject({ method: 'GET', url: '/metrics' })).body;
    const value = new RegExp(`^${name.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1];
    return value === undefined ? undefined : Number(value);
  };

  it('delivers all 107 events to the healthy endpoint within 2 s while the other hangs', async () => {
    const svc = await start({
      // The worker runs on its own timer, as in production.
      WEBHOOK_POLL_INTERVAL_MS: '50',
      // Longer than the test: the hanging attempts are still open at its end.
      WEBHOOK_TIMEOUT_MS: '60000',
    });
    // The default cap of attempts in flight per endpoint.
    const cap = testConfig().webhookMaxInFlightPerEndpoint;
    const hanging = await endpoint(svc, { hang: true });
    const healthy = await endpoint(svc);
    const requestIds = await send(svc, 107);

    // The bound the issue sets, from the last event written: measured 0.05–0.1 s (SQLite) and
    // 0.3–0.8 s (PostgreSQL) with a load average of 25 on two cores.
    const got = await healthy.receiver.waitFor(107, 2000);
    expect(new Set(got.map((r) => r.verified?.data.requestId))).toEqual(new Set(requestIds));
    expect(got.every((r) => r.verifyError === null)).toBe(true);
    // The hanging endpoint holds its cap of attempts, all still open, and no more.
    expect(hanging.receiver.received).toHaveLength(cap);
    expect(hanging.receiver.open).toBe(cap);
    const listed = (await svc.get(`/v1/admin/webhooks/${hanging.id}/deliveries?limit=200`, ADMIN_TOKEN)).body
      .data as Array<{ status: string; attempts: number }>;
    expect(listed).toHaveLength(107);
    expect(listed.every((d) => d.status === 'pending' && d.attempts === 0)).toBe(true);
    // Once the healthy endpoint's last attempts are recorded, the hanging ones are all in flight.
    await until(async () => (await metric(svc, 'contact_verify_webhook_in_flight{lane="main"}')) === cap);
  });

  it('gives an endpoint that keeps timing out one attempt at a time, and its pool back after a success', async () => {
    const svc = await start({
      // Steps are run by the test, once every event is folded into its deliveries.
      WEBHOOK_POLL_INTERVAL_MS: '3600000',
      WEBHOOK_TIMEOUT_MS: '500',
      WEBHOOK_RETRY_SCHEDULE_SECONDS: '0.2,0.2,0.2,0.2,0.2,0.2,0.2,0.2',
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '4',
      WEBHOOK_SLOW_AFTER_TIMEOUTS: '1',
      // Only timeouts are slow here, so that the receiver's slowed answers below (100 ms) bring it
      // back however loaded the machine (late answers: worker.slow-endpoints.test.ts).
      WEBHOOK_SLOW_ATTEMPT_PERCENT: '100',
    });
    const hanging = await endpoint(svc, { hang: true });
    const healthy = await endpoint(svc);
    const requestIds = await send(svc, 12);
    await svc.folds.runOnce();
    // Resolves once nothing is in flight: after the hanging endpoint recovers below.
    const run = svc.webhooks.runOnce();

    await healthy.receiver.waitFor(12);
    // The first four attempts (its cap) time out; then one attempt at a time.
    await hanging.receiver.waitFor(7);
    const arrivals = hanging.receiver.openAtArrival;
    expect(Math.max(...arrivals.slice(0, 4))).toBeLessThanOrEqual(4);
    expect(arrivals.slice(4)).toEqual(arrivals.slice(4).map(() => 1));
    expect(await metric(svc, 'contact_verify_webhook_slow_endpoints')).toBe(1);
    expect(await metric(svc, 'contact_verify_webhook_in_flight{lane="slow"}')).toBeLessThanOrEqual(1);

    // It answers again (slowly, so that attempts overlap): the first success puts it back in the
    // main lane, where it has its cap of attempts in flight again.
    const recovered = hanging.receiver.received.length;
    hanging.receiver.delayMs = 100;
    hanging.receiver.hang = false;
    await run;
    const answered = () => hanging.receiver.received.filter((r) => r.answered === 200);
    // Retries not due yet when the pool ran dry wait for a step of their own.
    await until(async () => {
      await svc.webhooks.runOnce();
      return new Set(answered().map((r) => r.verified?.data.requestId)).size === requestIds.length;
    });
    const after = hanging.receiver.openAtArrival.slice(recovered);
    expect(after[0]).toBe(1);
    expect(Math.max(...after)).toBeGreaterThan(1);
    expect(Math.max(...after)).toBeLessThanOrEqual(4);
    expect(await metric(svc, 'contact_verify_webhook_slow_endpoints')).toBe(0);
    expect(new Set(answered().map((r) => r.verified?.data.requestId))).toEqual(new Set(requestIds));
    const listed = (await svc.get(`/v1/admin/webhooks/${hanging.id}/deliveries`, ADMIN_TOKEN)).body
      .data as Array<{ status: string }>;
    expect(listed.every((d) => d.status === 'succeeded')).toBe(true);
  });
});
