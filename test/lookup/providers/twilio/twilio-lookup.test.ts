import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { durationHours, TwilioLookup } from '../../../../src/lookup/providers/twilio/twilio-lookup.js';
import {
  budget,
  FAULTS,
  type FakeLookupApi,
  refusedUrl,
  startFakeLookupApi,
} from '../../support/fake-lookup-api.js';

// Twilio Lookup v2, answered as its API reference (twilio-oai, twilio_lookups_v2.json) and the
// Line Type Intelligence and SIM Swap pages document it.

const SID = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'twilio-test-token';
const NUMBER = '+447772000001';

/** The documented answer of `Fields=line_type_intelligence,sim_swap` (fetchSimSwap's and fetchLineTypeIntelligence's). */
const answerOf = (over: { lti?: unknown; simSwap?: unknown; valid?: boolean } = {}) => ({
  calling_country_code: '44',
  country_code: 'GB',
  phone_number: NUMBER,
  national_format: '07772 000001',
  valid: over.valid ?? true,
  validation_errors: null,
  caller_name: null,
  sim_swap:
    over.simSwap === undefined
      ? {
          last_sim_swap: {
            last_sim_swap_date: '2020-04-27T10:18:50Z',
            swapped_period: 'PT15282H33M44S',
            swapped_in_period: true,
          },
          carrier_name: 'Vodafone UK',
          mobile_country_code: '276',
          mobile_network_code: '02',
          error_code: null,
        }
      : over.simSwap,
  call_forwarding: null,
  line_type_intelligence:
    over.lti === undefined
      ? {
          error_code: null,
          mobile_country_code: '234',
          mobile_network_code: '15',
          carrier_name: 'Vodafone UK',
          type: 'mobile',
        }
      : over.lti,
  identity_match: null,
  url: `https://lookups.twilio.com/v2/PhoneNumbers/${NUMBER}`,
});

