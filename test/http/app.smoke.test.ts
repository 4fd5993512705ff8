import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/app.js';

describe('smoke', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await startTestService();
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  it('sends and verifies an email code', async () => {
    const sent = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'a@example.com' }, key);
    expect(sent.status).toBe(200);
    const code = await svc.lastCode('a@example.com');
    const res = await svc.post(
      '/v1/contact/verify-code',
      { requestId: sent.body.data.requestId, otpCode: code },
      key,
    );
    expect(res.body.data).toMatchObject({ verified: true, channel: 'EMAIL', status: 'verified' });
  });
});
