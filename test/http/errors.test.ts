import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

const contractShaped = (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => {
  expect(res.headers['cache-control'], res.body).toBe('no-store');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body);
  expect(Object.keys(body)).toEqual(['error']);
  expect(body.error.code).toMatch(/^[A-Z_]+$/);
  expect(typeof body.error.message).toBe('string');
  return body.error as { code: string; message: string; details?: Array<{ field: string; message: string }> };
};

// Every answer, the framework's own included, in the contract's shape.
describe('errors outside the contract shape', () => {
  let svc: TestService;
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc.close());

  it('answers a bad URL, a long path parameter and a malformed request in the contract shape', async () => {
    const badUrl = await svc.app.inject({ method: 'POST', url: '/%ZZ' });
    expect(badUrl.statusCode).toBe(400);
    expect(contractShaped(badUrl).code).toBe('VALIDATION_ERROR');

    const long = await svc.app.inject({
      method: 'DELETE',
      url: `/v1/admin/api-keys/${'k'.repeat(200)}`,
      headers: admin,
    });
    expect(long.statusCode).toBe(400);
    contractShaped(long);

    const badUrlInRoute = await svc.app.inject({
      method: 'GET',
      url: '/v1/admin/accounts/%E0%A4%A',
      headers: admin,
    });
    expect(badUrlInRoute.statusCode).toBeLessThan(500);
    contractShaped(badUrlInRoute);
  });

  it('names what is refused in a body with __proto__', async () => {
    const key = await svc.createKey();
    const res = await svc.app.inject({
      method: 'POST',
      url: '/v1/contact/send-code',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: '{"channel":"EMAIL","email":"a@example.com","__proto__":{"x":1}}',
    });
    expect(res.statusCode).toBe(400);
    const error = contractShaped(res);
    expect(error.message).not.toMatch(/not valid JSON/);
    expect(error.message).toMatch(/__proto__/);
  });

  it('takes a DELETE with a JSON content type and no body', async () => {
    const key = await svc.app.inject({
      method: 'POST',
      url: '/v1/admin/api-keys',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: { name: 'x', channels: ['EMAIL'] },
    });
    const res = await svc.app.inject({
      method: 'DELETE',
      url: `/v1/admin/api-keys/${key.json().data.id}`,
      headers: { ...admin, 'content-type': 'application/json' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('says a key needs at least one channel', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/v1/admin/api-keys',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: { name: 'x', channels: [] },
    });
    expect(res.statusCode).toBe(400);
    const error = contractShaped(res);
    expect(error.details).toEqual([{ field: 'channels', message: 'channels must name at least 1 channel' }]);
  });

  it('gives one detail per problem of a settings PATCH', async () => {
    const res = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: { codeLength: 'six', allowedCountries: ['US', 'QQ'] },
    });
    expect(res.statusCode).toBe(400);
    const error = contractShaped(res);
    expect(error.details).toEqual([
      { field: 'codeLength', message: 'codeLength must be an integer or null' },
      {
        field: 'allowedCountries',
        message: 'allowedCountries: QQ is not a known ISO 3166-1 alpha-2 country code',
      },
    ]);
  });

  it('refuses unknown country codes in allowedCountries', async () => {
    const res = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: { allowedCountries: ['XX'] },
    });
    expect(res.statusCode).toBe(400);
    expect(contractShaped(res).details?.[0]?.field).toBe('allowedCountries');
    const ok = await svc.app.inject({
      method: 'PATCH',
      url: '/v1/admin/accounts/acc_default/settings',
      headers: { ...admin, 'content-type': 'application/json' },
      payload: { allowedCountries: ['us', 'GB'] },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses an email whose local part is over 64 characters', async () => {
    const key = await svc.createKey();
    const res = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: `${'a'.repeat(65)}@example.com` },
      key,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([
      { field: 'email', message: 'the part of email before @ must be at most 64 characters' },
    ]);
    const ok = await svc.post(
      '/v1/contact/send-code',
      { channel: 'EMAIL', email: `${'a'.repeat(64)}@example.com` },
      key,
    );
    expect(ok.status).toBe(200);
  });
});

eachStore('uppercase ids', (start) => {
  it('answers an uppercase id as its lowercase form', async () => {
    const svc = await start();
    try {
      const key = await svc.createKey();
      const sent = await svc.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: 'upper@example.com' },
        key,
      );
      const code = await svc.lastCode('upper@example.com');
      const verified = await svc.post(
        '/v1/contact/verify-code',
        { requestId: sent.body.data.requestId.toUpperCase(), otpCode: code },
        key,
      );
      expect(verified.status).toBe(200);
      expect(verified.body.data.verified).toBe(true);
      const created = await svc.post('/v1/admin/api-keys', { name: 'u', channels: ['EMAIL'] }, ADMIN_TOKEN);
      const revoked = await svc.app.inject({
        method: 'DELETE',
        url: `/v1/admin/api-keys/${created.body.data.id.toUpperCase()}`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(revoked.statusCode, revoked.body).toBe(200);
      const account = await svc.get('/v1/admin/accounts/ACC_DEFAULT', ADMIN_TOKEN);
      expect(account.status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});