describe('Twilio Lookup v2 (GET /v2/PhoneNumbers/{PhoneNumber})', () => {
  let api: FakeLookupApi;
  let twilio: TwilioLookup;
  beforeAll(async () => {
    api = await startFakeLookupApi(() => ({ json: answerOf() }));
    twilio = new TwilioLookup({ accountSid: SID, authToken: TOKEN, baseUrl: api.url });
  });
  afterAll(() => api.close());

  it('asks both packages with Basic SID:token and normalises the answer', async () => {
    api.answer(() => ({ json: answerOf() }));
    const answer = await twilio.lookup(NUMBER, { line: true, sim: true }, budget());
    expect(answer).toEqual({
      ok: true,
      line: { lineType: 'mobile', carrier: 'Vodafone UK', country: 'GB', mcc: '234', mnc: '15' },
      sim: { lastSimChange: { at: Date.parse('2020-04-27T10:18:50Z') } },
    });
    const r = api.received.at(-1)!;
    expect(r.method).toBe('GET');
    expect(r.path).toBe(`/v2/PhoneNumbers/${encodeURIComponent(NUMBER)}`);
    expect(r.query.get('Fields')).toBe('line_type_intelligence,sim_swap');
    expect(r.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
  });

  it('asks only the packages needed (the SIM swap package is billed apart)', async () => {
    await twilio.lookup(NUMBER, { line: true, sim: false }, budget());
    expect(api.received.at(-1)!.query.get('Fields')).toBe('line_type_intelligence');
    await twilio.lookup(NUMBER, { line: false, sim: true }, budget());
    expect(api.received.at(-1)!.query.get('Fields')).toBe('sim_swap');
  });

  it('normalises every documented line type', async () => {
    const cases: Array<[string, string | null]> = [
      ['landline', 'landline'],
      ['mobile', 'mobile'],
      ['fixedVoip', 'voip'],
      ['nonFixedVoip', 'voip'],
      ['personal', 'other'],
      ['tollFree', 'tollFree'],
      ['premium', 'premium'],
      ['sharedCost', 'premium'],
      ['uan', 'other'],
      ['voicemail', 'other'],
      ['pager', 'other'],
      ['unknown', null],
      ['somethingNew', 'other'],
    ];
    for (const [type, lineType] of cases) {
      // Carrier data is null for these types, as the page says.
      api.answer(() => ({
        json: answerOf({
          lti: {
            error_code: null,
            mobile_country_code: null,
            mobile_network_code: null,
            carrier_name: null,
            type,
          },
        }),
      }));
      const answer = await twilio.lookup(NUMBER, { line: true, sim: false }, budget());
      expect(answer).toMatchObject({ ok: true, line: { lineType, carrier: null, mcc: null, mnc: null } });
    }
  });

  it('reads a SIM swap without a date as a window (swapped_period and swapped_in_period)', async () => {
    api.answer(() => ({
      json: answerOf({
        simSwap: {
          last_sim_swap: { last_sim_swap_date: null, swapped_period: 'PT24H', swapped_in_period: false },
          carrier_name: 'Vodafone UK',
          mobile_country_code: '276',
          mobile_network_code: '02',
          error_code: null,
        },
      }),
    }));
    expect(await twilio.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: { withinHours: 24, changed: false } },
    });
    expect(durationHours('PT15282H33M44S')).toBeCloseTo(15282.56, 1);
    expect(durationHours('P2D')).toBe(48);
    expect(durationHours('PT')).toBeNull();
    expect(durationHours('24h')).toBeNull();
  });

  it("answers 'unknown' for a package's error_code (60600, 60601, 60620), an invalid number and a 404", async () => {
    api.answer(() => ({
      json: answerOf({
        lti: {
          error_code: 60600,
          mobile_country_code: null,
          mobile_network_code: null,
          carrier_name: null,
          type: null,
        },
        simSwap: {
          last_sim_swap: null,
          carrier_name: null,
          mobile_country_code: null,
          mobile_network_code: null,
          error_code: 60620,
        },
      }),
    }));
    expect(await twilio.lookup(NUMBER, { line: true, sim: true }, budget())).toEqual({
      ok: true,
      line: { lineType: null, carrier: null, country: 'GB', mcc: null, mnc: null },
      sim: { lastSimChange: null },
    });
    // Lookup v2 answers an invalid number with 200 and valid: false (fetchInvalid).
    api.answer(() => ({
      json: {
        ...answerOf({ lti: null, simSwap: null, valid: false }),
        validation_errors: ['TOO_LONG'],
        country_code: null,
      },
    }));
    expect(await twilio.lookup(`${NUMBER}0`, { line: true, sim: false }, budget())).toMatchObject({
      ok: true,
      line: { lineType: null },
    });
    api.answer(() => ({
      status: 404,
      json: { code: 20404, message: 'The requested resource was not found', status: 404 },
    }));
    expect(await twilio.lookup(NUMBER, { line: true, sim: true }, budget())).toMatchObject({
      ok: true,
      line: { lineType: null },
      sim: { lastSimChange: null },
    });
  });

  it("keeps Twilio's error code and never the message (which may echo the number)", async () => {
    api.answer(() => ({
      status: 429,
      json: {
        code: 20429,
        message: `Too many requests for ${NUMBER}`,
        more_info: 'https://www.twilio.com/docs/errors/20429',
        status: 429,
      },
    }));
    const answer = await twilio.lookup(NUMBER, { line: true, sim: false }, budget());
    expect(answer).toEqual({ ok: false, retryable: true, error: 'twilio is rate limiting (error 20429)' });
    api.answer(() => ({ status: 401, json: { code: 20003, message: 'Authenticate', status: 401 } }));
    expect(await twilio.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
      ok: false,
      retryable: false,
      error: 'twilio answered HTTP 401 (error 20003)',
    });
  });

  for (const fault of FAULTS) {
    it(`answers ${fault.name} as a failure`, async () => {
      api.answer(() => fault.answer);
      const answer = await twilio.lookup(NUMBER, { line: true, sim: true }, budget());
      expect(answer).toMatchObject({ ok: false, retryable: fault.retryable });
      expect(JSON.stringify(answer)).not.toContain(NUMBER);
    });
  }

  it('gives up at the budget on a hang and on a body that never ends, and on a refused connection', async () => {
    for (const fault of [{ hang: true }, { stallBody: true }]) {
      api.answer(() => fault);
      const started = performance.now();
      const answer = await twilio.lookup(NUMBER, { line: true, sim: false }, budget(200));
      expect(performance.now() - started).toBeLessThan(2000);
      expect(answer).toMatchObject({ ok: false, retryable: true, error: 'twilio did not answer in time' });
    }
    // A connection cut mid-answer fails at once, not at the budget.
    api.answer(() => ({ json: { phone_number: NUMBER }, cutBody: true }));
    const started = performance.now();
    expect(await twilio.lookup(NUMBER, { line: true, sim: false }, budget(10_000))).toMatchObject({
      ok: false,
      retryable: true,
      error: 'twilio could not be reached (ECONNRESET)',
    });
    expect(performance.now() - started).toBeLessThan(5000);
    const down = new TwilioLookup({ accountSid: SID, authToken: TOKEN, baseUrl: await refusedUrl() });
    expect(await down.lookup(NUMBER, { line: true, sim: false }, budget())).toMatchObject({
      ok: false,
      retryable: true,
      error: expect.stringContaining('could not be reached'),
    });
  });
});
