import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

// Test and live traffic are two worlds of one account: a test key never verifies or cancels a live
// request, and the two never share cooldowns or caps.
eachStore('test and live keys', (start) => {
  let svc: TestService;
  let live: string;
  let test: string;
  beforeAll(async () => {
    svc = await start({ RESEND_COOLDOWN_SECONDS: '30', FAILURES_PER_DESTINATION_PER_DAY: '1' });
    live = await svc.createKey();
    test = await svc.createKey({ test: true });
  });
  afterAll(() => svc.close());

  const send = (key: string, email: string) =>
    svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
  const verify = (key: string, requestId: string, otpCode: string) =>
    svc.post('/v1/contact/verify-code', { requestId, otpCode }, key);

  it('shows a request only to keys of its own mode', async () => {
    const sent = await send(live, 'mode@example.com');
    const code = await svc.lastCode('mode@example.com');
    const fromTest = await verify(test, sent.body.data.requestId, code);
    expect(fromTest.status).toBe(404);
    expect(fromTest.body.error.code).toBe('NOT_FOUND');
    const fromLive = await verify(live, sent.body.data.requestId, code);
    expect(fromLive.body.data).toMatchObject({ verified: true, attemptsRemaining: 4 });
  });

  it('supersedes and limits per mode, and records the mode on the request', async () => {
    const liveSend = await send(live, 'both@example.com');
    expect(liveSend.status).toBe(200);
    const liveCode = await svc.lastCode('both@example.com');
    // Same destination within the live cooldown: the test world has a cooldown of its own.
    const testSend = await send(test, 'both@example.com');
    expect(testSend.status, JSON.stringify(testSend.body)).toBe(200);
    expect((await send(test, 'both@example.com')).status).toBe(429);
    // The test send did not cancel the live code.
    const liveVerify = await verify(live, liveSend.body.data.requestId, liveCode);
    expect(liveVerify.body.data).toMatchObject({ verified: true });
    const liveRow = await svc.store.verifications.getVerification(
      'acc_default',
      liveSend.body.data.requestId,
    );
    expect(liveRow?.mode).toBe('live');
    const testRow = await svc.store.verifications.getVerification(
      'acc_default',
      testSend.body.data.requestId,
      'test',
    );
    expect(testRow?.mode).toBe('test');
  });

  it('keeps the budget of wrong codes per mode', async () => {
    const sent = await send(test, 'budget@example.com');
    const code = await svc.lastCode('budget@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await verify(test, sent.body.data.requestId, wrong)).body.data.verified).toBe(false);
    // The test world's budget (1 a day) is used up; the live world's is not.
    expect((await send(live, 'budget@example.com')).status).toBe(200);
  });
});
