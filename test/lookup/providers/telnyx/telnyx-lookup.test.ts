import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelnyxLookup } from '../../../../src/lookup/providers/telnyx/telnyx-lookup.js';
import { budget, FAULTS, type FakeLookupApi, startFakeLookupApi } from '../../support/fake-lookup-api.js';

// Telnyx Number Lookup, answered as its quickstart and API reference (the SDKs' generated
// NumberLookupRetrieveResponse) document it.

const KEY = 'KEY0123456789';
const NUMBER = '+13129457420';
const answerOf = (carrier: Record<string, unknown> | null) => ({
  data: {
    caller_name: null,
    carrier,
    country_code: 'US',
    fraud: null,
    national_format: '(312) 945-7420',
    phone_number: NUMBER,
    portability: { line_type: 'voip', ported_status: 'Y', spid_carrier_name: 'Telnyx/4' },
    record_type: 'number_lookup',
  },
});

describe('Telnyx Number Lookup (GET /v2/number_lookup/{phone_number})', () => {
  let api: FakeLookupApi;
  let telnyx: TelnyxLookup;
  beforeAll(async () => {
    api = await startFakeLookupApi(() => ({ json: answerOf(null) }));
    telnyx = new TelnyxLookup({ apiKey: KEY, baseUrl: api.url });
  });
  afterAll(() => api.close());

  it('asks type=carrier with the API key as a Bearer token and normalises the answer', async () => {
    api.answer(() => ({
      json: answerOf({
        error_code: null,
        mobile_country_code: '310',
        mobile_network_code: '410',
        name: 'AT&T Mobility',
        normalized_carrier: 'AT&T',
        type: 'mobile',
      }),
    }));
    expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
      ok: true,
      line: { lineType: 'mobile', carrier: 'AT&T', country: 'US', mcc: '310', mnc: '410' },
    });
    const r = api.received.at(-1)!;
    expect(r.method).toBe('GET');
    expect(r.path).toBe(`/v2/number_lookup/${encodeURIComponent(NUMBER)}`);
    expect(r.query.get('type')).toBe('carrier');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it("keeps the documented example's region code out of the network codes", async () => {
    // The quickstart's example answers mobile_country_code "US" and mobile_network_code 866.
    api.answer(() => ({
      json: answerOf({
        error_code: null,
        mobile_country_code: 'US',
        mobile_network_code: 866,
        name: 'Telnyx/4',
        type: 'voip',
      }),
    }));
    expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
      ok: true,
      line: { lineType: 'voip', carrier: 'Telnyx/4', country: 'US', mcc: null, mnc: null },
    });
  });

  it('normalises every documented carrier type', async () => {
    const cases: Array<[string, string | null]> = [
      ['fixed line', 'landline'],
      ['mobile', 'mobile'],
      ['voip', 'voip'],
      ['fixed line or mobile', null],
      ['toll free', 'tollFree'],
      ['premium rate', 'premium'],
      ['shared cost', 'premium'],
      ['personal number', 'other'],
      ['pager', 'other'],
      ['uan', 'other'],
      ['voicemail', 'other'],
      ['unknown', null],
    ];
    for (const [type, lineType] of cases) {
      api.answer(() => ({ json: answerOf({ name: 'Carrier', type }) }));
      expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toMatchObject({
        ok: true,
        line: { lineType },
      });
    }
  });

  it('knows no SIM changes: asked only for them, it asks nothing', async () => {
    const before = api.received.length;
    expect(telnyx.parts).toEqual({ line: true, sim: false });
    expect(await telnyx.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({ ok: true });
    expect(api.received.length).toBe(before);
  });

  it('a number it cannot look up (404, a Canadian number without access: 422) is an answer', async () => {
    for (const status of [404, 422]) {
      api.answer(() => ({
        status,
        json: { errors: [{ code: '10005', title: 'Resource not found', detail: 'Canadian number' }] },
      }));
      expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
        ok: true,
        line: { lineType: null, carrier: null, country: null, mcc: null, mnc: null },
      });
    }
    api.answer(() => ({
      status: 401,
      json: { errors: [{ code: '10009', title: 'Authentication failed' }] },
    }));
    expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
      ok: false,
      retryable: false,
      error: 'telnyx answered HTTP 401 (error 10009)',
    });
  });

  for (const fault of FAULTS) {
    it(`answers ${fault.name} as a failure`, async () => {
      api.answer(() => fault.answer);
      expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget())).toMatchObject({
        ok: false,
        retryable: fault.retryable,
      });
    });
  }

  it('gives up at the budget on a hang', async () => {
    api.answer(() => ({ hang: true }));
    expect(await telnyx.lookup(NUMBER, { line: true, sim: false }, budget(150))).toMatchObject({
      ok: false,
      error: 'telnyx did not answer in time',
    });
  });
});
