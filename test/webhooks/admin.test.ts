import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/webhooks/url-guard.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';

describe('webhook endpoints through the admin API', () => {
  let strict: TestService;
  let open: TestService;
  beforeAll(async () => {
    strict = await startTestService();
    open = await startTestService({ WEBHOOKS_ALLOW_PRIVATE: 'true' });
  });
  afterAll(async () => {
    await strict?.close();
    await open?.close();
  });

  it('creates an endpoint and shows its whsec_ secret only once', async () => {
    const created = await open.post(
      '/v1/admin/webhooks',
      { url: 'http://127.0.0.1:9/hook', events: ['verification.verified', 'verification.created'] },
      ADMIN_TOKEN,
    );
    expect(created.status).toBe(201);
    const { id, secret, events, enabled, accountId } = created.body.data;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(events).toEqual(['verification.verified', 'verification.created']);
    expect(enabled).toBe(true);
    expect(accountId).toBe('acc_default');

    const list = await open.get('/v1/admin/webhooks', ADMIN_TOKEN);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(id);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    const one = await open.get(`/v1/admin/webhooks/${id}`, ADMIN_TOKEN);
    expect(one.body.data.secret).toBeUndefined();

    const deliveries = await open.get(`/v1/admin/webhooks/${id}/deliveries`, ADMIN_TOKEN);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toEqual([]);

    const patched = await open.app.inject({
      method: 'PATCH',
      url: `/v1/admin/webhooks/${id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ enabled: false }),
    });
    expect(patched.json().data.enabled).toBe(false);

    const deleted = await open.app.inject({
      method: 'DELETE',
      url: `/v1/admin/webhooks/${id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await open.get(`/v1/admin/webhooks/${id}`, ADMIN_TOKEN)).status).toBe(404);
  });

  it.each([
    ['loopback', 'http://127.0.0.1:8080/hook'],
    ['loopback by name', 'http://localhost/hook'],
    ['private', 'http://10.1.2.3/hook'],
    ['private 192.168', 'https://192.168.0.10/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]/hook'],
    ['IPv6 link-local', 'http://[fe80::1]/hook'],
    ['IPv6 unique-local', 'http://[fd00::1]/hook'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.1]/hook'],
    ['IPv4-mapped loopback in hex', 'http://[::ffff:7f00:1]/hook'],
    ['IPv4-compatible loopback', 'http://[::127.0.0.1]/hook'],
    ['IPv4-compatible private', 'http://[::10.0.0.1]/hook'],
    ['IPv4-compatible public (deprecated, routed nowhere)', 'http://[::93.184.215.14]/hook'],
    ['IPv4-translated loopback', 'http://[::ffff:0:127.0.0.1]/hook'],
    ['NAT64 loopback', 'http://[64:ff9b::127.0.0.1]/hook'],
    ['NAT64 private', 'http://[64:ff9b::a00:1]/hook'],
    ['NAT64 link-local (cloud metadata)', 'http://[64:ff9b::169.254.169.254]/hook'],
    ['local-use NAT64', 'http://[64:ff9b:1::a00:1]/hook'],
    ['6to4 of a loopback', 'http://[2002:7f00:1::1]/hook'],
    ['6to4 of a private address', 'http://[2002:c0a8:1::1]/hook'],
    ['Teredo', 'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook'],
    ['reserved IPv6 outside 2000::/3', 'http://[4000::1]/hook'],
    ['loopback written as one number', 'http://2130706433/hook'],
    ['loopback written in octal', 'http://0177.0.0.1/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['not http', 'ftp://example.com/hook'],
    ['credentials', 'https://user:pass@example.com/hook'],
    ['not a URL', 'example.com/hook'],
  ])('refuses a %s URL with 400 VALIDATION_ERROR', async (_name, url) => {
    const res = await strict.post(
      '/v1/admin/webhooks',
      { url, events: ['verification.created'] },
      ADMIN_TOKEN,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('url');
  });

  it('judges an IPv6 address that carries an IPv4 one by the IPv4 address it reaches', () => {
    expect(isPublicAddress('93.184.215.14')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('::ffff:10.0.0.1')).toBe(false);
    expect(isPublicAddress('::ffff:93.184.215.14')).toBe(true);
    expect(isPublicAddress('100.64.0.1')).toBe(false);
    // NAT64 (64:ff9b::/96): what DNS64 gives for a receiver with only an IPv4 address.
    expect(isPublicAddress('64:ff9b::93.184.215.14')).toBe(true);
    expect(isPublicAddress('64:ff9b::5db8:d70e')).toBe(true);
    for (const inside of [
      '127.0.0.1',
      '10.0.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      // Every form, in dotted and in hex notation: the address a resolver could hand back.
      const hex = inside
        .split('.')
        .map(Number)
        .reduce<string[]>((out, byte, i) => {
          if (i % 2 === 0) out.push('');
          out[out.length - 1] += byte.toString(16).padStart(2, '0');
          return out;
        }, [])
        .join(':');
      for (const form of [
        `::${inside}`,
        `::${hex}`,
        `::ffff:${inside}`,
        `::ffff:${hex}`,
        `::ffff:0:${inside}`,
        `64:ff9b::${inside}`,
        `64:ff9b::${hex}`,
        `64:ff9b:1::${hex}`,
        `2002:${hex}::1`,
      ]) {
        expect(isPublicAddress(form), form).toBe(false);
      }
    }
  });

  it('validates the body and answers 404 for unknown ids and accounts', async () => {
    const bad = await open.post(
      '/v1/admin/webhooks',
      { url: 'http://127.0.0.1/', events: ['nope'] },
      ADMIN_TOKEN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    const internal = await open.post(
      '/v1/admin/webhooks',
      { url: 'http://127.0.0.1/', events: ['verification.attempt_failed'] },
      ADMIN_TOKEN,
    );
    expect(internal.status).toBe(400);
    const noAccount = await open.post(
      '/v1/admin/webhooks',
      { url: 'http://127.0.0.1/', events: ['verification.created'], accountId: 'acc_nope' },
      ADMIN_TOKEN,
    );
    expect(noAccount.status).toBe(404);
    expect((await open.get('/v1/admin/webhooks/wh_nope/deliveries', ADMIN_TOKEN)).status).toBe(404);
    expect((await open.post('/v1/admin/webhooks/wh_nope/deliveries/d/replay', {}, ADMIN_TOKEN)).status).toBe(
      404,
    );
    expect((await open.get('/v1/admin/webhooks', 'wrong-token')).status).toBe(401);
  });

  it('throttles failed admin authentications on the webhook routes as on the other admin routes', async () => {
    const svc = await startTestService({ ADMIN_AUTH_FAILURES_PER_MINUTE: '3' });
    try {
      const get = (url: string, token: string) =>
        svc.app.inject({
          method: 'GET',
          url,
          remoteAddress: '10.9.9.9',
          headers: { authorization: `Bearer ${token}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get('/v1/admin/webhooks', 'wrong-token')).statusCode);
      statuses.push((await get('/v1/admin/webhooks', ADMIN_TOKEN)).statusCode);
      statuses.push((await get('/v1/admin/accounts', ADMIN_TOKEN)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await svc.close();
    }
  });
});
