import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

/** A wrong code that differs from `code` in every digit. */
const wrong = (code: string) => code.replace(/\d/g, (d) => String((Number(d) + 1) % 10));

describe('verify-code', () => {
  let svc: TestService;
  let key: string;
  const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
  let n = 0;
  const nextEmail = () => `user${++n}@example.com`;

  beforeAll(async () => {
    svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0' }, { clock });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  async function sendEmail(email = nextEmail()) {
    const res = await svc.post(SEND, { channel: 'EMAIL', email }, key);
    expect(res.status).toBe(200);
    return { requestId: res.body.data.requestId as string, code: await svc.lastCode(email), email };
  }
  const verify = (requestId: string, code: string, k = key) =>
    svc.post(VERIFY, { requestId, otpCode: code }, k);

  it('verifies the right code once, under otpCode or code', async () => {
    const a = await sendEmail();
    const res = await verify(a.requestId, a.code);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      verified: true,
      channel: 'EMAIL',
      requestId: a.requestId,
      status: 'verified',
      attemptsRemaining: 4,
    });
    // Single use: the same right code again is not a second success, and counts no attempt.
    const again = await verify(a.requestId, a.code);
    expect(again.body.data).toMatchObject({ verified: false, status: 'verified', attemptsRemaining: 4 });

    const b = await sendEmail();
    const viaCode = await svc.post(VERIFY, { requestId: b.requestId, code: b.code }, key);
    expect(viaCode.body.data.verified).toBe(true);
  });

  it('counts wrong codes down to failed, then answers 429 TOO_MANY_ATTEMPTS', async () => {
    const a = await sendEmail();
    for (let i = 1; i <= 4; i++) {
      const res = await verify(a.requestId, wrong(a.code));
      expect(res.body.data).toMatchObject({ verified: false, status: 'pending', attemptsRemaining: 5 - i });
    }
    const last = await verify(a.requestId, wrong(a.code));
    expect(last.body.data).toMatchObject({ verified: false, status: 'failed', attemptsRemaining: 0 });
    const after = await verify(a.requestId, a.code);
    expect(after.status).toBe(429);
    expect(after.body.error.code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('accepts the right code on the last attempt', async () => {
    const a = await sendEmail();
    for (let i = 0; i < 4; i++) await verify(a.requestId, wrong(a.code));
    const res = await verify(a.requestId, a.code);
    expect(res.body.data).toMatchObject({ verified: true, status: 'verified', attemptsRemaining: 0 });
  });

  it('never verifies an expired code, and counts no attempt for it', async () => {
    const a = await sendEmail();
    clock.advance(600_000);
    const res = await verify(a.requestId, a.code);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ verified: false, status: 'expired', attemptsRemaining: 5 });
    expect((await verify(a.requestId, a.code)).body.data.status).toBe('expired');
  });

  it('keeps a code valid until just before it expires', async () => {
    const a = await sendEmail();
    clock.advance(599_000);
    expect((await verify(a.requestId, a.code)).body.data.verified).toBe(true);
  });

  it('answers a canceled (superseded) request without counting an attempt', async () => {
    const email = nextEmail();
    const first = await sendEmail(email);
    await sendEmail(email);
    const res = await verify(first.requestId, first.code);
    expect(res.body.data).toMatchObject({ verified: false, status: 'canceled', attemptsRemaining: 5 });
  });

  it('answers 404 for an unknown requestId and for another account', async () => {
    const unknown = await verify(randomUUID(), '123456');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');

    const other = await svc.post('/v1/admin/accounts', { name: 'Other' }, ADMIN_TOKEN);
    expect(other.status).toBe(201);
    const otherKey = await svc.createKey({ accountId: other.body.data.id });
    const a = await sendEmail();
    const cross = await verify(a.requestId, a.code, otherKey);
    expect(cross.status).toBe(404);
    expect(cross.body).toEqual(unknown.body);
    // The owner can still verify: the foreign attempt counted nothing.
    expect((await verify(a.requestId, a.code)).body.data).toMatchObject({
      verified: true,
      attemptsRemaining: 4,
    });
  });

  it('validates the body: UUID requestId, a string of digits, one of otpCode and code', async () => {
    const a = await sendEmail();
    const cases: Array<[unknown, string]> = [
      [{ requestId: 'abc', otpCode: '123456' }, 'requestId'],
      [{ otpCode: '123456' }, 'requestId'],
      [{ requestId: a.requestId }, 'otpCode'],
      [{ requestId: a.requestId, otpCode: 123456 }, 'otpCode'],
      [{ requestId: a.requestId, otpCode: '12a456' }, 'otpCode'],
      [{ requestId: a.requestId, otpCode: '123' }, 'otpCode'],
      [{ requestId: a.requestId, otpCode: '123456', code: '654321' }, 'code'],
    ];
    for (const [body, field] of cases) {
      const res = await svc.post(VERIFY, body, key);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
    }
    const numeric = await svc.post(VERIFY, { requestId: a.requestId, code: 12345 }, key);
    expect(numeric.body.error.details[0].message).toMatch(/string.*leading zeros/);
    // None of that counted an attempt.
    expect((await verify(a.requestId, a.code)).body.data).toMatchObject({
      verified: true,
      attemptsRemaining: 4,
    });
  });

  describe('dual pair', () => {
    async function sendDual() {
      const email = nextEmail();
      const phone = `+1415555${String(1000 + n).slice(-4)}`;
      const res = await svc.post(SEND, { channels: ['EMAIL', 'SMS'], email, phone }, key);
      expect(res.status).toBe(200);
      const [e, s] = res.body.data;
      return {
        email: { id: e.requestId as string, code: await svc.lastCode(email) },
        sms: { id: s.requestId as string, code: await svc.lastCode(phone) },
      };
    }

    it('accepts either code on either request id and names the request whose code matched', async () => {
      const a = await sendDual();
      const res = await verify(a.email.id, a.sms.code);
      // The SMS request is the one verified (the store, the outbox and the resource say so): the
      // answer names it, not the id the code was presented on.
      expect(res.body.data).toMatchObject({
        verified: true,
        channel: 'SMS',
        requestId: a.sms.id,
        status: 'verified',
      });

      const b = await sendDual();
      const res2 = await verify(b.sms.id, b.email.code);
      expect(res2.body.data).toMatchObject({ verified: true, channel: 'EMAIL', requestId: b.email.id });
    });

    it('consumes both requests on success', async () => {
      const a = await sendDual();
      expect((await verify(a.sms.id, a.sms.code)).body.data.verified).toBe(true);
      const sibling = await verify(a.email.id, a.email.code);
      expect(sibling.body.data).toMatchObject({ verified: false, status: 'canceled' });
      const again = await verify(a.sms.id, a.sms.code);
      expect(again.body.data).toMatchObject({ verified: false, status: 'verified' });
    });

    it('shares one attempt budget across both request ids', async () => {
      const a = await sendDual();
      const bad = wrong(a.email.code) === a.sms.code ? '0000000' : wrong(a.email.code);
      for (let i = 0; i < 3; i++) await verify(a.email.id, bad);
      const fourth = await verify(a.sms.id, bad);
      expect(fourth.body.data).toMatchObject({ verified: false, status: 'pending', attemptsRemaining: 1 });
      const fifth = await verify(a.email.id, bad);
      expect(fifth.body.data).toMatchObject({ status: 'failed', attemptsRemaining: 0 });
      expect((await verify(a.sms.id, a.sms.code)).status).toBe(429);
    });
  });

  it('uses the account settings for code length, lifetime and attempts', async () => {
    const account = await svc.post(
      '/v1/admin/accounts',
      { name: 'Strict', settings: { codeLength: 8, codeTtlSeconds: 120, maxAttempts: 2 } },
      ADMIN_TOKEN,
    );
    const strictKey = await svc.createKey({ accountId: account.body.data.id });
    const email = nextEmail();
    const sent = await svc.post(SEND, { channel: 'EMAIL', email }, strictKey);
    expect(Date.parse(sent.body.data.expiresAt) - clock.now()).toBe(120_000);
    const code = await svc.lastCode(email);
    expect(code).toMatch(/^\d{8}$/);
    const first = await verify(sent.body.data.requestId, wrong(code), strictKey);
    expect(first.body.data).toMatchObject({ status: 'pending', attemptsRemaining: 1 });
    const second = await verify(sent.body.data.requestId, wrong(code), strictKey);
    expect(second.body.data).toMatchObject({ status: 'failed', attemptsRemaining: 0 });
  });
});
