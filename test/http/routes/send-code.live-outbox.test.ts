import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/config/schema.js';
import { DEFAULT_ACCOUNT_ID } from '../../../src/domain/accounts.js';
import { CHANNELS } from '../../../src/domain/types.js';
import { RedisRateLimitStore } from '../../../src/limits/redis-store.js';
import { type FakeProviders, startFakeProviders } from '../../delivery/support/providers.js';
import { ADMIN_TOKEN, startTestService, type TestService, testConfig } from '../../support/app.js';
import { createTestDatabase, type TestDatabase } from '../../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../../support/services.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

describe('LIVE_OUTBOX setting', () => {
  it('defaults to refuse with NODE_ENV=production and to allow otherwise; an explicit value wins', () => {
    expect(testConfig({ NODE_ENV: 'production' }).liveOutbox).toBe('refuse');
    expect(testConfig({}).liveOutbox).toBe('allow');
    expect(testConfig({ NODE_ENV: 'development' }).liveOutbox).toBe('allow');
    expect(testConfig({ NODE_ENV: 'production', LIVE_OUTBOX: 'allow' }).liveOutbox).toBe('allow');
    expect(testConfig({ LIVE_OUTBOX: 'refuse' }).liveOutbox).toBe('refuse');
    expect(() => testConfig({ LIVE_OUTBOX: 'maybe' })).toThrow(ConfigError);
    expect(() => testConfig({ LIVE_OUTBOX: 'maybe' })).toThrow(/LIVE_OUTBOX: must be one of allow, refuse/);
  });
});

const backends = [
  { name: 'SQLite', postgres: false },
  { name: 'PostgreSQL', postgres: true },
].filter((b) => !b.postgres || (hasPostgres && hasRedis));

/**
 * Live codes are never parked silently: with LIVE_OUTBOX=refuse a live key's send on a channel
 * with no provider is refused before anything is stored or charged, /health says the channel does
 * not work for live traffic, and the start logs it; with allow, /health says where codes go.
 */
