import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';
import { type FakeSmtp, startFakeSmtp } from '../delivery/support/fake-smtp.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { type ReceivedWebhook, WebhookReceiver } from '../support/webhook-receiver.js';

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || hasPostgres);

/** verification.verified says how: `link` for a magic link's POST, `code` for verify-code. */
describe.each(backends)('the method of verification.verified ($name)', ({ postgres }) => {
  let db: TestDatabase | undefined;
  let smtp: FakeSmtp;
  let service: TestService;
  let apiKey = '';
  const receiver = new WebhookReceiver();

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    smtp = await startFakeSmtp();
    service = await startTestService({
      ...(db ? { DATABASE_URL: db.url } : {}),
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_INTERVAL_MS: '3600000',
      RESEND_COOLDOWN_SECONDS: '0',
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      PUBLIC_BASE_URL: 'https://verify.example.test',
    });
    apiKey = await service.createKey({ channels: ['EMAIL'] });
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
    await smtp?.close();
    await db?.drop();
  });

  async function verifiedEvent(requestId: string): Promise<ReceivedWebhook | undefined> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      await service.folds.runOnce();
      await service.webhooks.runOnce();
      const hit = receiver.received.find(
        (r) => r.verified?.data.requestId === requestId && r.verified?.type === 'verification.verified',
      );
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  }
  const sendWithLink = async (email: string) => {
    const res = await service.post('/v1/contact/send-code', { channel: 'EMAIL', email, link: {} }, apiKey);
    expect(res.status).toBe(200);
    const text = [...smtp.mails].reverse().find((m) => m.envelopeTo.includes(email))?.mail.text ?? '';
    return {
      requestId: res.body.data.requestId as string,
      token: /\/v1\/links\/([A-Za-z0-9_-]{43})/.exec(text)?.[1] as string,
      code: /\b(\d{6})\b/.exec(text)?.[1] as string,
    };
  };

  it('a link used: method "link"; a code used: method "code"', async () => {
    const byLink = await sendWithLink('hook-link@example.com');
    expect((await service.app.inject({ method: 'POST', url: `/v1/links/${byLink.token}` })).statusCode).toBe(
      200,
    );
    expect((await verifiedEvent(byLink.requestId))?.verified?.data).toMatchObject({
      status: 'verified',
      method: 'link',
    });
    const byCode = await sendWithLink('hook-code@example.com');
    const res = await service.post(
      '/v1/contact/verify-code',
      { requestId: byCode.requestId, code: byCode.code },
      apiKey,
    );
    expect(res.body.data.verified).toBe(true);
    expect((await verifiedEvent(byCode.requestId))?.verified?.data).toMatchObject({
      status: 'verified',
      method: 'code',
    });
  });
});
