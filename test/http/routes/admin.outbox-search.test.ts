import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

/**
 * GET /v1/admin/outbox?requestId=: the message of one request (what an operator pastes from a log
 * line), and the dual pair's link: each message of a dual send names its group and the other
 * request of the pair.
 */

interface Item {
  requestId: string;
  groupId: string;
  siblingRequestId?: string;
  channel: string;
  to: string;
}

eachStore('outbox: search by request id, and the two messages of a dual send', (start) => {
  let svc: TestService;
  let liveKey: string;
  let testKey: string;
  beforeAll(async () => {
    svc = await start();
    liveKey = await svc.createKey();
    testKey = await svc.createKey({ test: true });
  });
  afterAll(() => svc.close());

  const outbox = async (query: string) => {
    const res = await svc.get(`/v1/admin/outbox?${query}`, ADMIN_TOKEN);
    return { status: res.status, items: (res.body.data ?? []) as Item[], body: res.body };
  };

  it('finds the message of one request by its id, in its account and mode only', async () => {
    const sent = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: 's1@example.com' },
      liveKey,
    );
    expect(sent.status).toBe(200);
    const { requestId } = sent.body.data;
    // Another message to the same person, so the id is what tells them apart.
    await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155550123' }, liveKey);

    const found = await outbox(`requestId=${requestId}`);
    expect(found.status).toBe(200);
    expect(found.items).toEqual([
      expect.objectContaining({ requestId, groupId: requestId, channel: 'EMAIL', to: 's1@example.com' }),
    ]);
    expect(found.items[0]).not.toHaveProperty('siblingRequestId');
    expect(found.body.nextCursor).toBeNull();
    expect((await outbox(`requestId=${requestId}&accountId=acc_default&mode=live`)).items).toHaveLength(1);
    expect((await outbox(`requestId=${requestId}&mode=test`)).items).toEqual([]);
    expect((await outbox(`requestId=${requestId}&accountId=acc_other`)).items).toEqual([]);
    expect((await outbox(`requestId=${requestId}&to=%2B14155550123`)).items).toEqual([]);
    expect((await outbox('requestId=0190a0b0-0000-7000-8000-000000000000')).items).toEqual([]);
  });

  it('refuses a request id that is not one, naming the parameter', async () => {
    const bad = await outbox('requestId=s1@example.com');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(bad.body.error)).toContain('requestId');
  });

  it('each message of a dual send names its group and the other request', async () => {
    const sent = await svc.post(
      '/v1/contact/send-code',
      { channels: ['EMAIL', 'SMS'], email: 'pair@example.com', phone: '+14155550142' },
      testKey,
    );
    expect(sent.status).toBe(200);
    const [email, sms] = (sent.body.data as Array<{ requestId: string }>).map((d) => d.requestId);
    const [emailItem] = (await outbox(`requestId=${email}`)).items;
    const [smsItem] = (await outbox(`requestId=${sms}`)).items;
    expect(emailItem).toMatchObject({
      requestId: email,
      groupId: email,
      siblingRequestId: sms,
      channel: 'EMAIL',
    });
    expect(smsItem).toMatchObject({
      requestId: sms,
      groupId: email,
      siblingRequestId: email,
      channel: 'SMS',
    });
    // The listing carries the same fields.
    const listed = (await outbox('mode=test&limit=10')).items.filter((i) => i.groupId === email);
    expect(listed.map((i) => [i.requestId, i.siblingRequestId])).toEqual([
      [sms, email],
      [email, sms],
    ]);
  });
});
