import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const SEND = '/v1/contact/send-code';

/**
 * A cancel racing a right code on the same dual pair: one of them wins, whole. Either the code
 * verified (its request verified, the other canceled, the cancel answering as it found them) or
 * the cancel did (both canceled, the code answered `verified: false`); never a 5xx, never a pair
 * both verified and canceled by the cancel.
 */
eachStore('verifications: a cancel racing a verify', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '1000' });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  it('settles each pair once, by whichever came first', async () => {
    const pairs = [];
    for (let i = 0; i < 20; i++) {
      const email = `race${i}@example.com`;
      const phone = `+1415555${String(3000 + i)}`;
      const sent = await svc.post(SEND, { channels: ['EMAIL', 'SMS'], email, phone }, key);
      expect(sent.status).toBe(200);
      pairs.push({
        email: sent.body.data[0].requestId as string,
        sms: sent.body.data[1].requestId as string,
        code: await svc.lastCode(phone),
      });
    }
    const outcomes = await Promise.all(
      pairs.map(async (p, i) => {
        const verify = () => svc.post('/v1/contact/verify-code', { requestId: p.email, code: p.code }, key);
        const cancel = () => svc.post(`/v1/contact/verifications/${i % 2 ? p.email : p.sms}/cancel`, {}, key);
        // Started in either order.
        if (i % 3) {
          const [v, c] = await Promise.all([verify(), cancel()]);
          return { p, v, c };
        }
        const [c, v] = await Promise.all([cancel(), verify()]);
        return { p, v, c };
      }),
    );
    for (const { p, v, c } of outcomes) {
      expect([v.status, c.status]).toEqual([200, 200]);
      const emailNow = (await svc.get(`/v1/contact/verifications/${p.email}`, key)).body.data.status;
      const smsNow = (await svc.get(`/v1/contact/verifications/${p.sms}`, key)).body.data.status;
      if (v.body.data.verified) {
        expect(v.body.data.requestId).toBe(p.sms);
        expect([emailNow, smsNow]).toEqual(['canceled', 'verified']);
      } else {
        expect(v.body.data.status).toBe('canceled');
        expect([emailNow, smsNow]).toEqual(['canceled', 'canceled']);
      }
    }
  });
});
