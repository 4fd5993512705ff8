import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

/**
 * Outbox items of test-mode requests carry `code` while the request is pending, so an automated
 * test reads it without parsing the message; live requests' items never do.
 */

interface Item {
  requestId: string;
  text: string;
  code?: string;
}

eachStore('outbox items carry the code of pending test requests', (start) => {
  let svc: TestService;
  let testKey: string;
  let liveKey: string;
  beforeAll(async () => {
    svc = await start();
    testKey = await svc.createKey({ test: true });
    liveKey = await svc.createKey();
  });
  afterAll(() => svc.close());

  const outbox = async (to: string): Promise<Item[]> => {
    const res = await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(to)}`, ADMIN_TOKEN);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1];

  it('a test request: the code while pending, none once verified', async () => {
    const sent = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 't1@example.com' },
      testKey,
    );
    expect(sent.status).toBe(200);
    const [item] = await outbox('t1@example.com');
    expect(item?.code).toMatch(/^\d{6}$/);
    expect(item?.code).toBe(codeIn(item?.text ?? ''));
    const verified = await svc.post(
      '/v1/contact/verify-code',
      { requestId: sent.body.data.requestId, otpCode: item?.code },
      testKey,
    );
    expect(verified.body.data.verified).toBe(true);
    const [after] = await outbox('t1@example.com');
    expect(after).not.toHaveProperty('code');
    expect(codeIn(after?.text ?? '')).toBeUndefined();
  });

  it('a dual test send: each channel its own code', async () => {
    const sent = await svc.post(
      '/v1/contact/send-code',
      { channels: ['SMS', 'WHATSAPP'], phone: '+14155550101' },
      testKey,
    );
    expect(sent.status).toBe(200);
    const items = await outbox('+14155550101');
    expect(items).toHaveLength(2);
    for (const item of items) expect(item.code).toBe(codeIn(item.text));
  });

  it('a superseded test request: no code (it is canceled); the newer one has its own', async () => {
    const patched = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ resendCooldownSeconds: 0 }),
    });
    expect(patched.statusCode).toBe(200);
    const first = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 't2@example.com' },
      testKey,
    );
    const second = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 't2@example.com' },
      testKey,
    );
    expect([first.status, second.status]).toEqual([200, 200]);
    const items = await outbox('t2@example.com');
    const byRequest = Object.fromEntries(items.map((i) => [i.requestId, i]));
    expect(byRequest[first.body.data.requestId]).not.toHaveProperty('code');
    expect(byRequest[second.body.data.requestId]?.code).toMatch(/^\d{6}$/);
  });

  it('a live request: never a code field, though its text shows the code while pending', async () => {
    const sent = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 'l1@example.com' },
      liveKey,
    );
    expect(sent.status).toBe(200);
    const [item] = await outbox('l1@example.com');
    expect(item).not.toHaveProperty('code');
    expect(codeIn(item?.text ?? '')).toMatch(/^\d{6}$/);
  });
});
