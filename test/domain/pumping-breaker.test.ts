import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';

/** The SMS-pumping breaker through the HTTP API, on each backend. */
function breakerSuite(name: string, env: () => Record<string, string>) {
  describe(`SMS-pumping breaker: ${name}`, () => {
    let svc: TestService;
    let key: string;
    let accountId: string;
    const send = (phone: string, country: string) =>
      svc.post('/v1/contact/send-code', { channel: 'SMS', phone, country }, key);

    beforeAll(async () => {
      svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0', ...env() });
      key = await svc.createKey();
      accountId = (await svc.get('/v1/admin/accounts', ADMIN_TOKEN)).body.data[0].id;
      const patched = await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${accountId}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ pumpingMinSends: 10, pumpingMinConversion: 0.2 }),
      });
      expect(patched.statusCode).toBe(200);
    });
    afterAll(() => svc?.close());

    it('does not trip on an ordinary mix: most codes verified', async () => {
      for (let i = 0; i < 14; i++) {
        const phone = `+1415555${String(2600 + i * 37).padStart(4, '0')}`;
        const sent = await send(phone, 'US');
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        if (i % 4 !== 3) {
          const verified = await svc.post(
            '/v1/contact/verify-code',
            { requestId: sent.body.data.requestId, code: await svc.lastCode(phone) },
            key,
          );
          expect(verified.body.data.verified).toBe(true);
        }
      }
      expect((await svc.get('/health')).body.status).toBe('ok');
    });

    it('trips on a burst of unconverted sends to consecutive numbers, until an operator resets it', async () => {
      const statuses: number[] = [];
      let refusal: { body: { error: { code: string; details: Array<{ message: string }> } } } | null = null;
      for (let i = 0; i < 12; i++) {
        const res = await send(`+4474001234${String(i).padStart(2, '0')}`, 'GB');
        statuses.push(res.status);
        if (res.status === 429) refusal ??= res;
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429, 429]);
      expect(refusal?.body.error.code).toBe('RATE_LIMITED');
      expect(refusal?.body.error.details[0]?.message).toMatch(/SMS-pumping breaker for GB: 0 of 10/);
      // The refused sends sent nothing.
      expect(
        (await svc.get(`/v1/admin/outbox?to=${encodeURIComponent('+447400123411')}`, ADMIN_TOKEN)).body.data,
      ).toEqual([]);

      const health = (await svc.get('/health')).body;
      expect(health.status).toBe('degraded');
      // Public /health names no account: a count per country; the details are on the admin API.
      expect(health.pumpingBreakers).toEqual([{ country: 'GB', count: 1 }]);
      expect(JSON.stringify(health)).not.toContain(accountId);
      const metrics = await svc.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toMatch(/contact_verify_pumping_breaker_trips_total\{country="GB"\} 1/);
      expect(metrics.body).toMatch(/contact_verify_pumping_breakers_tripped 1/);
      const list = (await svc.get(`/v1/admin/breakers?accountId=${accountId}`, ADMIN_TOKEN)).body.data;
      expect(list).toEqual([expect.objectContaining({ country: 'GB', tripped: true })]);
      // Other countries still send.
      expect((await send('+14155550199', 'US')).status).toBe(200);

      const reset = await svc.post('/v1/admin/breakers/gb/reset', { accountId }, ADMIN_TOKEN);
      expect(reset.status).toBe(200);
      expect(reset.body.data).toMatchObject({ country: 'GB', tripped: false });
      expect((await send('+447400123499', 'GB')).status).toBe(200);
      expect((await svc.get('/health')).body.status).toBe('ok');
      const day = (
        await svc.get(
          `/v1/admin/analytics?accountId=${accountId}&from=${new Date(Date.now() - 3_600_000).toISOString()}&groupBy=country`,
          ADMIN_TOKEN,
        )
      ).body.data.buckets;
      const gb = day.find((b: { group: string }) => b.group === 'GB');
      expect(gb).toMatchObject({ sent: 11, limitedBy: { breaker: 2 } });
    });

    it('answers 404 for a breaker that never tripped', async () => {
      expect((await svc.post('/v1/admin/breakers/FR/reset', { accountId }, ADMIN_TOKEN)).status).toBe(404);
    });
  });
}

breakerSuite('SQLite', () => ({}));

describe.runIf(hasPostgres)('on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  breakerSuite('PostgreSQL', () => ({ DATABASE_URL: db.url }));
});
