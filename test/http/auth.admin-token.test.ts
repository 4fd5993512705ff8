import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/schema.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';

// A short admin token is refused at boot; wrong admin tokens are throttled per client address and
// logged without the token (test/http/admin-throttle.test.ts: what never locks anyone out).
describe('the admin token', () => {
  let svc: TestService | undefined;
  afterEach(() => svc?.close());

  it('refuses an ADMIN_TOKEN shorter than 32 characters at boot, naming the variable', () => {
    let err: unknown;
    try {
      loadConfig({ ADMIN_TOKEN: 'a' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/ADMIN_TOKEN/);
    expect((err as Error).message).toMatch(/32/);
    expect((err as Error).message).not.toMatch(/"a"/);
    expect(() => loadConfig({ ADMIN_TOKEN: 'x'.repeat(32) })).not.toThrow();
  });

  const adminGet = (s: TestService, token: string, ip = '10.0.0.1') =>
    s.app.inject({
      method: 'GET',
      url: '/v1/admin/accounts',
      remoteAddress: ip,
      headers: { authorization: `Bearer ${token}` },
    });

  it('throttles failed authentications per address with 429 and Retry-After, and logs each without the token', async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    svc = await startTestService({ ADMIN_AUTH_FAILURES_PER_MINUTE: '5' }, { logger });
    const wrong = 'wrong-token-that-must-never-be-logged-anywhere';
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await adminGet(svc, wrong)).statusCode);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const limited = await adminGet(svc, wrong);
    expect(limited.json().error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Even the right token waits at this address: a guess is not evaluated while throttled.
    expect((await adminGet(svc, ADMIN_TOKEN)).statusCode).toBe(429);
    // Another address is not held up.
    expect((await adminGet(svc, ADMIN_TOKEN, '10.0.0.2')).statusCode).toBe(200);
    const failures = lines.filter((l) => l.includes('admin authentication failed'));
    expect(failures).toHaveLength(5);
    expect(lines.join('')).not.toContain(wrong);
  });

  it('counts a presented Authorization header that is not a bearer token as a wrong credential', async () => {
    svc = await startTestService({ ADMIN_AUTH_FAILURES_PER_MINUTE: '2' });
    const basic = () =>
      svc!.app.inject({
        method: 'GET',
        url: '/v1/admin/accounts',
        remoteAddress: '10.1.0.1',
        headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
      });
    expect([(await basic()).statusCode, (await basic()).statusCode, (await basic()).statusCode]).toEqual([
      401, 401, 429,
    ]);
  });
});
