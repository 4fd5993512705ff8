import { expect, it } from 'vitest';
import { eachStore } from './stores.js';

// Item 5 of the security review: with parallel right codes, some answers were 429 on the already
// verified request and attemptsRemaining fell. One verifies; every other answer is 200
// `verified: false, status: "verified"` and counts no attempt.
eachStore('50 parallel right codes', (start) => {
  it('verify once; the others answer status verified, no 429, no attempt counted', async () => {
    const svc = await start({ KEY_VERIFY_PER_SECOND: '100000' });
    try {
      const key = await svc.createKey();
      const sent = await svc.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'race@example.com' },
        key,
      );
      const code = await svc.lastCode('race@example.com');
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          svc.post('/v1/contact/verify-code', { requestId: sent.body.data.requestId, otpCode: code }, key),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      expect(answers.filter((a) => a.body.data.verified)).toHaveLength(1);
      for (const a of answers.filter((x) => !x.body.data.verified)) {
        expect(a.body.data).toMatchObject({ verified: false, status: 'verified', attemptsRemaining: 4 });
      }
    } finally {
      await svc.close();
    }
  });
});
