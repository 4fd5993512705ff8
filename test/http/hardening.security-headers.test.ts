import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';

// nosniff on every answer; HSTS only when told TLS is terminated.
describe('security headers on the API', () => {
  let svc: TestService | undefined;
  afterEach(() => svc?.close());

  const answers = async (s: TestService) =>
    Promise.all([
      s.app.inject({ method: 'GET', url: '/health' }),
      s.app.inject({ method: 'GET', url: '/no/such/route' }),
      s.app.inject({
        method: 'GET',
        url: '/v1/admin/accounts',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      }),
      s.app.inject({ method: 'POST', url: '/v1/contact/send-code', payload: {} }),
      s.app.inject({ method: 'POST', url: '/%ZZ' }),
    ]);

  it('sends X-Content-Type-Options: nosniff on every answer, and no HSTS by default', async () => {
    svc = await startTestService();
    for (const res of await answers(svc)) {
      expect(res.headers['x-content-type-options'], res.raw.req.url).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('sends Strict-Transport-Security when TLS_TERMINATED is set', async () => {
    svc = await startTestService({ TLS_TERMINATED: 'true', HSTS_MAX_AGE_SECONDS: '600' });
    for (const res of await answers(svc)) {
      expect(res.headers['strict-transport-security']).toBe('max-age=600; includeSubDomains');
    }
  });
});
