import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';

/** One sample line of a Prometheus text exposition, by name and exact labels. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    if ((m[2] ?? '').split(',').sort().join(',') === wanted) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  let svc: TestService;
  let key: string;
  const email = 'metrics-person@example.com';
  let text: string;
  let contentType: string;
  /** Read before verifying: once verified, the stored message shows the code masked. */
  let code: string;

  beforeAll(async () => {
    svc = await startTestService();
    key = await svc.createKey();
    const sent = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
    expect(sent.status).toBe(200);
    const requestId = sent.body.data.requestId as string;
    code = await svc.lastCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await svc.post('/v1/contact/verify-code', { requestId, otpCode: wrong }, key)).status).toBe(200);
    expect((await svc.post('/v1/contact/verify-code', { requestId, otpCode: code }, key)).status).toBe(200);
    // A second send inside the cooldown is refused by the resend-cooldown limit.
    expect((await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key)).status).toBe(429);
    await svc.get('/v1/admin/api-keys/does-not-exist-42', ADMIN_TOKEN);
    await svc.get('/no-such-route-77');
    const res = await svc.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    text = res.body;
    contentType = String(res.headers['content-type']);
  });
  afterAll(() => svc.close());

  it('answers in Prometheus text format with the default process metrics', () => {
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^# TYPE process_cpu_user_seconds_total counter$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \S+$/m);
  });

  it('counts sends by channel, provider and outcome, and their latency', () => {
    expect(
      sample(text, 'contact_verify_sends_total', { channel: 'EMAIL', provider: 'outbox', outcome: 'outbox' }),
    ).toBe(1);
    expect(
      sample(text, 'contact_verify_delivery_duration_seconds_count', {
        channel: 'EMAIL',
        provider: 'outbox',
      }),
    ).toBe(1);
  });

  it('counts verifications by channel and outcome', () => {
    expect(
      sample(text, 'contact_verify_verifications_total', { channel: 'EMAIL', outcome: 'wrong_code' }),
    ).toBe(1);
    expect(
      sample(text, 'contact_verify_verifications_total', { channel: 'EMAIL', outcome: 'verified' }),
    ).toBe(1);
  });

  it('counts rate-limit refusals by limit name', () => {
    expect(sample(text, 'contact_verify_rate_limit_refusals_total', { limit: 'resend-cooldown' })).toBe(1);
  });

  it('labels HTTP durations with the route pattern and status, never the raw URL', () => {
    const http = (route: string, method: string, status: string) =>
      sample(text, 'contact_verify_http_request_duration_seconds_count', { method, route, status });
    expect(http('/v1/contact/send-code', 'POST', '200')).toBe(1);
    expect(http('/v1/contact/send-code', 'POST', '429')).toBe(1);
    expect(http('/v1/contact/verify-code', 'POST', '200')).toBe(2);
    // No GET route has the admin path's pattern: both requests match no route.
    expect(http('unmatched', 'GET', '404')).toBe(2);
    expect(text).not.toContain('does-not-exist-42');
    expect(text).not.toContain('no-such-route-77');
  });

  it('never carries a destination, a code or a key', async () => {
    expect(text).not.toContain('metrics-person');
    expect(text).not.toContain(key);
    expect(text).not.toContain(code);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ METRICS_TOKEN: 'scrape-secret' });
  });
  afterAll(() => svc.close());

  it('refuses a scrape without the token', async () => {
    const res = await svc.get('/metrics');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHORIZED');
    expect((await svc.get('/metrics', 'wrong')).status).toBe(401);
  });

  it('answers a scrape with the token', async () => {
    const res = await svc.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('contact_verify_sends_total');
  });
});
