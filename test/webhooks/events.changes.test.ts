import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

/**
 * Real state changes (send, supersede, wrong and right codes, attempts used up, expiry by the
 * sweeper, delivery reports) reach a loopback receiver as signed webhooks through the change log.
 */
describe.each(backends)('webhooks for real state changes ($name)', ({ postgres }) => {
  let db: TestDatabase | undefined;
  let service: TestService;
  let apiKey = '';
  const clock = new ManualClock(Date.now());
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    service = await startTestService(
      {
        ...(db ? { DATABASE_URL: db.url } : {}),
        WEBHOOKS_ALLOW_PRIVATE: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '3600000',
        RESEND_COOLDOWN_SECONDS: '0',
        CODE_TTL_SECONDS: '60',
        MAX_ATTEMPTS: '2',
      },
      { clock },
    );
    apiKey = await service.createKey();
    const url = await receiver.listen();
    const created = await service.post(
      '/v1/admin/webhooks',
      { url, events: [...WEBHOOK_EVENT_TYPES] },
      ADMIN_TOKEN,
    );
    receiver.secret = created.body.data.secret;
  });
  afterAll(async () => {
    await service?.close();
    await receiver.close();
    await db?.drop();
  });

  const send = async (email: string) => {
    const res = await service.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email, purpose: 'login' },
      apiKey,
    );
    expect(res.status).toBe(200);
    return res.body.data.requestId as string;
  };
  const verify = (requestId: string, otpCode: string) =>
    service.post('/v1/contact/verify-code', { requestId, otpCode }, apiKey);
  const wrong = (code: string) => code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10);
  /** Runs the worker and returns the events that arrived for `requestId`, by type. */
  async function arrived(requestId: string, count: number): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + 10_000;
    let mine: ReceivedWebhook[] = [];
    while (Date.now() < deadline) {
      await service.folds.runOnce();
      await service.webhooks.runOnce();
      mine = receiver.received.filter((r) => r.verified?.data.requestId === requestId);
      if (mine.length >= count) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    return mine;
  }
  const types = (hits: ReceivedWebhook[]) => hits.map((h) => h.verified?.type);

  it('created, then verified; a wrong code sends nothing', async () => {
    const requestId = await send('verified@example.com');
    const code = await service.lastCode('verified@example.com');
    expect((await verify(requestId, wrong(code))).body.data.verified).toBe(false);
    expect((await verify(requestId, code)).body.data.verified).toBe(true);
    const hits = await arrived(requestId, 2);
    expect(types(hits)).toEqual(['verification.created', 'verification.verified']);
    for (const hit of hits) {
      expect(hit.verifyError).toBeNull();
      expect(hit.verified?.data).toMatchObject({
        requestId,
        channel: 'EMAIL',
        to: expect.stringMatching(/^v\*+@example\.com$/),
        purpose: 'login',
        // The locale the message was written in: no tag, no account default, no phone: English.
        locale: 'en',
      });
      expect(hit.body).not.toContain(code);
      expect(hit.body).not.toContain('verified@example.com');
    }
    expect(hits[1]?.verified?.data.status).toBe('verified');
  });

  it('canceled when a newer send supersedes it', async () => {
    const first = await send('superseded@example.com');
    await send('superseded@example.com');
    expect(types(await arrived(first, 2))).toEqual(['verification.created', 'verification.canceled']);
  });

  it('failed when the attempts are used up', async () => {
    const requestId = await send('failed@example.com');
    const code = await service.lastCode('failed@example.com');
    await verify(requestId, wrong(code));
    await verify(requestId, wrong(code));
    expect(types(await arrived(requestId, 2))).toEqual(['verification.created', 'verification.failed']);
  });

  it('expired by the sweeper, with no request to the API', async () => {
    const requestId = await send('expired@example.com');
    clock.advance(61_000);
    await service.store.verifications.sweep(clock.now(), 30 * 86_400_000, 500);
    expect(types(await arrived(requestId, 2))).toEqual(['verification.created', 'verification.expired']);
  });

  it('delivered and undelivered as the delivery layer records them, with the provider', async () => {
    const delivered = await send('delivered@example.com');
    await service.store.verifications.recordDelivery(delivered, {
      at: Date.now(),
      deliveryStatus: 'delivered',
      provider: 'smtp',
      providerMessageId: 'msg-1',
    });
    const hits = await arrived(delivered, 2);
    expect(types(hits)).toEqual(['verification.created', 'verification.delivered']);
    expect(hits[1]?.verified?.data.provider).toBe('smtp');

    const undelivered = await send('undelivered@example.com');
    await service.store.verifications.recordDelivery(undelivered, {
      at: Date.now(),
      deliveryStatus: 'failed',
      provider: 'smtp',
      providerMessageId: null,
      error: 'refused',
      cancel: true,
    });
    expect(types(await arrived(undelivered, 3))).toEqual([
      'verification.created',
      'verification.undelivered',
      'verification.canceled',
    ]);
  });

  it('contact.blocked and contact.unblocked when an operator blocks and unblocks a destination', async () => {
    await send('blocked@example.com');
    const found = await service.get(
      '/v1/admin/contacts?accountId=acc_default&q=blocked%40example.com',
      ADMIN_TOKEN,
    );
    const contactId = found.body.data[0]?.id as string;
    expect(contactId).toBeTruthy();
    expect(
      (await service.post(`/v1/admin/contacts/${contactId}/block`, { reason: 'abuse' }, ADMIN_TOKEN)).status,
    ).toBe(200);
    expect((await service.post(`/v1/admin/contacts/${contactId}/unblock`, {}, ADMIN_TOKEN)).status).toBe(200);
    const deadline = Date.now() + 10_000;
    let mine: ReceivedWebhook[] = [];
    while (Date.now() < deadline && mine.length < 2) {
      await service.folds.runOnce();
      await service.webhooks.runOnce();
      mine = receiver.received.filter(
        (r) => r.verified?.data.contactId === contactId && r.verified?.type.startsWith('contact.'),
      );
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(types(mine)).toEqual(['contact.blocked', 'contact.unblocked']);
    expect(mine.every((h) => h.verifyError === null)).toBe(true);
    expect(mine[0]?.body).not.toContain('blocked@example.com');
  });
});
