import { afterEach, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

const SESSION = '/dashboard/api/session';
// The deployment's defaults, not the loose ones of the test configuration.
const DEFAULT_THROTTLE = { ADMIN_AUTH_FAILURES_PER_MINUTE: '10' };

/** Any web page can make these requests cross-site: they present no credential at all. */
function credentialLess(svc: TestService, i: number) {
  const remoteAddress = `10.20.${Math.floor(i / 10) % 256}.${i % 10}`;
  const forms = [
    () => svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', remoteAddress }),
    () =>
      svc.app.inject({
        method: 'POST',
        url: '/v1/admin/accounts',
        remoteAddress,
        headers: { 'content-type': 'application/json' },
        payload: '{"name":"x"}',
      }),
    () => svc.app.inject({ method: 'POST', url: SESSION, remoteAddress, payload: {} }),
    () => svc.app.inject({ method: 'GET', url: '/v1/admin/webhooks', remoteAddress }),
  ];
  return forms[i % forms.length]!();
}

async function signIn(svc: TestService, remoteAddress: string) {
  const res = await svc.app.inject({
    method: 'POST',
    url: SESSION,
    remoteAddress,
    payload: { token: ADMIN_TOKEN },
  });
  expect(res.statusCode, res.body).toBe(200);
  const raw = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('cv_session='));
  return `cv_session=${raw!.split(';')[0]!.slice('cv_session='.length)}`;
}

const adminGet = (svc: TestService, remoteAddress: string, headers: Record<string, string>) =>
  svc.app.inject({ method: 'GET', url: '/v1/admin/accounts', remoteAddress, headers });
const withToken = (token: string) => ({ authorization: `Bearer ${token}` });

// The admin throttle counts wrong credentials that were presented, per address: requests without
// any credential (which every web page can send) and other addresses' failures never keep an
// operator with the right token or a live dashboard session out.
eachStore('admin sign-in throttle', (start) => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  it('1,000 credential-less requests from 100 addresses lock no one out', async () => {
    svc = await start(DEFAULT_THROTTLE);
    const cookie = await signIn(svc, '10.9.0.1');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1000; i++) {
      const res = await credentialLess(svc, i);
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    }
    expect([...statuses.keys()].sort()).toEqual([400, 401]);
    // The right token, from an address that sent credential-less requests and from a fresh one.
    expect((await adminGet(svc, '10.20.0.0', withToken(ADMIN_TOKEN))).statusCode).toBe(200);
    expect((await adminGet(svc, '10.30.0.1', withToken(ADMIN_TOKEN))).statusCode).toBe(200);
    // The live session, and a new sign-in.
    expect((await adminGet(svc, '10.9.0.1', { cookie })).statusCode).toBe(200);
    await signIn(svc, '10.20.0.1');
  });

  it('throttles 300 wrong tokens from one address, and only that address', async () => {
    svc = await start(DEFAULT_THROTTLE);
    const cookie = await signIn(svc, '10.40.0.1');
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) {
      const res = await adminGet(svc, '10.40.0.1', withToken(`wrong-admin-token-${i}-0123456789abcdef`));
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(290).fill(429));
    // Sign-in with a wrong token counts against the same address.
    const signInGuess = await svc.app.inject({
      method: 'POST',
      url: SESSION,
      remoteAddress: '10.40.0.1',
      payload: { token: 'another-wrong-admin-token-0123456789abcdef' },
    });
    expect(signInGuess.statusCode).toBe(429);
    expect(Number(signInGuess.headers['retry-after'])).toBeGreaterThan(0);
    // A guess from the throttled address is not evaluated, even when it is right.
    expect((await adminGet(svc, '10.40.0.1', withToken(ADMIN_TOKEN))).statusCode).toBe(429);
    // The session (256 random bits, nothing to guess) and every other address keep working.
    expect((await adminGet(svc, '10.40.0.1', { cookie })).statusCode).toBe(200);
    expect((await adminGet(svc, '10.40.0.2', withToken(ADMIN_TOKEN))).statusCode).toBe(200);
  });

  it("other addresses' wrong tokens never refuse the right token or a session", async () => {
    svc = await start(DEFAULT_THROTTLE);
    const cookie = await signIn(svc, '10.50.0.1');
    // 30 addresses, each at its own limit: 300 wrong tokens in the minute.
    for (let a = 0; a < 30; a++) {
      for (let i = 0; i < 10; i++) {
        const res = await adminGet(
          svc,
          `10.60.0.${a}`,
          withToken(`wrong-admin-token-${a}-${i}-0123456789abcdef`),
        );
        expect(res.statusCode).toBe(401);
      }
    }
    expect((await adminGet(svc, '10.50.0.2', withToken(ADMIN_TOKEN))).statusCode).toBe(200);
    expect((await adminGet(svc, '10.50.0.1', { cookie })).statusCode).toBe(200);
    await signIn(svc, '10.50.0.3');
  });
});
