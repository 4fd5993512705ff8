import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/domain/clock.js';
import {
  type FakeSilent,
  startFakeSilent,
  twilioSilentEnv,
  vonageSilentEnv,
} from '../../delivery/support/fake-silent.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const SEND = '/v1/contact/send-code';
const VERIFY = '/v1/contact/verify-code';

let fake: FakeSilent;
beforeAll(async () => {
  fake = await startFakeSilent();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

let n = 0;
/** A fresh UK mobile number for each send (no cooldown, no supersede between tests). */
const nextPhone = () => `+447911${String(100000 + ++n).slice(-6)}`;

eachStore('SILENT through Twilio Verify SNA', (start, dialect) => {
  let svc: TestService;
  let key: string;
  const clock = new ManualClock(Date.parse('2026-12-06T08:00:00Z'));
  beforeAll(async () => {
    svc = await start({ ...twilioSilentEnv(fake), RESEND_COOLDOWN_SECONDS: '0' }, { clock });
    key = await svc.createKey({ channels: ['SILENT', 'SMS', 'EMAIL'] });
  });
  afterAll(() => svc.close());

  it('hands the app sna.url, then verifies with the requestId alone (method silent: the SILENT row wins)', async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone }, key);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ channel: 'SILENT', status: 'pending' });
    expect(sent.body.data.silent.url).toMatch(/^https:\/\/mi\.dnlsrv\.com\/m\/id\//);
    const started = fake.twilio.sends().at(-1);
    expect(started?.path).toBe('/v2/Services/VA0123456789abcdef0123456789abcdef/Verifications');
    expect(Object.fromEntries(new URLSearchParams(started?.body))).toEqual({ To: phone, Channel: 'sna' });

    const verified = await svc.post(VERIFY, { requestId: sent.body.data.requestId }, key);
    expect(verified.status).toBe(200);
    expect(verified.body.data).toMatchObject({
      verified: true,
      channel: 'SILENT',
      status: 'verified',
      silent: { outcome: 'verified' },
    });
    const check = fake.twilio.sends().at(-1);
    expect(check?.path).toMatch(/\/VerificationCheck$/);
    expect(new URLSearchParams(check?.body).get('VerificationSid')).toMatch(/^VE[0-9a-f]{32}$/);
    // The resource says how: the network (method silent).
    const resource = await svc.get(`/v1/contact/verifications/${sent.body.data.requestId}`, key);
    expect(resource.body.data).toMatchObject({ status: 'verified', method: 'silent', channel: 'SILENT' });
    // Consumed: a second call changes nothing and asks no provider.
    const calls = fake.twilio.sends().length;
    const again = await svc.post(VERIFY, { requestId: sent.body.data.requestId }, key);
    expect(again.body.data).toMatchObject({ verified: false, status: 'verified' });
    expect(fake.twilio.sends().length).toBe(calls);
  });

  it('maps the SNA codes: 60519 pending (nothing counted), 60500 rejected (counted), 60540 invalid_number', async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone }, key);
    const requestId = sent.body.data.requestId;
    fake.proves(phone, { snaError: 60519 });
    const pending = await svc.post(VERIFY, { requestId }, key);
    expect(pending.body.data).toMatchObject({
      verified: false,
      status: 'pending',
      attemptsRemaining: 5,
      silent: { outcome: 'pending', reason: expect.stringContaining('pending') },
    });
    fake.proves(phone, { snaError: 60500 });
    const rejected = await svc.post(VERIFY, { requestId }, key);
    expect(rejected.body.data).toMatchObject({
      verified: false,
      status: 'pending',
      attemptsRemaining: 4,
      silent: { outcome: 'rejected', reason: expect.stringContaining('another phone number') },
    });
    expect(rejected.body.data.fallback).toBeUndefined();
    fake.proves(phone, { snaError: 60540 });
    const invalid = await svc.post(VERIFY, { requestId }, key);
    expect(invalid.body.data.silent).toMatchObject({ outcome: 'invalid_number' });
    // Never a phone number or a provider's raw text in the answer.
    expect(JSON.stringify(invalid.body)).not.toContain(phone.slice(1));
  });

  it('falls back to an SMS code when the check is rejected; either requestId verifies it', async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
    expect(sent.status).toBe(200);
    const requestId = sent.body.data.requestId;
    fake.proves(phone, { snaError: 60500 });
    const rejected = await svc.post(VERIFY, { requestId }, key);
    expect(rejected.body.data.silent.outcome).toBe('rejected');
    expect(rejected.body.data.fallback).toMatchObject({
      channel: 'SMS',
      status: 'pending',
      reason: 'rejected',
    });
    const code = await svc.lastCode(phone);
    const verified = await svc.post(VERIFY, { requestId, otpCode: code }, key);
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'SMS', status: 'verified' });
    // The resource of the pair: both settled.
    const sibling = await svc.post(
      VERIFY,
      { requestId: rejected.body.data.fallback.requestId, otpCode: code },
      key,
    );
    expect(sibling.body.data).toMatchObject({ verified: false, status: 'verified' });
  });

  it('a provider that fails at once (4xx, 5xx, garbage, empty, a hang): fallback at once, or 502 without one', async () => {
    for (const answer of [
      { status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } },
      { status: 500, json: {} },
      { status: 503, text: '<html>Service Unavailable</html>' },
      { status: 201, text: 'not json at all' },
      { status: 201, text: '' },
      { status: 201, json: { sid: 'VE1', status: 'pending' } },
      { status: 200, hang: true },
    ]) {
      fake.twilio.answer(() => answer);
      const phone = nextPhone();
      const started = performance.now();
      const without = await svc.post(SEND, { channel: 'SILENT', phone }, key);
      expect(without.status, JSON.stringify(answer)).toBe(502);
      expect(without.body.error.code).toBe('DELIVERY_FAILED');
      const other = nextPhone();
      const withFallback = await svc.post(SEND, { channel: 'SILENT', phone: other, fallback: 'SMS' }, key);
      expect(withFallback.status, JSON.stringify(answer)).toBe(200);
      expect(withFallback.body.data).toMatchObject({
        channel: 'SILENT',
        status: 'undelivered',
        error: { code: 'DELIVERY_FAILED' },
        fallback: { channel: 'SMS', status: 'pending', reason: 'provider_failed' },
      });
      expect(withFallback.body.data.silent).toBeUndefined();
      // Bounded by TWILIO_TIMEOUT_MS (1.5 s) per call, with room for a loaded machine.
      expect(performance.now() - started).toBeLessThan(3 * 1500 * 5);
      const code = await svc.lastCode(other);
      const verified = await svc.post(VERIFY, { requestId: withFallback.body.data.requestId, code }, key);
      expect(verified.body.data).toMatchObject({ verified: true, channel: 'SMS' });
      fake.reset();
    }
  }, 60_000);

  it('falls back after silentTimeoutSeconds (the worker), announces verification.fallback and counts it', async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
    expect(sent.status).toBe(200);
    expect(await svc.silentFallbacks.runOnce()).toBe(0);
    clock.advance(31_000);
    expect(await svc.silentFallbacks.runOnce()).toBe(1);
    const message = await svc.lastMessage(phone);
    expect(message.channel).toBe('SMS');
    // The resource shows the fallback and its code's request, the sibling.
    const resource = await svc.get(`/v1/contact/verifications/${sent.body.data.requestId}`, key);
    expect(resource.body.data.fallback).toEqual({
      channel: 'SMS',
      state: 'fired',
      reason: 'timeout',
      requestId: message.requestId,
    });
    expect(resource.body.data.siblingRequestId).toBe(message.requestId);
    // Fired once: another run finds nothing.
    expect(await svc.silentFallbacks.runOnce()).toBe(0);
    const code = await svc.lastCode(phone);
    const verified = await svc.post(VERIFY, { requestId: sent.body.data.requestId, otpCode: code }, key);
    expect(verified.body.data).toMatchObject({ verified: true, channel: 'SMS' });

    const from = new Date(clock.now() - 3_600_000).toISOString();
    const to = new Date(clock.now() + 3_600_000).toISOString();
    const analytics = await svc.get(
      `/v1/admin/analytics?from=${from}&to=${to}&interval=day&groupBy=channel`,
      ADMIN_TOKEN,
    );
    expect(analytics.status).toBe(200);
    const silent = analytics.body.data.buckets.find((b: { group: string }) => b.group === 'SILENT');
    expect(silent.fellBack).toBeGreaterThanOrEqual(1);
  });

  it('two instances on one database: a due fallback fires on exactly one of them', async (context) => {
    // Two in-memory SQLite services share nothing: only PostgreSQL has two instances on one database.
    if (dialect !== 'postgres') return context.skip('two instances share a database on PostgreSQL only');
    const other = await start({ ...twilioSilentEnv(fake), RESEND_COOLDOWN_SECONDS: '0' }, { clock });
    try {
      const phone = nextPhone();
      const sent = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
      expect(sent.status).toBe(200);
      clock.advance(31_000);
      const claimed = await Promise.all([svc.silentFallbacks.runOnce(), other.silentFallbacks.runOnce()]);
      expect(claimed[0] + claimed[1]).toBe(1);
      const outbox = await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(phone)}`, ADMIN_TOKEN);
      expect(outbox.body.data.filter((m: { channel: string }) => m.channel === 'SMS')).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('a silent success drops the scheduled fallback', async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
    const verified = await svc.post(VERIFY, { requestId: sent.body.data.requestId }, key);
    expect(verified.body.data.verified).toBe(true);
    clock.advance(31_000);
    expect(await svc.silentFallbacks.runOnce()).toBe(0);
    await expect(svc.lastMessage(phone)).rejects.toThrow(/no outbox message/);
  });

  it('refuses what cannot be: fallback without SILENT, fallback EMAIL, a key without SILENT or without the fallback', async () => {
    const phone = nextPhone();
    const noSilent = await svc.post(SEND, { channel: 'SMS', phone, fallback: 'VOICE' }, key);
    expect(noSilent.status).toBe(400);
    expect(noSilent.body.error.details).toEqual([expect.objectContaining({ field: 'fallback' })]);
    const email = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'EMAIL' }, key);
    expect(email.status).toBe(400);
    const smsOnly = await svc.createKey({ channels: ['SMS'] });
    expect((await svc.post(SEND, { channel: 'SILENT', phone }, smsOnly)).status).toBe(403);
    const silentOnly = await svc.createKey({ channels: ['SILENT'] });
    const scoped = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, silentOnly);
    expect(scoped.status).toBe(403);
    expect(scoped.body.error.details[0]).toMatchObject({ field: 'fallback', channel: 'SMS' });
    // verify-code without a code is for SILENT requests only.
    const sms = await svc.post(SEND, { channel: 'SMS', phone: nextPhone() }, key);
    const noCode = await svc.post(VERIFY, { requestId: sms.body.data.requestId }, key);
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details[0].field).toBe('otpCode');
    const letters = await svc.post(VERIFY, { requestId: sms.body.data.requestId, code: 'abcdef' }, key);
    expect(letters.status).toBe(400);
  });

  it('counts SILENT in the send limits like any channel (the cooldown per destination)', async () => {
    const limited = await start({ ...twilioSilentEnv(fake), RESEND_COOLDOWN_SECONDS: '30' }, { clock });
    try {
      const k = await limited.createKey({ channels: ['SILENT'] });
      const phone = nextPhone();
      expect((await limited.post(SEND, { channel: 'SILENT', phone }, k)).status).toBe(200);
      const again = await limited.post(SEND, { channel: 'SILENT', phone }, k);
      expect(again.status).toBe(429);
      expect(again.body.error.details[0].channel).toBe('SILENT');
    } finally {
      await limited.close();
    }
  });
});

eachStore('SILENT through Vonage Verify v2', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ ...vonageSilentEnv(fake), RESEND_COOLDOWN_SECONDS: '0' });
    key = await svc.createKey({ channels: ['SILENT', 'SMS'] });
  });
  afterAll(() => svc.close());

  it("hands the app check_url, then checks the device's code with Vonage", async () => {
    const phone = nextPhone();
    const sent = await svc.post(SEND, { channel: 'SILENT', phone }, key);
    expect(sent.status).toBe(200);
    expect(sent.body.data.silent.url).toMatch(/\/v2\/verify\/[^/]+\/silent-auth\/redirect$/);
    const started = fake.vonage.sends().at(-1);
    expect(started?.path).toBe('/v2/verify');
    expect(JSON.parse(started?.body ?? '{}').workflow).toEqual([
      { channel: 'silent_auth', to: phone.slice(1) },
    ]);

    const requestId = sent.body.data.requestId;
    const noCode = await svc.post(VERIFY, { requestId }, key);
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details[0].field).toBe('code');
    const wrong = await svc.post(VERIFY, { requestId, code: 'si000000' }, key);
    expect(wrong.body.data).toMatchObject({
      verified: false,
      status: 'pending',
      silent: { outcome: 'rejected' },
    });
    const right = await svc.post(VERIFY, { requestId, code: fake.vonageCode(phone) }, key);
    expect(right.body.data).toMatchObject({ verified: true, channel: 'SILENT', status: 'verified' });
    const check = fake.vonage.sends().at(-1);
    expect(check?.path).toBe(`/v2/verify/${new URL(sent.body.data.silent.url).pathname.split('/')[3]}`);
  });

  it('a Vonage failure at once falls back, or answers 502 without a fallback', async () => {
    fake.vonage.answer(() => ({ status: 500, json: { title: 'Internal Error' } }));
    expect((await svc.post(SEND, { channel: 'SILENT', phone: nextPhone() }, key)).status).toBe(502);
    const phone = nextPhone();
    const fell = await svc.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
    expect(fell.body.data.fallback).toMatchObject({ channel: 'SMS', status: 'pending' });
    fake.vonage.answer(() => ({ status: 202, hang: true }));
    expect((await svc.post(SEND, { channel: 'SILENT', phone: nextPhone() }, key)).status).toBe(502);
  });
});

eachStore('SILENT with test keys (no provider asked)', (start, dialect) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ ...twilioSilentEnv(fake), RESEND_COOLDOWN_SECONDS: '0' });
    key = await svc.createKey({ channels: ['SILENT', 'SMS'], test: true });
  });
  afterAll(() => svc.close());

  it('answers the documented test numbers, deterministically', async () => {
    const before = fake.twilio.received.length;
    const ok = await svc.post(SEND, { channel: 'SILENT', phone: nextPhone() }, key);
    expect(ok.body.data.silent.url).toBe(`https://silent.test.invalid/v1/${ok.body.data.requestId}`);
    expect((await svc.post(VERIFY, { requestId: ok.body.data.requestId }, key)).body.data).toMatchObject({
      verified: true,
      channel: 'SILENT',
    });
    // The outbox's code stands in for the device's code (Vonage).
    const phone = nextPhone();
    const withCode = await svc.post(SEND, { channel: 'SILENT', phone }, key);
    const code = await svc.lastCode(phone);
    expect(
      (await svc.post(VERIFY, { requestId: withCode.body.data.requestId, code }, key)).body.data,
    ).toMatchObject({ verified: true, channel: 'SILENT' });

    const down = await svc.post(SEND, { channel: 'SILENT', phone: '+61491570156' }, key);
    expect(down.status).toBe(502);
    const downFell = await svc.post(SEND, { channel: 'SILENT', phone: '+61491570156', fallback: 'SMS' }, key);
    expect(downFell.body.data.fallback).toMatchObject({ channel: 'SMS', reason: 'provider_failed' });

    const mismatch = await svc.post(SEND, { channel: 'SILENT', phone: '+61491570157', fallback: 'SMS' }, key);
    const rejected = await svc.post(VERIFY, { requestId: mismatch.body.data.requestId }, key);
    expect(rejected.body.data).toMatchObject({
      silent: { outcome: 'rejected' },
      fallback: { channel: 'SMS' },
    });

    const never = await svc.post(SEND, { channel: 'SILENT', phone: '+61491570158' }, key);
    expect(
      (await svc.post(VERIFY, { requestId: never.body.data.requestId }, key)).body.data.silent.outcome,
    ).toBe('pending');
    const invalid = await svc.post(SEND, { channel: 'SILENT', phone: '+61491570159' }, key);
    expect(
      (await svc.post(VERIFY, { requestId: invalid.body.data.requestId }, key)).body.data.silent.outcome,
    ).toBe('invalid_number');
    expect(fake.twilio.received.length).toBe(before);
    void dialect;
  });
});

describe('SILENT fallbacks survive a restart (SQLite file)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cv-silent-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a fallback scheduled before a restart fires after it, once', async () => {
    const { startTestService } = await import('../../support/app.js');
    const clock = new ManualClock(Date.parse('2026-12-06T08:00:00Z'));
    const env = { ...twilioSilentEnv(fake), DATABASE_URL: `sqlite:${join(dir, 'restart.db')}` };
    const first = await startTestService(env, { clock });
    const key = await first.createKey({ channels: ['SILENT', 'SMS'] });
    const phone = nextPhone();
    const sent = await first.post(SEND, { channel: 'SILENT', phone, fallback: 'SMS' }, key);
    expect(sent.status).toBe(200);
    await first.close();

    clock.advance(31_000);
    const second = await startTestService(env, { clock });
    try {
      expect(await second.silentFallbacks.runOnce()).toBe(1);
      const code = await second.lastCode(phone);
      const verified = await second.post(VERIFY, { requestId: sent.body.data.requestId, otpCode: code }, key);
      expect(verified.body.data).toMatchObject({ verified: true, channel: 'SMS' });
    } finally {
      await second.close();
    }
  });
});
