import { afterEach, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Polls `check` until it passes or `ms` have gone by (the flush runs on its own timer). */
async function eventually(check: () => Promise<void>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}

eachStore('API keys: lastUsedAt and PATCH', (start) => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  const listed = async (s: TestService, id: string) => {
    const res = await s.app.inject({ method: 'GET', url: '/v1/admin/api-keys', headers: admin });
    expect(res.statusCode).toBe(200);
    return res.json().data.find((k: { id: string }) => k.id === id);
  };
  const keyId = async (s: TestService, name: string) => {
    const res = await s.app.inject({ method: 'GET', url: '/v1/admin/api-keys', headers: admin });
    return res.json().data.find((k: { name: string }) => k.name === name).id as string;
  };

  it('shows lastUsedAt null until a key is used, then the time of its last use', async () => {
    svc = await start({}, { keyUseFlushMs: 50 });
    const s = svc;
    const secret = await s.createKey({ name: 'used' });
    const id = await keyId(s, 'used');
    expect((await listed(s, id)).lastUsedAt).toBeNull();
    const before = Date.now();
    expect(
      (await s.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'a@example.com' }, secret)).status,
    ).toBe(200);
    await eventually(async () => {
      const at = (await listed(s, id)).lastUsedAt;
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1000);
    });
    // A key never used stays null.
    await s.createKey({ name: 'idle' });
    expect((await listed(s, await keyId(s, 'idle'))).lastUsedAt).toBeNull();
  });

  it('writes no use on the request path: nothing is stored before the flush', async () => {
    // An interval far longer than the test. That stopping the service writes what is left is
    // checked by test/cli/run.test.ts, which reads the database file afterwards.
    svc = await start({}, { keyUseFlushMs: 3_600_000 });
    const secret = await svc.createKey({ name: 'late' });
    const id = await keyId(svc, 'late');
    for (let i = 0; i < 3; i++) {
      const sent = await svc.post(
        '/v1/contact/send-code',
        { channel: 'EMAIL', email: `b${i}@example.com` },
        secret,
      );
      expect(sent.status).toBe(200);
    }
    expect((await listed(svc, id)).lastUsedAt).toBeNull();
  });

  it('renames a key and changes its channels with PATCH; the secret keeps working', async () => {
    svc = await start();
    const secret = await svc.createKey({ name: 'web', channels: ['EMAIL'] });
    const id = await keyId(svc, 'web');
    const patch = (url: string, body: unknown) =>
      svc!.app.inject({ method: 'PATCH', url, headers: admin, payload: body as object });

    const res = await patch(`/v1/admin/api-keys/${id}`, { name: 'web shop', channels: ['SMS', 'EMAIL'] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id,
      name: 'web shop',
      channels: ['SMS', 'EMAIL'],
      revokedAt: null,
    });
    expect(res.json().data).toHaveProperty('lastUsedAt');
    expect(res.json().data).not.toHaveProperty('key');
    expect(res.body).not.toContain(secret);

    // The cache is cleared on admin writes: the new channels apply at once.
    const sms = await svc.post('/v1/contact/send-code', { channel: 'SMS', phone: '+14155550100' }, secret);
    expect(sms.status).toBe(200);

    expect((await patch(`/v1/admin/api-keys/${id}`, { name: 'only name' })).json().data).toMatchObject({
      name: 'only name',
      channels: ['SMS', 'EMAIL'],
    });
    const narrowed = await patch(`/v1/admin/api-keys/${id}`, { channels: ['EMAIL'] });
    expect(narrowed.json().data.channels).toEqual(['EMAIL']);
    const refused = await svc.post(
      '/v1/contact/send-code',
      { channel: 'SMS', phone: '+14155550100' },
      secret,
    );
    expect(refused.status).toBe(403);
  });

  it('refuses bad PATCH bodies with 400 and unknown or revoked keys with 404', async () => {
    svc = await start();
    await svc.createKey({ name: 'k' });
    const id = await keyId(svc, 'k');
    const patch = (url: string, payload: unknown) =>
      svc!.app.inject({
        method: 'PATCH',
        url,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { channels: [] },
      { channels: ['FAX'] },
      { channels: ['EMAIL', 'EMAIL'] },
      { name: 'x', extra: 1 },
      { name: 7 },
    ]) {
      const res = await patch(`/v1/admin/api-keys/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await patch('/v1/admin/api-keys/key_nope', { name: 'x' })).statusCode).toBe(404);
    expect(
      (await svc.app.inject({ method: 'DELETE', url: `/v1/admin/api-keys/${id}`, headers: admin }))
        .statusCode,
    ).toBe(200);
    const revoked = await patch(`/v1/admin/api-keys/${id}`, { name: 'x' });
    expect(revoked.statusCode).toBe(404);
    expect(revoked.json().error.code).toBe('NOT_FOUND');
  });
});
