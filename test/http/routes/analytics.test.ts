import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../../support/app.js';
import { propertiesOf } from '../../support/openapi.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { hasPostgres } from '../../support/services.js';

/**
 * The analytics, the contact profiles and the block, through the HTTP API on each backend: a
 * scripted mix of sends, wrong and right codes, an expiry, a resend, a dual pair and refusals,
 * and the counts must be exactly what was done.
 */
function analyticsSuite(name: string, env: () => Record<string, string>) {
  describe(`analytics and contacts: ${name}`, () => {
    let svc: TestService;
    let key: string;
    let accountId: string;
    const clock = new ManualClock(Date.UTC(2026, 10, 24, 10, 0, 0));
    const admin = (url: string) => svc.get(url, ADMIN_TOKEN);
    const send = (body: Record<string, unknown>) =>
      svc.post('/v1/contact/send-code', { purpose: 'login', ...body }, key);
    const verify = (requestId: string, code: string) =>
      svc.post('/v1/contact/verify-code', { requestId, code }, key);
    const wrong = (code: string) => (code === '000000' ? '111111' : '000000');

    beforeAll(async () => {
      // The rate limits count in real time; the hourly cap (2) gives the refusal of this script.
      svc = await startTestService(
        { RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '2', ...env() },
        { clock },
      );
      key = await svc.createKey();
      accountId = (await admin('/v1/admin/accounts')).body.data[0].id;

      // e1: a wrong code, then the right one after 12 s.
      const e1 = (await send({ channel: 'EMAIL', email: 'one@example.com' })).body.data;
      expect(e1.risk).toMatchObject({ score: expect.any(Number), level: 'low' });
      await verify(e1.requestId, wrong(await svc.lastCode('one@example.com')));
      clock.advance(12_000);
      expect((await verify(e1.requestId, await svc.lastCode('one@example.com'))).body.data.verified).toBe(
        true,
      );
      // e2: sent, never verified, expires.
      const e2 = (await send({ channel: 'EMAIL', email: 'two@example.com' })).body.data;
      // e3: sent, then sent again: the first is canceled; the second verified.
      await send({ channel: 'EMAIL', email: 'three@example.com' });
      clock.advance(31_000);
      const e3b = (await send({ channel: 'EMAIL', email: 'three@example.com' })).body.data;
      // A third send within the hour is refused: counted as limited, nothing stored.
      expect((await send({ channel: 'EMAIL', email: 'three@example.com' })).status).toBe(429);
      clock.advance(30_000);
      await verify(e3b.requestId, await svc.lastCode('three@example.com'));
      // A dual pair verified with the SMS code: verified on SMS, the email sibling canceled.
      let dual = (
        await send({
          channels: ['EMAIL', 'SMS'],
          email: 'four@example.com',
          phone: '+447400123456',
          country: 'GB',
        })
      ).body;
      if (!Array.isArray(dual.data)) throw new Error(JSON.stringify(dual));
      dual = dual.data;
      await verify(dual[0].requestId, await svc.lastCode('+447400123456'));
      clock.advance(11 * 60_000);
      expect((await verify(e2.requestId, await svc.lastCode('two@example.com'))).body.data.status).toBe(
        'expired',
      );
    });
    afterAll(() => svc?.close());

    it('counts exactly what was done, per day and per channel', async () => {
      const from = '2026-11-24T00:00:00Z';
      const day = (await admin(`/v1/admin/analytics?accountId=${accountId}&from=${from}&interval=day`)).body
        .data.buckets;
      expect(day).toHaveLength(1);
      expect(day[0]).toMatchObject({
        start: '2026-11-24T00:00:00.000Z',
        group: null,
        sent: 6,
        verified: 3,
        canceled: 2,
        expired: 1,
        failed: 0,
        wrongCodes: 1,
        limited: 1,
        limitedBy: { destination: 1 },
        conversionRate: 0.5,
      });
      expect(day[0].medianSecondsToVerify).toBeGreaterThan(0);
      expect(day[0].p90SecondsToVerify).toBeGreaterThanOrEqual(day[0].medianSecondsToVerify);

      const byChannel = (
        await admin(`/v1/admin/analytics?accountId=${accountId}&from=${from}&interval=hour&groupBy=channel`)
      ).body.data.buckets;
      const sms = byChannel.find((b: { group: string }) => b.group === 'SMS');
      const email = byChannel.find((b: { group: string }) => b.group === 'EMAIL');
      expect(sms).toMatchObject({ sent: 1, verified: 1, canceled: 0 });
      expect(email).toMatchObject({ sent: 5, verified: 2, canceled: 2, expired: 1, wrongCodes: 1 });

      const testMode = (await admin(`/v1/admin/analytics?accountId=${accountId}&from=${from}&mode=test`)).body
        .data.buckets;
      expect(testMode).toEqual([]);
    });

    it('refuses a bad query with 400', async () => {
      for (const q of [
        '',
        'from=yesterday',
        'from=2026-11-24T00:00:00Z&groupBy=colour',
        'from=2026-11-24T00:00:00Z&interval=week',
      ]) {
        const res = await admin(`/v1/admin/analytics?${q}`);
        expect(res.status, q).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('a profile shows exactly the history made, and never a code', async () => {
      const found = (await admin(`/v1/admin/contacts?accountId=${accountId}&q=three@`)).body.data;
      expect(found.map((c: { destination: string }) => c.destination)).toEqual(['three@example.com']);
      const profile = (await admin(`/v1/admin/contacts/${found[0].id}`)).body.data;
      expect(profile).toMatchObject({
        accountId,
        channel: 'EMAIL',
        destination: 'three@example.com',
        masked: 't****@example.com',
        counts: { sends: 2, verified: 1, failed: 0, wrongCodes: 0 },
        blocked: false,
      });
      expect(profile.history.map((h: { status: string }) => h.status)).toEqual(['verified', 'canceled']);
      expect(JSON.stringify(profile)).not.toMatch(/code_hash|codeHash|\b\d{6}\b/);
      expect((await admin('/v1/admin/contacts/nope')).status).toBe(404);
      // The answer has exactly the fields the OpenAPI document gives it (the schema serialises it).
      const doc = (await svc.get('/openapi.json')).body;
      const route = doc.paths['/v1/admin/contacts/{id}'].get;
      const documented = propertiesOf(doc, route.responses['200'].content['application/json'].schema).data;
      expect(Object.keys(profile).sort()).toEqual(Object.keys(propertiesOf(doc, documented)).sort());
      expect(Object.keys(profile.history[0]).sort()).toEqual(
        Object.keys(propertiesOf(doc, propertiesOf(doc, documented).history.items)).sort(),
      );
      // Sends with nothing against them: their risk reads back whole (the store keeps it short).
      for (const h of profile.history) expect(h.risk).toEqual({ score: 0, level: 'low', signals: [] });
      expect(profile.risk).toEqual({ score: 0, level: 'low', signals: [] });
      expect(profile.channels).toEqual(['EMAIL']);
      const byNumber = (await admin(`/v1/admin/contacts?accountId=${accountId}&q=%2B4474001`)).body.data;
      expect(byNumber.map((c: { masked: string }) => c.masked)).toEqual(['+4*******3456']);
    });

    it('a blocked contact gets 403 CONTACT_BLOCKED and receives nothing, until unblocked', async () => {
      const first = await send({ channel: 'EMAIL', email: 'blocked@example.com' });
      expect(first.status).toBe(200);
      const [contact] = (await admin(`/v1/admin/contacts?accountId=${accountId}&q=blocked@example.com`)).body
        .data;
      const blocked = await svc.post(
        `/v1/admin/contacts/${contact.id}/block`,
        { reason: 'abuse' },
        ADMIN_TOKEN,
      );
      expect(blocked.body.data).toMatchObject({ blocked: true, blockedReason: 'abuse' });
      const outboxBefore = (await admin('/v1/admin/outbox?to=blocked@example.com')).body.data.length;
      clock.advance(60_000);
      const refused = await send({ channel: 'EMAIL', email: 'blocked@example.com' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('CONTACT_BLOCKED');
      expect((await admin('/v1/admin/outbox?to=blocked@example.com')).body.data).toHaveLength(outboxBefore);
      await svc.post(`/v1/admin/contacts/${contact.id}/unblock`, {}, ADMIN_TOKEN);
      expect((await send({ channel: 'EMAIL', email: 'blocked@example.com' })).status).toBe(200);
    });

    it('every request to a new number counts on one contact: a dual SMS and WhatsApp pair, then a resend', async () => {
      const phone = '+447400123999';
      const dual = (await send({ channels: ['SMS', 'WHATSAPP'], phone, country: 'GB' })).body.data;
      expect(dual).toHaveLength(2);
      clock.advance(60_000);
      expect((await send({ channel: 'SMS', phone, country: 'GB' })).status).toBe(200);
      const found = (await admin(`/v1/admin/contacts?accountId=${accountId}&q=%2B447400123999`)).body.data;
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ counts: { sends: 3 } });
      // Time-ordered (UUIDv7), not derived from the number.
      expect(found[0].id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Its first 48 bits are the millisecond the contact was first seen.
      const idMs = Number.parseInt(found[0].id.replace('-', '').slice(0, 12), 16);
      expect(idMs).toBe(Date.parse(found[0].firstSeen));
    });

    it('refuses a send whose risk reaches the account threshold with 403 RISK_TOO_HIGH', async () => {
      const patched = await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${accountId}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ riskThreshold: 15 }),
      });
      expect(patched.statusCode).toBe(200);
      // A VOIP number in the UK range (+44 56): number_type weighs 20.
      const refused = await send({ channel: 'SMS', phone: '+445600000123', country: 'GB' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('RISK_TOO_HIGH');
      const to = encodeURIComponent('+445600000123');
      expect((await admin(`/v1/admin/outbox?to=${to}`)).body.data).toEqual([]);
      const buckets = (await admin(`/v1/admin/analytics?accountId=${accountId}&from=2026-11-24T00:00:00Z`))
        .body.data.buckets;
      expect(buckets[0].riskRefused).toBe(1);
      await svc.app.inject({
        method: 'PATCH',
        url: `/v1/admin/accounts/${accountId}/settings`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ riskThreshold: null }),
      });
    });
  });
}

analyticsSuite('SQLite', () => ({}));

describe.runIf(hasPostgres)('on PostgreSQL', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());
  analyticsSuite('PostgreSQL', () => ({ DATABASE_URL: db.url }));
});
