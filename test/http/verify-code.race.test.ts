import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/app.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

describe('verify-code under parallel guesses', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService({ KEY_VERIFY_PER_SECOND: '10000' });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  async function send(email: string) {
    const res = await svc.post(SEND, { channel: 'EMAIL', email }, key);
    return { requestId: res.body.data.requestId as string, code: await svc.lastCode(email) };
  }

  it('evaluates at most 5 of 60 parallel wrong guesses', async () => {
    const { requestId, code } = await send('race-wrong@example.com');
    const guesses = Array.from({ length: 60 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const answers = await Promise.all(
      guesses.map((otpCode) => svc.post(VERIFY, { requestId, otpCode }, key)),
    );
    const evaluated = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(evaluated.length).toBe(5);
    expect(evaluated.every((a) => a.body.data.verified === false)).toBe(true);
    expect(refused.length).toBe(55);
    expect(refused.every((a) => a.body.error.code === 'TOO_MANY_ATTEMPTS')).toBe(true);
    // The right code no longer helps.
    expect((await svc.post(VERIFY, { requestId, otpCode: code }, key)).status).toBe(429);
  });

  it('verifies exactly once for 30 parallel right guesses', async () => {
    const { requestId, code } = await send('race-right@example.com');
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => svc.post(VERIFY, { requestId, otpCode: code }, key)),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(answers.filter((a) => a.body.data.verified === true).length).toBe(1);
    expect(answers.every((a) => a.body.data.status === 'verified')).toBe(true);
  });

  it('verifies exactly once when both codes of a dual pair race on both ids', async () => {
    const res = await svc.post(
      SEND,
      { channels: ['EMAIL', 'SMS'], email: 'race-dual@example.com', phone: '+14155550199' },
      key,
    );
    const [e, s] = res.body.data;
    const emailCode = await svc.lastCode('race-dual@example.com');
    const smsCode = await svc.lastCode('+14155550199');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        svc.post(
          VERIFY,
          { requestId: i % 2 ? e.requestId : s.requestId, otpCode: i % 4 < 2 ? emailCode : smsCode },
          key,
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 200 && a.body.data.verified).length).toBe(1);
  });
});
