import { generateKeyPairSync, verify } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityInsightsLookup } from '../../../../src/lookup/providers/vonage/identity-insights.js';
import { privateKeyOf, VonageJwt } from '../../../../src/lookup/providers/vonage/vonage-jwt.js';
import { budget, FAULTS, type FakeLookupApi, startFakeLookupApi } from '../../support/fake-lookup-api.js';

// Vonage Identity Insights, answered as its API reference, its guides (original carrier, current
// carrier, SIM swap, using multiple insights) and Vonage's Python SDK models document it.

const APP_ID = 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab';
const NUMBER = '+447009000000';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const ok = { code: 'OK', message: 'Success' };
const answerOf = (insights: Record<string, unknown>) => ({
  request_id: 'aaaaaaaa-bbbb-cccc-dddd-0123456789ab',
  insights,
});
const carrier = (over: Record<string, unknown> = {}) => ({
  name: 'Telefonica UK Limited',
  network_type: 'MOBILE',
  country_code: 'GB',
  network_code: '23410',
  status: ok,
  ...over,
});

describe('Vonage Identity Insights (POST /identity-insights/v1/requests)', () => {
  let api: FakeLookupApi;
  let vonage: IdentityInsightsLookup;
  let now = Date.UTC(2026, 0, 15);
  beforeAll(async () => {
    api = await startFakeLookupApi(() => ({ json: answerOf({}) }));
    vonage = new IdentityInsightsLookup({
      baseUrl: api.url,
      jwt: new VonageJwt(APP_ID, privateKeyOf(PEM), () => now),
      purpose: 'FraudPreventionAndDetection',
      simSwapWindowHours: 240,
    });
  });
  afterAll(() => api.close());

  it('asks the carrier and SIM swap insights with a signed JWT and normalises the answer', async () => {
    api.answer(() => ({
      json: answerOf({
        original_carrier: carrier({ name: 'O2 UK' }),
        current_carrier: carrier(),
        sim_swap: { latest_sim_swap_at: '2024-07-08T09:30:27.504Z', is_swapped: true, status: ok },
      }),
    }));
    expect(await vonage.lookup(NUMBER, { line: true, sim: true }, budget())).toEqual({
      ok: true,
      line: { lineType: 'mobile', carrier: 'Telefonica UK Limited', country: 'GB', mcc: '234', mnc: '10' },
      sim: { lastSimChange: { at: Date.parse('2024-07-08T09:30:27.504Z') } },
    });
    const r = api.received.at(-1)!;
    expect(r.method).toBe('POST');
    expect(r.path).toBe('/identity-insights/v1/requests');
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({
      phone_number: '447009000000',
      purpose: 'FraudPreventionAndDetection',
      insights: { original_carrier: {}, current_carrier: {}, sim_swap: { period: 240 } },
    });
    const jwt = String(r.headers.authorization).replace(/^Bearer /, '');
    const [header, payload, signature] = jwt.split('.') as [string, string, string];
    expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT' });
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    expect(claims).toMatchObject({ application_id: APP_ID, iat: now / 1000, exp: now / 1000 + 900 });
    expect(
      verify(
        'RSA-SHA256',
        Buffer.from(`${header}.${payload}`),
        publicKey,
        Buffer.from(signature, 'base64url'),
      ),
    ).toBe(true);
  });

  it('reuses a JWT for half its lifetime, then signs a new one', async () => {
    api.answer(() => ({ json: answerOf({ original_carrier: carrier(), current_carrier: carrier() }) }));
    await vonage.lookup(NUMBER, { line: true, sim: false }, budget());
    const first = api.received.at(-1)!.headers.authorization;
    now += 60_000;
    await vonage.lookup(NUMBER, { line: true, sim: false }, budget());
    expect(api.received.at(-1)!.headers.authorization).toBe(first);
    now += 450_000;
    await vonage.lookup(NUMBER, { line: true, sim: false }, budget());
    expect(api.received.at(-1)!.headers.authorization).not.toBe(first);
  });

  it("reads the original carrier's network types, in either spelling", async () => {
    const cases: Array<[string, string | null]> = [
      ['MOBILE', 'mobile'],
      ['LANDLINE', 'landline'],
      ['landline_premium', 'premium'],
      ['LANDLINE_TOLLFREE', 'tollFree'],
      ['VIRTUAL', 'voip'],
      ['pager', 'other'],
      ['UNKNOWN', null],
      ['SATELLITE', 'other'],
    ];
    for (const [networkType, lineType] of cases) {
      api.answer(() => ({
        json: answerOf({
          original_carrier: carrier({ network_type: networkType }),
          // Applicable to mobile numbers only.
          current_carrier: { status: { code: 'UNSUPPORTED_NETWORK_TYPE', message: 'Not a mobile number' } },
        }),
      }));
      expect(await vonage.lookup(NUMBER, { line: true, sim: false }, budget())).toMatchObject({
        ok: true,
        line: { lineType },
      });
    }
  });

  it('reads a SIM swap answered only as is_swapped within the period', async () => {
    api.answer(() => ({ json: answerOf({ sim_swap: { is_swapped: false, status: ok } }) }));
    expect(await vonage.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: { withinHours: 240, changed: false } },
    });
    expect(JSON.parse(api.received.at(-1)!.body).insights).toEqual({ sim_swap: { period: 240 } });
  });

  it('an insight that does not know the number (NOT_FOUND, NO_COVERAGE …) is an answer; SUPPLIER_ERROR and UNAUTHORIZED fail', async () => {
    api.answer(() => ({
      json: answerOf({
        original_carrier: { status: { code: 'NOT_FOUND', message: 'Not found' } },
        current_carrier: { status: { code: 'NOT_FOUND' } },
        sim_swap: { status: { code: 'NO_COVERAGE', message: 'Not supported' } },
      }),
    }));
    expect(await vonage.lookup(NUMBER, { line: true, sim: true }, budget())).toEqual({
      ok: true,
      line: { lineType: null, carrier: null, country: null, mcc: null, mnc: null },
      sim: { lastSimChange: null },
    });
    api.answer(() => ({
      json: answerOf({
        original_carrier: carrier(),
        sim_swap: { status: { code: 'SUPPLIER_ERROR', message: 'Supplier failed' } },
      }),
    }));
    expect(await vonage.lookup(NUMBER, { line: true, sim: true }, budget())).toEqual({
      ok: false,
      retryable: true,
      error: 'vonage answered SUPPLIER_ERROR for the sim_swap insight',
    });
    api.answer(() => ({ json: answerOf({ sim_swap: { status: { code: 'UNAUTHORIZED' } } }) }));
    expect(await vonage.lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({
      ok: false,
      retryable: false,
    });
  });

  it('reads a problem+json error by its title', async () => {
    api.answer(() => ({
      status: 401,
      contentType: 'application/problem+json',
      json: {
        type: 'https://developer.vonage.com/api-errors#unauthorized',
        title: 'Unauthorized',
        detail: 'Invalid JWT',
        instance: 'x',
      },
    }));
    expect(await vonage.lookup(NUMBER, { line: true, sim: false }, budget())).toEqual({
      ok: false,
      retryable: false,
      error: 'vonage answered HTTP 401 (Unauthorized)',
    });
  });

  for (const fault of FAULTS) {
    it(`answers ${fault.name} as a failure`, async () => {
      api.answer(() => fault.answer);
      expect(await vonage.lookup(NUMBER, { line: true, sim: true }, budget())).toMatchObject({
        ok: false,
        retryable: fault.retryable,
      });
    });
  }

  it('gives up at the budget on a hang', async () => {
    api.answer(() => ({ hang: true }));
    expect(await vonage.lookup(NUMBER, { line: true, sim: true }, budget(150))).toMatchObject({
      ok: false,
      error: 'vonage did not answer in time',
    });
  });

  it('takes the private key with its line breaks written out', () => {
    expect(() => privateKeyOf(PEM.replace(/\n/g, '\\n'))).not.toThrow();
    expect(() => privateKeyOf('not a key')).toThrow();
  });
});
