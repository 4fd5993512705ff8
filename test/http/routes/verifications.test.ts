import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';
const resource = (id: string) => `/v1/contact/verifications/${id}`;
const cancel = (id: string) => `/v1/contact/verifications/${id}/cancel`;
const T0 = Date.parse('2026-03-01T10:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** A wrong code that differs from `code` in every digit. */
const wrong = (code: string) => code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));

eachStore('GET and cancel a verification', (start) => {
  let svc: TestService;
  let key: string;
  let accountId: string;
  const clock = new ManualClock(T0);
  let n = 0;
  const email = () => `resource${++n}@example.com`;
  const phone = () => `+1415555${String(2000 + n).slice(-4)}`;

  beforeAll(async () => {
    svc = await start({ RESEND_COOLDOWN_SECONDS: '0' }, { clock });
    const account = await svc.post('/v1/admin/accounts', { name: 'Resource' }, ADMIN_TOKEN);
    accountId = account.body.data.id;
    key = await svc.createKey({ accountId });
  });
  afterAll(() => svc.close());

  async function sendEmail() {
    const to = email();
    const res = await svc.post(SEND, { channel: 'EMAIL', email: to }, key);
    expect(res.status).toBe(200);
    return { id: res.body.data.requestId as string, code: await svc.lastCode(to), to };
  }
  async function sendDual() {
    const [e, p] = [email(), phone()];
    const res = await svc.post(SEND, { channels: ['EMAIL', 'SMS'], email: e, phone: p }, key);
    expect(res.status).toBe(200);
    const [a, b] = res.body.data;
    return {
      email: { id: a.requestId as string, code: await svc.lastCode(e) },
      sms: { id: b.requestId as string, code: await svc.lastCode(p) },
    };
  }
  const outboxStatus = async (requestId: string) =>
    (await svc.get(`/v1/admin/outbox?requestId=${requestId}`, ADMIN_TOKEN)).body.data[0]?.status;

  it('answers a pending request with every field of the contract', async () => {
    const a = await sendEmail();
    const res = await svc.get(resource(a.id), key);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      data: {
        requestId: a.id,
        channel: 'EMAIL',
        status: 'pending',
        to: `r${'*'.repeat(a.to.indexOf('@') - 1)}@example.com`,
        createdAt: iso(clock.now()),
        expiresAt: iso(clock.now() + 600_000),
        attemptsRemaining: 5,
        // The test key's message went to the outbox: a provider took it, as far as the API says.
        delivery: { status: 'sent', provider: 'outbox', updatedAt: iso(clock.now()) },
      },
    });
  });

  it('says how and when a request was verified, and counts attempts', async () => {
    const a = await sendEmail();
    await svc.post(VERIFY, { requestId: a.id, code: wrong(a.code) }, key);
    expect((await svc.get(resource(a.id), key)).body.data).toMatchObject({
      status: 'pending',
      attemptsRemaining: 4,
    });
    clock.advance(42_000);
    const verified = await svc.post(VERIFY, { requestId: a.id, code: a.code }, key);
    expect(verified.body.data).toMatchObject({ verified: true, requestId: a.id });
    expect((await svc.get(resource(a.id), key)).body.data).toMatchObject({
      status: 'verified',
      verifiedAt: iso(clock.now()),
      method: 'code',
      attemptsRemaining: 3,
    });
  });

  it('shows a pending request past its lifetime as expired, and a cancel leaves it so', async () => {
    const a = await sendEmail();
    clock.advance(600_000);
    expect((await svc.get(resource(a.id), key)).body.data.status).toBe('expired');
    const res = await svc.post(cancel(a.id), undefined, key);
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('expired');
    expect((await svc.post(VERIFY, { requestId: a.id, code: a.code }, key)).body.data).toMatchObject({
      verified: false,
      status: 'expired',
    });
  });

  it('one truth for a verified dual pair: the request whose code matched is verified, the other canceled', async () => {
    const a = await sendDual();
    // The EMAIL code, presented on the SMS request's id.
    const res = await svc.post(VERIFY, { requestId: a.sms.id, code: a.email.code }, key);
    expect(res.body.data).toEqual({
      verified: true,
      channel: 'EMAIL',
      requestId: a.email.id,
      status: 'verified',
      attemptsRemaining: 4,
    });
    const viaEmail = (await svc.get(resource(a.email.id), key)).body.data;
    const viaSms = (await svc.get(resource(a.sms.id), key)).body.data;
    expect(viaEmail).toMatchObject({ status: 'verified', method: 'code', siblingRequestId: a.sms.id });
    expect(viaSms).toMatchObject({ status: 'canceled', siblingRequestId: a.email.id });
    expect(viaSms.method).toBeUndefined();
    expect(viaSms.verifiedAt).toBeUndefined();
    // The outbox and verify-code say the same of each request.
    expect(await outboxStatus(a.email.id)).toBe('verified');
    expect(await outboxStatus(a.sms.id)).toBe('canceled');
    expect((await svc.post(VERIFY, { requestId: a.sms.id, code: a.sms.code }, key)).body.data).toMatchObject({
      verified: false,
      requestId: a.sms.id,
      status: 'canceled',
    });
    expect(
      (await svc.post(VERIFY, { requestId: a.email.id, code: a.email.code }, key)).body.data,
    ).toMatchObject({ verified: false, requestId: a.email.id, status: 'verified' });
  });

  it('cancels a pending dual pair whole: neither code verifies, the outbox and the analytics say canceled', async () => {
    const a = await sendDual();
    const res = await svc.post(cancel(a.email.id), undefined, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      requestId: a.email.id,
      status: 'canceled',
      siblingRequestId: a.sms.id,
    });
    expect((await svc.get(resource(a.sms.id), key)).body.data.status).toBe('canceled');
    for (const [id, code] of [
      [a.sms.id, a.sms.code],
      [a.email.id, a.sms.code],
    ] as const)
      expect((await svc.post(VERIFY, { requestId: id, code }, key)).body.data).toMatchObject({
        verified: false,
        status: 'canceled',
      });
    expect(await outboxStatus(a.email.id)).toBe('canceled');
    expect(await outboxStatus(a.sms.id)).toBe('canceled');
    // Each canceled row appended its `canceled` change once (what the verification.canceled event
    // and the analytics are folded from): a second cancel appends nothing.
    const canceledByChannel = async () => {
      const { buckets } = (
        await svc.get(
          `/v1/admin/analytics?accountId=${accountId}&from=${iso(T0 - 86_400_000)}&interval=day&groupBy=channel`,
          ADMIN_TOKEN,
        )
      ).body.data as { buckets: Array<{ group: string; canceled: number }> };
      const of = (channel: string) => buckets.find((x) => x.group === channel)?.canceled ?? 0;
      return { EMAIL: of('EMAIL'), SMS: of('SMS') };
    };
    const before = await canceledByChannel();
    const b = await sendDual();
    await svc.post(cancel(b.sms.id), undefined, key);
    await svc.post(cancel(b.email.id), undefined, key);
    const after = await canceledByChannel();
    expect([after.EMAIL - before.EMAIL, after.SMS - before.SMS]).toEqual([1, 1]);
  });

  it('answers a settled request as it is, and a second cancel as the first (idempotent)', async () => {
    const a = await sendEmail();
    const first = await svc.post(cancel(a.id), {}, key);
    const second = await svc.post(cancel(a.id), undefined, key);
    expect(first.body.data.status).toBe('canceled');
    expect(second.body).toEqual(first.body);

    const b = await sendEmail();
    await svc.post(VERIFY, { requestId: b.id, code: b.code }, key);
    const before = (await svc.get(resource(b.id), key)).body;
    const after = await svc.post(cancel(b.id), undefined, key);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    expect(after.body.data).toMatchObject({ status: 'verified', method: 'code' });
  });

  it('refuses a cancel whose body has fields', async () => {
    const a = await sendEmail();
    const res = await svc.post(cancel(a.id), { reason: 'changed my mind' }, key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect((await svc.get(resource(a.id), key)).body.data.status).toBe('pending');
  });
});