describe.each(backends)('live codes on a channel with no provider ($name)', ({ postgres }) => {
  let db: TestDatabase | undefined;
  let dir: string;
  let fakes: FakeProviders;
  const redisPrefix = `cv-live-outbox-${randomUUID()}`;
  let n = 0;
  const email = () => `live-${n++}@example.com`;

  beforeAll(async () => {
    db = postgres ? await createTestDatabase() : undefined;
    dir = mkdtempSync(join(tmpdir(), 'cv-live-outbox-'));
    fakes = await startFakeProviders();
  });
  afterAll(async () => {
    await fakes?.close();
    await db?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A service on this backend's lasting database; with PostgreSQL its counters are in Redis, so
   * that a second start sees what the first one charged (SQLite keeps them in its file). */
  const start = async (env: Record<string, string>) => {
    const lines: Array<{ level: number; msg: string; channel?: string }> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const svc = await startTestService(
      {
        DATABASE_URL: db ? db.url : `sqlite:${join(dir, 'verify.db')}`,
        ...(db ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
        ...env,
      },
      { logger: pino({ level: 'info' }, sink) },
    );
    return { svc, lines };
  };
  const send = (svc: TestService, body: unknown, key: string, idempotencyKey?: string) =>
    svc.app.inject({
      method: 'POST',
      url: SEND,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: JSON.stringify(body),
    });
  const health = async (svc: TestService) => (await svc.get('/health')).body;

  it('refuse: 503 CHANNEL_UNAVAILABLE, nothing stored or charged; test keys use the outbox; one warning per channel', async () => {
    const { svc, lines } = await start({ LIVE_OUTBOX: 'refuse' });
    const to = email();
    try {
      const live = await svc.createKey();
      const single = await send(svc, { channel: 'EMAIL', email: to }, live);
      expect(single.statusCode).toBe(503);
      expect(single.json().error).toMatchObject({
        code: 'CHANNEL_UNAVAILABLE',
        details: [{ field: 'channel', channel: 'EMAIL', message: expect.stringMatching(/no provider/) }],
      });
      expect(single.headers['retry-after']).toBeUndefined();
      // Nothing was charged: at once again the same answer, not a cooldown's 429.
      expect((await send(svc, { channel: 'EMAIL', email: to }, live)).statusCode).toBe(503);
      const dual = await send(svc, { channels: ['EMAIL', 'SMS'], email: to, phone: '+14155550142' }, live);
      expect(dual.statusCode).toBe(503);
      expect(dual.json().error.details.map((d: { channel: string }) => d.channel)).toEqual(['EMAIL', 'SMS']);
      // A 503 is never kept for an Idempotency-Key.
      expect((await send(svc, { channel: 'EMAIL', email: to }, live, 'k-503')).statusCode).toBe(503);
      const retried = await send(svc, { channel: 'EMAIL', email: to }, live, 'k-503');
      expect(retried.headers['idempotent-replayed']).toBeUndefined();

      // Nothing stored: no message, no request, no contact, no change to fold.
      expect((await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(to)}`, ADMIN_TOKEN)).body.data).toEqual(
        [],
      );
      expect(await svc.store.readModel.searchContacts(DEFAULT_ACCOUNT_ID, to, 10)).toEqual([]);
      expect(await svc.store.readModel.fold(100)).toBe(0);

      // A test key still gets its code in the outbox.
      const test = await svc.createKey({ test: true });
      expect((await send(svc, { channel: 'EMAIL', email: to }, test)).statusCode).toBe(200);
      expect(await svc.lastCode(to)).toMatch(/^\d{6}$/);

      const h = await health(svc);
      expect(h.status).toBe('degraded');
      for (const channel of CHANNELS) {
        expect(h.channels[channel]).toMatchObject({
          operational: false,
          liveCodes: 'refused',
          note: expect.stringMatching(/refused with 503 CHANNEL_UNAVAILABLE/),
        });
      }
      const warnings = lines.filter((l) => l.level === 40 && /CHANNEL_UNAVAILABLE/.test(l.msg));
      expect(warnings.map((l) => l.channel)).toEqual([...CHANNELS]);
    } finally {
      await svc.close();
    }

    // A later start that parks live codes sends at once: the refused sends charged no cooldown.
    const next = await start({ LIVE_OUTBOX: 'allow' });
    try {
      const live = await next.svc.createKey();
      expect((await send(next.svc, { channel: 'EMAIL', email: to }, live)).statusCode).toBe(200);
    } finally {
      if (next.svc.counters instanceof RedisRateLimitStore) await next.svc.counters.clear();
      await next.svc.close();
    }
  });

  it('refuse: in a dual send the channel with no provider is undelivered with CHANNEL_UNAVAILABLE; the other is delivered and verifies', async () => {
    const twilioOnly = Object.fromEntries(
      Object.entries(fakes.env).filter(([name]) => name.startsWith('TWILIO_')),
    );
    const { svc } = await start({ ...twilioOnly, LIVE_OUTBOX: 'refuse', RESEND_COOLDOWN_SECONDS: '0' });
    try {
      const live = await svc.createKey();
      const phone = '+14155550143';
      const to = email();
      const res = await send(svc, { channels: ['EMAIL', 'SMS'], email: to, phone }, live);
      expect(res.statusCode).toBe(200);
      const [byEmail, bySms] = res.json().data;
      expect(byEmail).toMatchObject({
        channel: 'EMAIL',
        status: 'undelivered',
        error: { code: 'CHANNEL_UNAVAILABLE' },
      });
      expect(bySms).toMatchObject({ channel: 'SMS', status: 'pending' });
      expect(bySms.error).toBeUndefined();
      expect((await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(to)}`, ADMIN_TOKEN)).body.data).toEqual(
        [],
      );
      const sms = new URLSearchParams(fakes.twilio.sends().at(-1)?.body).get('Body') ?? '';
      const code = /\b(\d{6})\b/.exec(sms)?.[1] as string;
      // The refused channel's entry names no request; the delivered one verifies.
      expect((await svc.post(VERIFY, { requestId: byEmail.requestId, otpCode: code }, live)).status).toBe(
        404,
      );
      const verified = await svc.post(VERIFY, { requestId: bySms.requestId, otpCode: code }, live);
      expect(verified.body.data).toMatchObject({ verified: true, channel: 'SMS' });

      const h = await health(svc);
      expect(h.channels.SMS).toMatchObject({ operational: true, liveCodes: 'delivered' });
      expect(h.channels.SMS.note).toBeUndefined();
      expect(h.channels.EMAIL).toMatchObject({ operational: false, liveCodes: 'refused' });
    } finally {
      await svc.close();
    }
  });

  it('allow: live codes go to the outbox, and /health says plainly that they are not delivered', async () => {
    const { svc, lines } = await start({ LIVE_OUTBOX: 'allow' });
    try {
      const live = await svc.createKey();
      const to = email();
      expect((await send(svc, { channel: 'EMAIL', email: to }, live)).statusCode).toBe(200);
      expect(await svc.lastCode(to)).toMatch(/^\d{6}$/);
      const h = await health(svc);
      expect(h.channels.EMAIL).toMatchObject({
        operational: true,
        liveCodes: 'outbox',
        note: 'Live EMAIL codes go to the outbox and are not delivered: no provider is configured (LIVE_OUTBOX=allow).',
      });
      expect(lines.filter((l) => /go to the outbox and are not delivered/.test(l.msg))).toHaveLength(
        CHANNELS.length,
      );
    } finally {
      if (svc.counters instanceof RedisRateLimitStore) await svc.counters.clear();
      await svc.close();
    }
  });
});
