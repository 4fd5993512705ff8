import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

// GET /v1/admin/accounts/:id/limits: each setting an account may override, with the value its
// requests use and where it comes from (built-in default, the deployment's variable, the account).

describe('admin API: limits in force', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ CODE_TTL_SECONDS: '900', ALLOWED_COUNTRIES: 'us,gb,de' });
  });
  afterAll(() => svc.close());

  const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await svc.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${ADMIN_TOKEN}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      payload: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.statusCode, body: res.json() };
  };
  const limitsOf = async (accountId: string) => {
    const res = await call('GET', `/v1/admin/accounts/${accountId}/limits`);
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(
      (res.body.data.limits as Array<{ name: string }>).map((l) => [l.name, l]),
    ) as Record<string, Record<string, unknown>>;
    return { byName, data: res.body.data };
  };

  it('names the source of each value: default, environment or account', async () => {
    const account = (await call('POST', '/v1/admin/accounts', { name: 'Limits' })).body.data;
    const fresh = await limitsOf(account.id);
    expect(fresh.data.accountId).toBe(account.id);
    expect(fresh.byName.codeTtlSeconds).toMatchObject({
      value: 900,
      source: 'environment',
      deployment: 900,
      default: 600,
      env: 'CODE_TTL_SECONDS',
    });
    expect(fresh.byName.codeLength).toMatchObject({ value: 6, source: 'default', env: 'CODE_LENGTH' });
    expect(fresh.byName.riskThreshold).toMatchObject({ value: null, source: 'default', env: null });
    expect(fresh.byName.pumpingMinConversion).toMatchObject({ value: 0.2, source: 'default' });
    expect(fresh.data.allowedCountries).toEqual({
      value: ['DE', 'GB', 'US'],
      source: 'environment',
      deployment: ['DE', 'GB', 'US'],
    });
    // Every setting the PATCH accepts is listed, in the order of its one description.
    expect(Object.keys(fresh.byName)).toEqual([
      'codeLength',
      'codeTtlSeconds',
      'maxAttempts',
      'resendCooldownSeconds',
      'sendsPerDestinationPerHour',
      'failuresPerDestinationPerDay',
      'keySendPerSecond',
      'keyVerifyPerSecond',
      'countrySendsPerHour',
      'riskThreshold',
      'pumpingMinSends',
      'pumpingMinConversion',
    ]);

    const patched = await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      codeLength: 8,
      codeTtlSeconds: 120,
      riskThreshold: 70,
      allowedCountries: ['gb', 'fr'],
    });
    expect(patched.status).toBe(200);
    const overridden = await limitsOf(account.id);
    expect(overridden.byName.codeLength).toMatchObject({ value: 8, source: 'account', deployment: 6 });
    expect(overridden.byName.codeTtlSeconds).toMatchObject({
      value: 120,
      source: 'account',
      deployment: 900,
    });
    expect(overridden.byName.riskThreshold).toMatchObject({ value: 70, source: 'account' });
    // An account narrows the deployment's list, never widens it: FR is not in force.
    expect(overridden.data.allowedCountries).toEqual({
      value: ['GB'],
      source: 'account',
      deployment: ['DE', 'GB', 'US'],
    });

    // What a send uses is what the answer says is in force.
    const key = await svc.createKey({ accountId: account.id, channels: ['EMAIL'] });
    const sent = await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'lim@example.com' }, key);
    expect(sent.status).toBe(200);
    expect((await svc.lastCode('lim@example.com')).length).toBe(8);
    expect(Date.parse(sent.body.data.expiresAt) - Date.now()).toBeLessThanOrEqual(120_000);

    await call('PATCH', `/v1/admin/accounts/${account.id}/settings`, {
      codeTtlSeconds: null,
      allowedCountries: null,
    });
    const restored = await limitsOf(account.id);
    expect(restored.byName.codeTtlSeconds).toMatchObject({ value: 900, source: 'environment' });
    expect(restored.data.allowedCountries.source).toBe('environment');
  });

  it('answers 404 for an unknown account and 401 without the admin token', async () => {
    const missing = await call('GET', '/v1/admin/accounts/acc_nope/limits');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const anonymous = await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts/acc_default/limits' });
    expect(anonymous.statusCode).toBe(401);
  });
});
