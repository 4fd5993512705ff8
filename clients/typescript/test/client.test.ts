/**
 * The library against a scripted `fetch` (injected as a newcomer would inject their own): every
 * send option reaches the body, the caller's idempotency key the header, each error its class with
 * `retryAfter`, and the test helper reads the newest outbox item's code. The retry rules are in
 * test/clients/typescript.test.ts of the repository; the real service runs the scenario.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthenticationError,
  Channel,
  ContactVerify,
  ContactVerifyError,
  DeliveryType,
  type FetchLike,
  InvalidRequestError,
  NetworkError,
  NoOutboxCodeError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TestOutbox,
  TooManyAttemptsError,
  VerificationStatus,
} from '../src/index.js';

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A fetch that answers `status` with `body` (and `Retry-After` when given), recording requests. */
function scripted(status: number, body: unknown, retryAfter?: string) {
  const seen: Seen[] = [];
  const fetch: FetchLike = async (url, init) => {
    seen.push({
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    });
    return new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
    });
  };
  return { seen, fetch };
}

const ENTRY = {
  requestId: '0190a7c2-0000-7000-8000-000000000001',
  channel: 'WHATSAPP',
  status: 'pending',
  expiresAt: '2030-01-01T00:00:00.000Z',
  to: '+33*****89',
  deliveryType: 'CALL',
};

describe('the TypeScript client', () => {
  it('sends every option of the API in the body and the caller idempotency key as the header', async () => {
    const s = scripted(200, { data: ENTRY });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test/', apiKey: 'cvk_test_k', fetch: s.fetch });
    const entry = await cv.sendCode(
      {
        channel: Channel.WHATSAPP,
        phone: '+33612345678',
        country: 'FR',
        deliveryType: DeliveryType.CALL,
        purpose: 'sign-in',
        customMessage: 'Welcome back',
        locale: 'fr-FR',
      },
      { idempotencyKey: 'order-42' },
    );
    assert.equal(entry.deliveryType, 'CALL');
    const [req] = s.seen;
    assert.equal(req?.url, 'http://cv.test/v1/contact/send-code');
    assert.equal(req?.method, 'POST');
    assert.deepEqual(req?.body, {
      channel: 'WHATSAPP',
      phone: '+33612345678',
      country: 'FR',
      deliveryType: 'CALL',
      purpose: 'sign-in',
      customMessage: 'Welcome back',
      locale: 'fr-FR',
    });
    assert.equal(req?.headers.get('idempotency-key'), 'order-42');
    assert.equal(req?.headers.get('authorization'), 'Bearer cvk_test_k');
  });

  it('answers a dual send with one entry per channel, in order', async () => {
    const both = [
      { ...ENTRY, channel: 'EMAIL' },
      { ...ENTRY, channel: 'SMS' },
    ];
    const s = scripted(200, { data: both });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch });
    const entries = await cv.sendCode({ channels: ['EMAIL', 'SMS'], email: 'j@x.io', phone: '+14155552671' });
    assert.deepEqual(
      entries.map((e) => e.channel),
      ['EMAIL', 'SMS'],
    );
  });

  const cases: Array<[number, string, string | undefined, new (...a: never[]) => ContactVerifyError]> = [
    [400, 'VALIDATION_ERROR', undefined, InvalidRequestError],
    [401, 'UNAUTHORIZED', undefined, AuthenticationError],
    [404, 'NOT_FOUND', undefined, NotFoundError],
    [429, 'RATE_LIMITED', '27', RateLimitError],
    [429, 'TOO_MANY_ATTEMPTS', undefined, TooManyAttemptsError],
    [503, 'CHANNEL_UNAVAILABLE', undefined, ServerError],
    [403, 'CHANNEL_NOT_ENABLED', undefined, ContactVerifyError],
  ];
  for (const [status, code, retryAfter, Kind] of cases) {
    it(`throws ${Kind.name} for ${status} ${code}, with the body's details and Retry-After`, async () => {
      const details = [{ field: 'email', message: 'm' }];
      const s = scripted(status, { error: { code, message: 'scripted', details } }, retryAfter);
      const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch, maxRetries: 0 });
      const err = await cv.verifyCode({ requestId: ENTRY.requestId, otpCode: '123456' }).then(
        () => assert.fail('the call succeeded'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof Kind, `${String(err)} is a ${Kind.name}`);
      assert.ok(err instanceof ContactVerifyError);
      assert.deepEqual(
        [err.status, err.code, err.message, err.details, err.retryAfter],
        [status, code, 'scripted', details, retryAfter ? Number(retryAfter) : null],
      );
    });
  }

  it('throws NetworkError (status 0) when no answer comes', async () => {
    const cv = new ContactVerify({
      baseUrl: 'http://cv.test',
      apiKey: 'k',
      maxRetries: 0,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const err = await cv.health().then(
      () => assert.fail('the call succeeded'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof NetworkError);
    assert.deepEqual([err.status, err.code], [0, 'NETWORK_ERROR']);
  });

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const cv = new ContactVerify({
      baseUrl: 'http://cv.test',
      apiKey: 'k',
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
        ),
    });
    const call = cv.health({ signal: controller.signal });
    controller.abort(new Error('the user left'));
    await assert.rejects(call, /the user left/);
  });

  it('offers its enums as values and as types', () => {
    const status: VerificationStatus = VerificationStatus.VERIFIED;
    assert.equal(status, 'verified');
    assert.deepEqual(Object.values(Channel), ['EMAIL', 'SMS', 'WHATSAPP', 'VOICE', 'SILENT']);
  });
});

describe('the test helper', () => {
  const message = (code?: string) => ({
    id: 'msg_1',
    accountId: 'acc_1',
    requestId: ENTRY.requestId,
    channel: 'EMAIL',
    to: 'jane@example.com',
    text: 'Your code is 042817',
    createdAt: '2030-01-01T00:00:00.000Z',
    ...(code ? { code } : {}),
  });

  it('reads the code of the newest outbox item to an address, with the admin token', async () => {
    const s = scripted(200, { data: [message('042817')] });
    const outbox = new TestOutbox({ baseUrl: 'http://cv.test/', adminToken: 'admin-secret', fetch: s.fetch });
    assert.equal(await outbox.latestOutboxCode('jane+1@example.com'), '042817');
    assert.equal(s.seen[0]?.url, 'http://cv.test/v1/admin/outbox?to=jane%2B1%40example.com&limit=1');
    assert.equal(s.seen[0]?.headers.get('authorization'), 'Bearer admin-secret');
  });

  it('throws NoOutboxCodeError when there is no message, or the newest carries no code', async () => {
    for (const data of [[], [message()]]) {
      const outbox = new TestOutbox({
        baseUrl: 'http://cv.test',
        adminToken: 'a',
        fetch: scripted(200, { data }).fetch,
      });
      await assert.rejects(outbox.latestOutboxCode('jane@example.com'), NoOutboxCodeError);
    }
  });

  it('throws the typed error of a refused admin call', async () => {
    const s = scripted(401, { error: { code: 'UNAUTHORIZED', message: 'wrong admin token' } });
    const outbox = new TestOutbox({ baseUrl: 'http://cv.test', adminToken: 'a', fetch: s.fetch });
    await assert.rejects(outbox.latestOutboxCode('jane@example.com'), AuthenticationError);
  });
});
