import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountWith, freshNumber, SEND } from '../../lookup/support/lookup-service.js';
import { type ProviderFake, startProviderFake } from '../../lookup/support/provider-fakes.js';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

// send-code with carrier lookups on, through the whole service on SQLite and PostgreSQL, against
// a fake of Twilio Lookup v2 on loopback: each outcome of the account's rules (a refused line
// type, a line type signal, a SIM change as a signal or a refusal, a failed lookup sent on or
// refused), the channels the account chose, once per number, and the refusals in analytics.

type Signal = { name: string; weight: number; detail: string };
const signalsOf = (body: { data: { risk: { signals: Signal[] } } }) =>
  Object.fromEntries(body.data.risk.signals.map((s) => [s.name, s.weight]));

eachStore('send-code: carrier lookups (Twilio Lookup v2 fake)', (start) => {
  let svc: TestService;
  let fake: ProviderFake;
  beforeAll(async () => {
    fake = await startProviderFake('twilio');
    svc = await start({ ...fake.env, CIRCUIT_BREAKER_FAILURES: '1000' });
  });
  afterAll(async () => {
    await svc?.close();
    await fake?.close();
  });
  const sms = (key: string, phone: string) => svc.post(SEND, { channel: 'SMS', phone }, key);

  it('with lookups off (the default), asks no provider and adds no signal', async () => {
    const { key } = await accountWith(svc, {});
    const phone = freshNumber();
    fake.say(phone, { lineType: 'voip' });
    const res = await sms(key, phone);
    expect(res.status).toBe(200);
    expect(signalsOf(res.body)).not.toHaveProperty('line_type');
    expect(fake.lookupsOf(phone)).toHaveLength(0);
  });

  it('refuses a line type in refuseLineTypes with 400 UNSUPPORTED_NUMBER naming lineType, and counts it', async () => {
    const { key, accountId } = await accountWith(svc, { lookup: 'sms_voice', refuseLineTypes: ['voip'] });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'voip' });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const res = await sms(key, phone);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('UNSUPPORTED_NUMBER');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'lineType', channel: 'SMS' })]);
    expect(JSON.stringify(res.body)).not.toContain(phone);
    // Nothing was sent.
    const outbox = await svc.get(`/v1/admin/outbox?to=${encodeURIComponent(phone)}`, ADMIN_TOKEN);
    expect(outbox.body.data).toEqual([]);
    const analytics = await svc.get(
      `/v1/admin/analytics?accountId=${accountId}&from=${encodeURIComponent(from)}&interval=hour`,
      ADMIN_TOKEN,
    );
    expect(analytics.status).toBe(200);
    const bucket = analytics.body.data.buckets.at(-1);
    expect(bucket.refusedBy).toEqual({ line_type: 1 });
  });

  it('adds line_type with its weight in place of number_type, and sends', async () => {
    const { key } = await accountWith(svc, { lookup: 'sms_voice' });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'landline' });
    const res = await sms(key, phone);
    expect(res.status).toBe(200);
    const signals = signalsOf(res.body);
    expect(signals.line_type).toBe(15);
    expect(signals).not.toHaveProperty('number_type');
    expect(res.body.data.risk.score).toBeGreaterThanOrEqual(15);
  });

  it('a mobile adds nothing; the SIM is not asked without simSwapHours', async () => {
    const { key } = await accountWith(svc, { lookup: 'sms_voice' });
    const phone = freshNumber();
    const res = await sms(key, phone);
    expect(res.status).toBe(200);
    expect(res.body.data.risk.signals).toEqual([]);
    expect(fake.lookupsOf(phone).map((r) => r.query.get('Fields'))).toEqual(['line_type_intelligence']);
  });

  it('adds sim_swap (40) for a SIM change within simSwapHours under simSwapAction signal', async () => {
    const { key } = await accountWith(svc, { lookup: 'sms_voice', simSwapHours: 24 });
    const phone = freshNumber();
    fake.say(phone, { simChangedHoursAgo: 2 });
    const res = await sms(key, phone);
    expect(res.status).toBe(200);
    expect(signalsOf(res.body).sim_swap).toBe(40);
    expect(fake.lookupsOf(phone).map((r) => r.query.get('Fields'))).toEqual([
      'line_type_intelligence,sim_swap',
    ]);
    // An older change is nothing.
    const older = freshNumber();
    fake.say(older, { simChangedHoursAgo: 72 });
    const res2 = await sms(key, older);
    expect(res2.status).toBe(200);
    expect(signalsOf(res2.body)).not.toHaveProperty('sim_swap');
  });

  it('refuses a recent SIM change with 403 RISK_TOO_HIGH naming sim_swap under simSwapAction refuse', async () => {
    const { key, accountId } = await accountWith(svc, {
      lookup: 'all_phone',
      simSwapHours: 24,
      simSwapAction: 'refuse',
    });
    const phone = freshNumber();
    fake.say(phone, { simChangedHoursAgo: 2 });
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const res = await svc.post(SEND, { channel: 'WHATSAPP', whatsappNumber: phone }, key);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('RISK_TOO_HIGH');
    expect(res.body.error.details).toEqual([
      expect.objectContaining({ field: 'sim_swap', channel: 'WHATSAPP' }),
    ]);
    const analytics = await svc.get(
      `/v1/admin/analytics?accountId=${accountId}&from=${encodeURIComponent(from)}&interval=hour&groupBy=channel`,
      ADMIN_TOKEN,
    );
    const bucket = analytics.body.data.buckets.find((b: { group: string }) => b.group === 'WHATSAPP');
    expect(bucket.refusedBy).toEqual({ sim_swap: 1 });
  });

  it('a failed lookup adds lookup_unavailable and sends; under lookupFailClosed it refuses', async () => {
    const open = await accountWith(svc, { lookup: 'sms_voice' });
    const closed = await accountWith(svc, { lookup: 'sms_voice', lookupFailClosed: true });
    fake.fail({ status: 500, json: { code: 20500, message: 'Internal Server Error' } });
    try {
      const phone = freshNumber();
      const sent = await sms(open.key, phone);
      expect(sent.status).toBe(200);
      expect(signalsOf(sent.body).lookup_unavailable).toBe(10);
      // A failure is not cached: the next send asks again.
      const refused = await sms(closed.key, phone);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({
        code: 'RISK_TOO_HIGH',
        details: [expect.objectContaining({ field: 'lookup_unavailable', channel: 'SMS' })],
      });
      expect(fake.lookupsOf(phone)).toHaveLength(2);
    } finally {
      fake.fail(null);
    }
  });

  it('looks up only the channels the account chose', async () => {
    const { key } = await accountWith(svc, { lookup: 'sms_voice', refuseLineTypes: ['voip'] });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'voip' });
    const wa = await svc.post(SEND, { channel: 'WHATSAPP', whatsappNumber: phone }, key);
    expect(wa.status).toBe(200);
    expect(fake.lookupsOf(phone)).toHaveLength(0);
    const voice = await svc.post(SEND, { channel: 'VOICE', phone }, key);
    expect(voice.status).toBe(400);
    expect(voice.body.error.details[0]).toMatchObject({ field: 'lineType', channel: 'VOICE' });
    expect(fake.lookupsOf(phone)).toHaveLength(1);
  });

  it('looks a number up once per cache period, whichever account or channel asks', async () => {
    const a = await accountWith(svc, { lookup: 'all_phone' });
    const b = await accountWith(svc, { lookup: 'all_phone' });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'voip' });
    // A dual send on two phone channels asks once.
    const dual = await svc.post(SEND, { channels: ['SMS', 'WHATSAPP'], phone }, a.key);
    expect(dual.status).toBe(200);
    for (const entry of dual.body.data)
      expect(entry.risk.signals.map((s: Signal) => s.name)).toContain('line_type');
    const other = await sms(b.key, phone);
    expect(other.status).toBe(200);
    expect(signalsOf(other.body).line_type).toBe(25);
    expect(fake.lookupsOf(phone)).toHaveLength(1);
    // /metrics counts them by outcome: what the provider answered (and bills), what the cache did.
    const metrics = await svc.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/contact_verify_number_lookups_total\{outcome="provider"\} [1-9]/);
    expect(metrics.body).toMatch(/contact_verify_number_lookups_total\{outcome="cache"\} [1-9]/);
  });

  it('never asks the provider for a test key: the test numbers answer', async () => {
    const { key } = await accountWith(
      svc,
      { lookup: 'sms_voice', refuseLineTypes: ['voip'], simSwapHours: 24, simSwapAction: 'refuse' },
      { test: true },
    );
    const before = fake.api.received.length;
    const voip = await sms(key, '+447700900001');
    expect(voip.status).toBe(400);
    expect(voip.body.error.details[0].field).toBe('lineType');
    const swapped = await sms(key, '+447700900010');
    expect(swapped.status).toBe(403);
    expect(swapped.body.error.details[0].field).toBe('sim_swap');
    const failing = await sms(key, '+447700900020');
    expect(failing.status).toBe(200);
    expect(signalsOf(failing.body).lookup_unavailable).toBe(10);
    const mobile = await sms(key, freshNumber());
    expect(mobile.status).toBe(200);
    expect(mobile.body.data.risk.signals).toEqual([]);
    expect(fake.api.received.length).toBe(before);
  });

  it('the lookup signals count toward riskThreshold', async () => {
    const { key } = await accountWith(svc, { lookup: 'sms_voice', riskThreshold: 25 });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'voip' });
    const res = await sms(key, phone);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('RISK_TOO_HIGH');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain('line_type');
  });

  const profileOf = async (accountId: string, phone: string) => {
    const found = await svc.get(
      `/v1/admin/contacts?accountId=${accountId}&q=${encodeURIComponent(phone)}`,
      ADMIN_TOKEN,
    );
    expect(found.body.data).toHaveLength(1);
    const profile = await svc.get(`/v1/admin/contacts/${found.body.data[0].id}`, ADMIN_TOKEN);
    expect(profile.status).toBe(200);
    return profile.body.data;
  };

  it('the contact profile shows line type, carrier and last SIM change from the cache', async () => {
    const { key, accountId } = await accountWith(svc, { lookup: 'sms_voice', simSwapHours: 48 });
    const phone = freshNumber();
    fake.say(phone, { lineType: 'mobile', simChangedHoursAgo: 30 });
    const before = Date.now();
    expect((await sms(key, phone)).status).toBe(200);
    const asked = fake.lookupsOf(phone).length;
    const profile = await profileOf(accountId, phone);
    expect(profile.lookup).toMatchObject({
      lineType: 'mobile',
      carrier: 'Vodafone UK',
      mcc: '234',
      mnc: '15',
      simChangedWithin: null,
    });
    const changed = Date.parse(profile.lookup.lastSimChange);
    expect(Math.abs(before - 30 * 3_600_000 - changed)).toBeLessThan(60_000);
    expect(Date.parse(profile.lookup.lineCheckedAt)).toBeGreaterThanOrEqual(before - 1000);
    // Reading the profile never asks the provider.
    expect(fake.lookupsOf(phone)).toHaveLength(asked);
  });

  it('an account without lookups is shown nothing, even of a number another account looked up', async () => {
    const looking = await accountWith(svc, { lookup: 'sms_voice' });
    const off = await accountWith(svc, {});
    const phone = freshNumber();
    expect((await sms(looking.key, phone)).status).toBe(200);
    expect((await sms(off.key, phone)).status).toBe(200);
    expect((await profileOf(off.accountId, phone)).lookup).toBeNull();
    expect((await profileOf(looking.accountId, phone)).lookup).toMatchObject({ lineType: 'mobile' });
  });

  it("a test key's contact shows the test number's answer", async () => {
    const { key, accountId } = await accountWith(svc, { lookup: 'sms_voice' }, { test: true });
    expect((await sms(key, '+447700900012')).status).toBe(200);
    const profile = await profileOf(accountId, '+447700900012');
    expect(profile.lookup).toMatchObject({
      lineType: 'mobile',
      carrier: 'Contact Verify Test Mobile',
      lastSimChange: null,
      simChangedWithin: { hours: 24, changed: true },
    });
  });
});
