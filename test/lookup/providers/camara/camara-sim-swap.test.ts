import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../src/domain/clock.js';
import { CamaraSimSwap } from '../../../../src/lookup/providers/camara/camara-sim-swap.js';
import { ClientCredentialsToken } from '../../../../src/lookup/providers/camara/oauth.js';
import {
  budget,
  FAULTS,
  type FakeAnswer,
  type FakeLookupApi,
  type Received,
  startFakeLookupApi,
} from '../../support/fake-lookup-api.js';

// The CAMARA SIM Swap API (camaraproject/SimSwap, sim-swap.yaml v2) behind an OAuth 2.0 token
// endpoint (client credentials, RFC 6749 §4.4), both answered as documented.

const NUMBER = '+346661113334';
const tokenAnswer = (expiresIn = 3600): FakeAnswer => ({
  json: {
    access_token: `at-${Math.random().toString(36).slice(2)}`,
    token_type: 'Bearer',
    expires_in: expiresIn,
  },
});

describe('CAMARA SIM Swap (POST /sim-swap/v2/retrieve-date and /check, client credentials)', () => {
  let api: FakeLookupApi;
  const clock = new ManualClock(Date.UTC(2026, 0, 15));
  let api2: (r: Received) => FakeAnswer;
  const make = (operation: 'retrieve-date' | 'check' = 'retrieve-date') =>
    new CamaraSimSwap({
      apiUrl: `${api.url}/sim-swap/v2`,
      operation,
      maxAgeHours: 240,
      token: new ClientCredentialsToken(
        'camara',
        {
          tokenUrl: `${api.url}/oauth/token`,
          clientId: 'client id',
          clientSecret: 's3cret',
          scope: `sim-swap:${operation}`,
        },
        clock,
      ),
    });
  beforeAll(async () => {
    api2 = () => ({ json: { latestSimChange: '2024-09-18T07:37:53.471829447Z' } });
    api = await startFakeLookupApi((r) => (r.path === '/oauth/token' ? tokenAnswer() : api2(r)));
  });
  afterAll(() => api.close());
  const answering = (fn: (r: Received) => FakeAnswer) => {
    api2 = fn;
  };

  it('gets a token with client credentials, then retrieves the date of the last SIM change', async () => {
    answering(() => ({ json: { latestSimChange: '2024-09-18T07:37:53.471829447Z' } }));
    const camara = make();
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: { at: Date.parse('2024-09-18T07:37:53.471Z') } },
    });
    const [token, call] = api.received.slice(-2) as [Received, Received];
    expect(token.method).toBe('POST');
    expect(token.path).toBe('/oauth/token');
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from('client%20id:s3cret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(token.body))).toEqual({
      grant_type: 'client_credentials',
      scope: 'sim-swap:retrieve-date',
    });
    expect(call.path).toBe('/sim-swap/v2/retrieve-date');
    expect(call.headers.authorization).toMatch(/^Bearer at-/);
    expect(call.headers['x-correlator']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(call.body)).toEqual({ phoneNumber: NUMBER });
  });

  it('keeps the token until shortly before it expires, and forgets one the API refused', async () => {
    const camara = make();
    const tokens = () => api.received.filter((r) => r.path === '/oauth/token').length;
    const before = tokens();
    await camara.lookup(NUMBER, { line: false, sim: true }, budget());
    await camara.lookup(NUMBER, { line: false, sim: true }, budget());
    expect(tokens()).toBe(before + 1);
    clock.advance(3600_000 - 29_000);
    await camara.lookup(NUMBER, { line: false, sim: true }, budget());
    expect(tokens()).toBe(before + 2);
    answering(() => ({ status: 401, json: { status: 401, code: 'UNAUTHENTICATED', message: 'expired' } }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({
      ok: false,
      retryable: false,
    });
    answering(() => ({ json: { latestSimChange: null } }));
    await camara.lookup(NUMBER, { line: false, sim: true }, budget());
    expect(tokens()).toBe(before + 3);
  });

  it('one token request serves lookups that start together', async () => {
    const camara = make();
    const before = api.received.filter((r) => r.path === '/oauth/token').length;
    await Promise.all([1, 2, 3, 4].map(() => camara.lookup(NUMBER, { line: false, sim: true }, budget())));
    expect(api.received.filter((r) => r.path === '/oauth/token').length).toBe(before + 1);
  });

  it('reads a null date, with and without a monitored period', async () => {
    const camara = make();
    answering(() => ({ json: { latestSimChange: null, monitoredPeriod: 120 } }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: { withinHours: 2880, changed: false } },
    });
    answering(() => ({ json: { latestSimChange: null } }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: null },
    });
  });

  it('check asks whether it changed within maxAge', async () => {
    const camara = make('check');
    answering(() => ({ json: { swapped: true } }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: true,
      sim: { lastSimChange: { withinHours: 240, changed: true } },
    });
    const call = api.received.at(-1)!;
    expect(call.path).toBe('/sim-swap/v2/check');
    expect(JSON.parse(call.body)).toEqual({ phoneNumber: NUMBER, maxAge: 240 });
    expect(new URLSearchParams(api.received.at(-2)!.body).get('scope')).toBe('sim-swap:check');
  });

  it('a number the operator cannot tell of (404 IDENTIFIER_NOT_FOUND, 422 SERVICE_NOT_APPLICABLE) is an answer', async () => {
    const camara = make();
    for (const [status, code] of [
      [404, 'IDENTIFIER_NOT_FOUND'],
      [422, 'SERVICE_NOT_APPLICABLE'],
    ] as const) {
      answering(() => ({ status, json: { status, code, message: 'n/a' } }));
      expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
        ok: true,
        sim: { lastSimChange: null },
      });
    }
    answering(() => ({
      status: 400,
      json: {
        status: 400,
        code: 'OUT_OF_RANGE',
        message: 'Check monitor period could not exceed local regulations (30 days)',
      },
    }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: false,
      retryable: false,
      error: 'camara answered HTTP 400 (OUT_OF_RANGE)',
    });
    answering(() => ({ status: 429, json: { status: 429, code: 'QUOTA_EXCEEDED', message: 'quota' } }));
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({
      ok: false,
      retryable: true,
    });
  });

  it("a token endpoint's refusal, and its answer without a token, fail the lookup", async () => {
    const camara = make();
    const server = api;
    server.answer((r) =>
      r.path === '/oauth/token' ? { status: 401, json: { error: 'invalid_client' } } : api2(r),
    );
    expect(await camara.lookup(NUMBER, { line: false, sim: true }, budget())).toEqual({
      ok: false,
      retryable: false,
      error: 'camara answered HTTP 401 (invalid_client) at its token endpoint',
    });
    server.answer((r) => (r.path === '/oauth/token' ? { json: { token_type: 'Bearer' } } : api2(r)));
    expect(await make().lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({
      ok: false,
      retryable: true,
    });
    server.answer((r) => (r.path === '/oauth/token' ? tokenAnswer() : api2(r)));
  });

  for (const fault of FAULTS) {
    it(`answers ${fault.name} of the API as a failure, and of the token endpoint too`, async () => {
      answering(() => fault.answer);
      expect(await make().lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({
        ok: false,
        retryable: fault.retryable,
      });
      api.answer(() => fault.answer);
      expect(await make().lookup(NUMBER, { line: false, sim: true }, budget())).toMatchObject({ ok: false });
      api.answer((r) => (r.path === '/oauth/token' ? tokenAnswer() : api2(r)));
    });
  }

  it('a hanging token endpoint is bounded by the same budget', async () => {
    api.answer((r) => (r.path === '/oauth/token' ? { hang: true } : api2(r)));
    const started = performance.now();
    expect(await make().lookup(NUMBER, { line: false, sim: true }, budget(150))).toMatchObject({
      ok: false,
      error: 'camara did not answer in time (token endpoint)',
    });
    expect(performance.now() - started).toBeLessThan(2000);
    api.answer((r) => (r.path === '/oauth/token' ? tokenAnswer() : api2(r)));
  });
});
