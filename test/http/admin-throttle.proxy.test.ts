import pino from 'pino';
import { afterEach, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

// The deployment's default throttle, not the loose one of the test configuration.
const THROTTLE = { ADMIN_AUTH_FAILURES_PER_MINUTE: '10' };
/** The load balancer in front of the service: every request arrives from its address. */
const BALANCER = '10.0.0.1';
const ATTACKER = '198.51.100.9';
const OPERATOR = '203.0.113.7';

/**
 * A request as the load balancer forwards it: the client's own X-Forwarded-For (anything it
 * chose to write), then the address the balancer saw, appended as proxies do.
 */
function viaBalancer(svc: TestService, client: string, token: string, forged?: string) {
  return svc.app.inject({
    method: 'GET',
    url: '/v1/admin/accounts',
    remoteAddress: BALANCER,
    headers: {
      authorization: `Bearer ${token}`,
      'x-forwarded-for': forged ? `${forged}, ${client}` : client,
    },
  });
}
const wrong = (i: number) => `wrong-admin-token-${i}-0123456789abcdef`;

// Behind a proxy, the throttle's address is the right-most one the operator's proxies did not
// write: a client chooses the left-most entries of X-Forwarded-For, so keying on them let a
// guesser rotate addresses for free and let anyone lock an operator's address out.
eachStore('admin throttle behind a proxy', (start) => {
  let svc: TestService | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
  });

  for (const [trust, meaning] of [
    ['1', 'a hop count'],
    [BALANCER, "the proxy's address"],
    ['10.0.0.0/8, 127.0.0.1', 'a list of networks'],
  ] as const) {
    it(`TRUST_PROXY as ${meaning}: 50 wrong tokens, each with a new forged X-Forwarded-For, are throttled after 10`, async () => {
      svc = await start({ ...THROTTLE, TRUST_PROXY: trust });
      const statuses: number[] = [];
      for (let i = 0; i < 50; i++) {
        const res = await viaBalancer(svc, ATTACKER, wrong(i), `192.0.2.${i}`);
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual(Array(40).fill(429));
      // The operator's own address is untouched.
      expect((await viaBalancer(svc, OPERATOR, ADMIN_TOKEN)).statusCode).toBe(200);
    });

    it(`TRUST_PROXY as ${meaning}: 10 wrong tokens that name the operator's address do not lock the operator out`, async () => {
      svc = await start({ ...THROTTLE, TRUST_PROXY: trust });
      for (let i = 0; i < 10; i++) {
        expect((await viaBalancer(svc, ATTACKER, wrong(i), OPERATOR)).statusCode).toBe(401);
      }
      expect((await viaBalancer(svc, OPERATOR, ADMIN_TOKEN)).statusCode).toBe(200);
      // The attacker's own address is the one throttled.
      expect((await viaBalancer(svc, ATTACKER, ADMIN_TOKEN)).statusCode).toBe(429);
    });
  }

  it('a client that reaches the service around the proxy cannot name an address: X-Forwarded-For is not read', async () => {
    svc = await start({ ...THROTTLE, TRUST_PROXY: BALANCER });
    for (let i = 0; i < 10; i++) {
      const res = await svc.app.inject({
        method: 'GET',
        url: '/v1/admin/accounts',
        remoteAddress: ATTACKER,
        headers: { authorization: `Bearer ${wrong(i)}`, 'x-forwarded-for': OPERATOR },
      });
      expect(res.statusCode).toBe(401);
    }
    expect((await viaBalancer(svc, OPERATOR, ADMIN_TOKEN)).statusCode).toBe(200);
  });

  it('TRUST_PROXY=true still trusts every hop (the left-most address), and says so at start', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    svc = await start({ ...THROTTLE, TRUST_PROXY: 'true' }, { logger });
    expect(lines.some((l) => l.level === 40 && /TRUST_PROXY=true trusts every hop/.test(l.msg))).toBe(true);
    for (let i = 0; i < 10; i++) await viaBalancer(svc, ATTACKER, wrong(i), OPERATOR);
    // What the setting documents: the address a client writes first is the one counted.
    expect((await viaBalancer(svc, OPERATOR, ADMIN_TOKEN)).statusCode).toBe(429);
  });
});
