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
  DeliveryState,
  DeliveryType,
  FallbackReason,
  type FetchLike,
  InvalidRequestError,
  NetworkError,
  NoOutboxCodeError,
  NotFoundError,
  RateLimitError,
  ServerError,
  type SilentOutcome,
  TestOutbox,
  TooManyAttemptsError,
  type Verification,
  VerificationMethod,
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
    const method: VerificationMethod = VerificationMethod.LINK;
    assert.equal(method, 'link');
  });

  const RESOURCE = {
    requestId: ENTRY.requestId,
    channel: 'EMAIL',
    status: 'verified',
    to: 'j***@example.com',
    createdAt: '2030-01-01T00:00:00.000Z',
    expiresAt: '2030-01-01T00:10:00.000Z',
    attemptsRemaining: 4,
    verifiedAt: '2030-01-01T00:01:00.000Z',
    method: 'link',
    siblingRequestId: '0190a7c2-0000-7000-8000-000000000002',
    delivery: { status: 'delivered', provider: 'smtp', updatedAt: '2030-01-01T00:00:02.000Z' },
  };

  it('reads a verification as a resource', async () => {
    const s = scripted(200, { data: RESOURCE });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch });
    const v: Verification = await cv.getVerification(ENTRY.requestId);
    assert.deepEqual(v, RESOURCE);
    assert.equal(v.method, VerificationMethod.LINK);
    assert.equal(v.delivery.status, DeliveryState.DELIVERED);
    const [req] = s.seen;
    assert.equal(req?.url, `http://cv.test/v1/contact/verifications/${ENTRY.requestId}`);
    assert.equal(req?.method, 'GET');
    assert.equal(req?.body, undefined);
  });

  it('cancels with an empty object, the id as one path segment', async () => {
    const canceled = { ...RESOURCE, status: 'canceled', method: undefined, verifiedAt: undefined };
    const s = scripted(200, { data: canceled });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch });
    const v = await cv.cancelVerification('r/1');
    assert.equal(v.status, VerificationStatus.CANCELED);
    const [req] = s.seen;
    assert.equal(req?.url, 'http://cv.test/v1/contact/verifications/r%2F1/cancel');
    assert.equal(req?.method, 'POST');
    assert.deepEqual(req?.body, {});
    assert.equal(req?.headers.get('content-type'), 'application/json');
  });

  it('throws NotFoundError for an unknown id, at once', async () => {
    const s = scripted(404, { error: { code: 'NOT_FOUND', message: 'no such request' } });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch });
    await assert.rejects(cv.getVerification(ENTRY.requestId), NotFoundError);
    assert.equal(s.seen.length, 1);
  });

  it('sends link and fallback in the body, and reads a SILENT entry and check', async () => {
    const s = scripted(200, { data: ENTRY });
    const cv = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: s.fetch });
    await cv.sendCode({ channel: 'EMAIL', email: 'j@x.io', link: {} });
    await cv.sendCode({
      channel: 'EMAIL',
      email: 'j@x.io',
      link: { redirectUrl: 'https://app.example.com/in' },
    });
    assert.deepEqual(s.seen[0]?.body, { channel: 'EMAIL', email: 'j@x.io', link: {} });
    assert.deepEqual(s.seen[1]?.body, {
      channel: 'EMAIL',
      email: 'j@x.io',
      link: { redirectUrl: 'https://app.example.com/in' },
    });

    const silentEntry = {
      ...ENTRY,
      channel: 'SILENT',
      silent: { url: 'https://silent.test.invalid/check/abc' },
    };
    const silent = scripted(200, { data: silentEntry });
    const sc = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: silent.fetch });
    const entry = await sc.sendCode({ channel: Channel.SILENT, phone: '+447911123457', fallback: 'SMS' });
    assert.deepEqual(silent.seen[0]?.body, { channel: 'SILENT', phone: '+447911123457', fallback: 'SMS' });
    assert.equal(entry.silent?.url, 'https://silent.test.invalid/check/abc');

    const fallback = {
      requestId: '0190a7c2-0000-7000-8000-000000000003',
      channel: 'SMS',
      status: 'pending',
      reason: 'rejected',
      expiresAt: '2030-01-01T00:10:00.000Z',
    };
    const check = scripted(200, {
      data: {
        verified: false,
        channel: 'SILENT',
        requestId: ENTRY.requestId,
        status: 'pending',
        attemptsRemaining: 4,
        silent: { outcome: 'rejected', reason: 'another SIM' },
        fallback,
      },
    });
    const cc = new ContactVerify({ baseUrl: 'http://cv.test', apiKey: 'k', fetch: check.fetch });
    const result = await cc.verifyCode({ requestId: ENTRY.requestId });
    assert.deepEqual(check.seen[0]?.body, { requestId: ENTRY.requestId });
    const outcome: SilentOutcome | undefined = result.silent?.outcome;
    assert.equal(outcome, 'rejected');
    assert.equal(result.fallback?.reason, FallbackReason.REJECTED);
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
