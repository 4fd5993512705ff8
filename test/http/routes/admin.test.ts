import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';

describe('admin API', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0' });
  });
  afterAll(() => svc.close());

  const call = async (
    method: 'GET' | 'POST' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
    token = ADMIN_TOKEN,
  ) => {
    const res = await svc.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      payload: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.statusCode, body: res.json() };
  };

  it('needs the admin token on every route', async () => {
    const key = await svc.createKey();
    for (const [method, url] of [
      ['GET', '/v1/admin/accounts'],
      ['POST', '/v1/admin/accounts'],
      ['GET', '/v1/admin/api-keys'],
      ['POST', '/v1/admin/api-keys'],
      ['DELETE', '/v1/admin/api-keys/key_x'],
      ['POST', '/v1/admin/api-keys/key_x/rotate'],
      ['GET', '/v1/admin/outbox'],
    ] as const) {
      for (const token of ['wrong', key]) {
        const res = await call(method, url, method === 'POST' ? { name: 'x' } : undefined, token);
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.body.error.code).toBe('UNAUTHORIZED');
      }
    }
  });

  it('creates and lists accounts; a fresh install has one', async () => {
    const before = await call('GET', '/v1/admin/accounts');
    expect(before.body.data.map((a: { id: string }) => a.id)).toContain('acc_default');
    const created = await call('POST', '/v1/admin/accounts', { name: 'Acme' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Acme', id: expect.stringMatching(/^acc_/) });
    const after = await call('GET', '/v1/admin/accounts');
    expect(after.body.data).toHaveLength(before.body.data.length + 1);
    expect((await call('POST', '/v1/admin/accounts', {})).status).toBe(400);
  });

  it('creates a key whose secret is shown once, lists keys without secrets', async () => {
    const created = await call('POST', '/v1/admin/api-keys', { name: 'web', channels: ['EMAIL', 'SMS'] });
    expect(created.status).toBe(201);
    const data = created.body.data;
    expect(data).toMatchObject({
      name: 'web',
      channels: ['EMAIL', 'SMS'],
      accountId: 'acc_default',
      test: false,
    });
    expect(data.key).toMatch(/^cvk_live_[A-Za-z0-9_-]{43}$/);
    const list = await call('GET', '/v1/admin/api-keys');
    const listed = list.body.data.find((k: { id: string }) => k.id === data.id);
    expect(listed).toMatchObject({ prefix: data.key.slice(0, 13), revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(data.key);

    const test = await call('POST', '/v1/admin/api-keys', { name: 'ci', channels: ['EMAIL'], test: true });
    expect(test.body.data.key).toMatch(/^cvk_test_/);
  });

  it('validates key creation', async () => {
    for (const body of [
      { name: 'x' },
      { name: 'x', channels: [] },
      { name: 'x', channels: ['FAX'] },
      { channels: ['EMAIL'] },
      { name: 'x', channels: ['EMAIL', 'EMAIL'] },
    ]) {
      const res = await call('POST', '/v1/admin/api-keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    const unknownAccount = await call('POST', '/v1/admin/api-keys', {
      name: 'x',
      channels: ['EMAIL'],
      accountId: 'acc_nope',
    });
    expect(unknownAccount.status).toBe(404);
  });

  it('revokes a key: it answers 401 at once', async () => {
    const created = await call('POST', '/v1/admin/api-keys', { name: 'gone', channels: ['EMAIL'] });
    const { id, key } = created.body.data;
    expect(
      (await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'r@example.com' }, key)).status,
    ).toBe(200);
    const revoked = await call('DELETE', `/v1/admin/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).not.toBeNull();
    expect(
      (await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'r@example.com' }, key)).status,
    ).toBe(401);
    expect((await call('DELETE', `/v1/admin/api-keys/${id}`)).status).toBe(404);
  });

  it('rotates a key: a new secret with the same scope, the old one revoked', async () => {
    const created = await call('POST', '/v1/admin/api-keys', { name: 'rot', channels: ['SMS'] });
    const old = created.body.data;
    const rotated = await call('POST', `/v1/admin/api-keys/${old.id}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.body.data).toMatchObject({ name: 'rot', channels: ['SMS'], replaces: old.id });
    expect(rotated.body.data.key).not.toBe(old.key);
    const body = { channel: 'SMS', phone: '+14155550141' };
    expect((await svc.post('/v1/contact/send-code', body, old.key)).status).toBe(401);
    expect((await svc.post('/v1/contact/send-code', body, rotated.body.data.key)).status).toBe(200);
    expect((await call('POST', `/v1/admin/api-keys/${old.id}/rotate`)).status).toBe(404);
  });

  it('lists the outbox newest first, filtered by destination as a person would type it', async () => {
    const key = await svc.createKey();
    await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155550151' }, key);
    await svc.post('/v1/contact/send-code', { channel: 'WHATSAPP', phone: '+14155550151' }, key);
    await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'Other@example.com' }, key);
    for (const to of ['%2B14155550151', '+14155550151', '14155550151']) {
      const res = await call('GET', `/v1/admin/outbox?to=${to}`);
      expect(
        res.body.data.map((m: { channel: string }) => m.channel),
        to,
      ).toEqual(['WHATSAPP', 'SMS']);
    }
    const email = await call('GET', '/v1/admin/outbox?to=OTHER@example.com');
    expect(email.body.data).toHaveLength(1);
    expect(email.body.data[0]).toMatchObject({
      channel: 'EMAIL',
      // Found by its mailbox, shown as it was sent: to the address as given.
      to: 'Other@example.com',
      subject: expect.any(String),
    });
    const limited = await call('GET', '/v1/admin/outbox?limit=2');
    expect(limited.body.data).toHaveLength(2);
    expect((await call('GET', '/v1/admin/outbox?limit=abc')).status).toBe(400);
  });

  it('updates account settings, null restoring a default', async () => {
    const patched = await call('PATCH', '/v1/admin/accounts/acc_default/settings', {
      codeLength: 8,
      branding: { brandName: 'Acme', color: '#ff0000' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data.settings).toMatchObject({ codeLength: 8, branding: { brandName: 'Acme' } });
    const reset = await call('PATCH', '/v1/admin/accounts/acc_default/settings', { codeLength: null });
    expect(reset.body.data.settings.codeLength).toBeUndefined();
    expect((await call('PATCH', '/v1/admin/accounts/acc_default/settings', { codeLength: 3 })).status).toBe(
      400,
    );
    expect((await call('PATCH', '/v1/admin/accounts/acc_default/settings', { bogus: 1 })).status).toBe(400);
    expect((await call('PATCH', '/v1/admin/accounts/acc_nope/settings', {})).status).toBe(404);
  });
});
