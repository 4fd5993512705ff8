import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

/**
 * Parallel guesses on one request, on both stores: the attempt counter is one atomic conditional
 * update, so however the guesses interleave at most five are evaluated and one right code
 * verifies, once.
 */
eachStore('verify-code under parallel guesses', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ KEY_VERIFY_PER_SECOND: '100000' });
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

  it('verifies once for 50 parallel right codes; the others answer status verified, no 429, no attempt counted', async () => {
    const { requestId, code } = await send('race-right@example.com');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => svc.post(VERIFY, { requestId, otpCode: code }, key)),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(answers.filter((a) => a.body.data.verified === true)).toHaveLength(1);
    for (const a of answers.filter((x) => !x.body.data.verified)) {
      expect(a.body.data).toMatchObject({ verified: false, status: 'verified', attemptsRemaining: 4 });
    }
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
