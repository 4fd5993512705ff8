import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';
import { createTestDatabase } from '../../support/postgres.js';

const SESSION = '/dashboard/api/session';
type Res = Awaited<ReturnType<TestService['app']['inject']>>;

/** The cv_session cookie an answer sets: its value and attributes. */
function setCookie(res: Res): { value: string; attributes: string[]; raw: string } {
  const header = res.headers['set-cookie'];
  const raw = (Array.isArray(header) ? header : [header]).find((c) => c?.startsWith('cv_session='));
  if (!raw) throw new Error(`no cv_session cookie in ${JSON.stringify(res.headers)}`);
  const [pair, ...attributes] = raw.split(/;\s*/);
  return { value: pair!.slice('cv_session='.length), attributes, raw };
}

async function signIn(svc: TestService, headers: Record<string, string> = {}) {
  const res = await svc.app.inject({
    method: 'POST',
    url: SESSION,
    headers,
    payload: { token: ADMIN_TOKEN },
  });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = `cv_session=${setCookie(res).value}`;
  return { res, cookie, csrf: res.json().data.csrfToken as string };
}

eachStore('dashboard sessions', (start, dialect) => {
  let svc: TestService | undefined;
  let cleanup: (() => Promise<void> | void) | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
    await cleanup?.();
    cleanup = undefined;
  });

  it('signs in with the admin token: an HttpOnly, SameSite=Strict cookie and a CSRF token', async () => {
    svc = await start();
    const { res, cookie, csrf } = await signIn(svc);
    const { attributes } = setCookie(res);
    expect(attributes).toContain('HttpOnly');
    expect(attributes).toContain('SameSite=Strict');
    expect(attributes).toContain('Path=/');
    expect(attributes).toContain('Max-Age=28800');
    expect(attributes).not.toContain('Secure');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const expiresAt = Date.parse(res.json().data.expiresAt);
    expect(Math.abs(expiresAt - (Date.now() + 8 * 3600_000))).toBeLessThan(60_000);
    expect(res.body).not.toContain(ADMIN_TOKEN);

    const current = await svc.app.inject({ method: 'GET', url: SESSION, headers: { cookie } });
    expect(current.statusCode).toBe(200);
    expect(current.json().data).toEqual(res.json().data);
    expect((await svc.app.inject({ method: 'GET', url: SESSION })).statusCode).toBe(401);
  });

  it('refuses a wrong token with 401, logs it without the token, and throttles with 429', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    svc = await start({ ADMIN_AUTH_FAILURES_PER_MINUTE: '3' }, { logger });
    const wrong = 'wrong-admin-token-that-is-long-enough-0000';
    for (let i = 0; i < 3; i++) {
      const res = await svc.app.inject({ method: 'POST', url: SESSION, payload: { token: wrong } });
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('UNAUTHORIZED');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const throttled = await svc.app.inject({ method: 'POST', url: SESSION, payload: { token: ADMIN_TOKEN } });
    expect(throttled.statusCode).toBe(429);
    expect(throttled.json().error.code).toBe('RATE_LIMITED');
    expect(throttled.headers['retry-after']).toBeDefined();
    expect(throttled.headers['set-cookie']).toBeUndefined();
    const failures = lines.filter((l) => l.includes('admin authentication failed'));
    expect(failures).toHaveLength(3);
    expect(lines.join('\n')).not.toContain(wrong);
    expect(lines.join('\n')).not.toContain(ADMIN_TOKEN);
  });

  it('refuses a malformed sign-in body with 400', async () => {
    svc = await start();
    for (const payload of [{}, { token: '' }, { token: 7 }, { token: ADMIN_TOKEN, extra: 1 }]) {
      const res = await svc.app.inject({ method: 'POST', url: SESSION, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('sets Secure when the request came over TLS or the deployment is behind TLS', async () => {
    svc = await start({ TRUST_PROXY: 'true' });
    const viaTls = await signIn(svc, { 'x-forwarded-proto': 'https' });
    expect(setCookie(viaTls.res).attributes).toContain('Secure');
    await svc.close();
    svc = await start({ TLS_TERMINATED: 'true' });
    expect(setCookie((await signIn(svc)).res).attributes).toContain('Secure');
  });

  it('admits the cookie on admin reads, and on writes only with the CSRF token from this origin', async () => {
    svc = await start();
    const { cookie, csrf } = await signIn(svc);
    for (const url of [
      '/v1/admin/accounts',
      '/v1/admin/api-keys',
      '/v1/admin/webhooks',
      '/v1/admin/breakers',
    ]) {
      const res = await svc.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode, url).toBe(200);
    }
    const create = (headers: Record<string, string>) =>
      svc!.app.inject({
        method: 'POST',
        url: '/v1/admin/accounts',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ name: 'Shop' }),
      });
    for (const headers of [
      {},
      { 'x-csrf-token': 'wrong' },
      { 'x-csrf-token': `${csrf}x` },
      { 'x-csrf-token': csrf, origin: 'https://evil.example' },
      { 'x-csrf-token': csrf, origin: 'null' },
      { 'x-csrf-token': csrf, origin: 'https://verify.example.com.evil.example', host: 'verify.example.com' },
      { 'x-csrf-token': csrf, origin: 'https://verify.example.com:8443', host: 'verify.example.com' },
    ] as Array<Record<string, string>>) {
      const res = await create(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect((await create({ 'x-csrf-token': csrf })).statusCode).toBe(201);
    // inject's requests come to host localhost:80.
    expect((await create({ 'x-csrf-token': csrf, origin: 'http://localhost:80' })).statusCode).toBe(201);
    // Behind a TLS proxy (without TRUST_PROXY) the request looks like HTTP; the host still matches.
    const proxied = await create({
      'x-csrf-token': csrf,
      origin: 'https://verify.example.com',
      host: 'verify.example.com',
    });
    expect(proxied.statusCode).toBe(201);
    const accounts = await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } });
    expect(accounts.json().data.filter((a: { name: string }) => a.name === 'Shop')).toHaveLength(3);

    // The webhook routes take the same gate.
    const hook = await svc.app.inject({
      method: 'POST',
      url: '/v1/admin/webhooks',
      headers: { cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'https://example.com/h', events: ['verification.verified'] }),
    });
    expect(hook.statusCode).toBe(403);
    // A bad cookie is no session; the Bearer token still works as before.
    const stale = await svc.app.inject({
      method: 'GET',
      url: '/v1/admin/accounts',
      headers: { cookie: 'cv_session=x' },
    });
    expect(stale.statusCode).toBe(401);
    const bearer = await svc.app.inject({
      method: 'POST',
      url: '/v1/admin/accounts',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'Bearer' }),
    });
    expect(bearer.statusCode).toBe(201);
  });

  it('refuses a cross-site form post made with the cookie, and it changes nothing', async () => {
    svc = await start();
    const { cookie } = await signIn(svc);
    const key = await svc.createKey({ name: 'victim' });
    const keys = await svc.app.inject({ method: 'GET', url: '/v1/admin/api-keys', headers: { cookie } });
    const victim = keys.json().data.find((k: { name: string }) => k.name === 'victim');
    const before = (await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } }))
      .body;
    for (const [method, url, payload] of [
      ['POST', '/v1/admin/accounts', 'name=evil'],
      ['POST', `/v1/admin/api-keys/${victim.id}/rotate`, ''],
      ['POST', '/v1/admin/api-keys', 'name=evil&channels=EMAIL'],
      ['POST', '/v1/admin/webhooks', 'url=https://evil.example/&events=verification.verified'],
    ] as const) {
      const res = await svc.app.inject({
        method,
        url,
        headers: {
          cookie,
          origin: 'https://evil.example',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload,
      });
      expect(res.statusCode, url).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    const after = await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } });
    expect(after.body).toBe(before);
    const keysAfter = await svc.app.inject({ method: 'GET', url: '/v1/admin/api-keys', headers: { cookie } });
    expect(keysAfter.json().data).toEqual(keys.json().data);
    const hooks = await svc.app.inject({ method: 'GET', url: '/v1/admin/webhooks', headers: { cookie } });
    expect(hooks.json().data).toEqual([]);
    // The victim's key still works.
    expect(
      (await svc.post('/v1/contact/send-code', { channel: 'EMAIL', email: 'v@example.com' }, key)).status,
    ).toBe(200);
  });

  it('signs out: the CSRF header is needed, the session is gone and the cookie cleared', async () => {
    svc = await start();
    const { cookie, csrf } = await signIn(svc);
    const noCsrf = await svc.app.inject({ method: 'DELETE', url: SESSION, headers: { cookie } });
    expect(noCsrf.statusCode).toBe(403);
    const out = await svc.app.inject({
      method: 'DELETE',
      url: SESSION,
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(out.statusCode).toBe(204);
    const cleared = setCookie(out);
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toContain('Max-Age=0');
    expect((await svc.app.inject({ method: 'GET', url: SESSION, headers: { cookie } })).statusCode).toBe(401);
    const reuse = await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().error.code).toBe('UNAUTHORIZED');
    const again = await svc.app.inject({
      method: 'DELETE',
      url: SESSION,
      headers: { cookie, 'x-csrf-token': csrf },
    });
    expect(again.statusCode).toBe(401);
  });

  it('ends a session when its lifetime is over, and the sweeper deletes it', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    svc = await start({ DASHBOARD_SESSION_MINUTES: '30' }, { clock });
    const { res, cookie } = await signIn(svc);
    expect(res.json().data.expiresAt).toBe('2026-01-01T00:30:00.000Z');
    expect(setCookie(res).attributes).toContain('Max-Age=1800');
    clock.advance(30 * 60_000 - 1);
    expect(
      (await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } })).statusCode,
    ).toBe(200);
    clock.advance(1);
    expect(
      (await svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', headers: { cookie } })).statusCode,
    ).toBe(401);
    expect((await svc.app.inject({ method: 'GET', url: SESSION, headers: { cookie } })).statusCode).toBe(401);
    expect(await svc.store.sessions.sweep(clock.now(), 100)).toBe(1);
    expect(await svc.store.sessions.sweep(clock.now(), 100)).toBe(0);
  });

  it('stores only the SHA-256 of the session id', async () => {
    let rows: () => Promise<Array<Record<string, unknown>>>;
    if (dialect === 'sqlite') {
      const dir = mkdtempSync(join(tmpdir(), 'cv-sessions-'));
      const file = join(dir, 'verify.db');
      svc = await start({ DATABASE_URL: `sqlite:${file}` });
      rows = async () => {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare('SELECT * FROM dashboard_sessions').all() as Array<Record<string, unknown>>;
        } finally {
          db.close();
        }
      };
      cleanup = () => rmSync(dir, { recursive: true, force: true });
    } else {
      const db = await createTestDatabase();
      svc = await start({ DATABASE_URL: db.url });
      rows = async () => {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          return (await client.query('SELECT * FROM dashboard_sessions')).rows;
        } finally {
          await client.end();
        }
      };
      cleanup = () => db.drop();
    }
    const { cookie, csrf } = await signIn(svc);
    const id = cookie.slice('cv_session='.length);
    const stored = await rows();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id_hash).toBe(createHash('sha256').update(id).digest('hex'));
    const dump = JSON.stringify(stored);
    expect(dump).not.toContain(id);
    expect(dump).not.toContain(csrf);
  });
});

describe('dashboard session API headers', () => {
  it('carries the dashboard policy on its answers', async () => {
    const { startTestService } = await import('../../support/app.js');
    const svc = await startTestService();
    try {
      const res = await svc.app.inject({ method: 'GET', url: SESSION });
      expect(res.statusCode).toBe(401);
      expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    } finally {
      await svc.close();
    }
  });
});
