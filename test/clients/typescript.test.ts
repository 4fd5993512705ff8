import { describe, expect, it } from 'vitest';
import { ContactVerify, ContactVerifyError, VERSION } from '../../clients/typescript/src/index.js';

/**
 * The TypeScript client's retry rules and typed error, against a scripted `fetch` (the shared
 * scenario in clients.test.ts runs it against the real service).
 */

type Answer = [status: number, retryAfter: string | null, body: unknown];

const SENT = {
  data: {
    requestId: '0190a7c2-0000-7000-8000-000000000001',
    channel: 'EMAIL',
    status: 'pending',
    expiresAt: '2030-01-01T00:00:00.000Z',
    to: 'j***@example.com',
  },
};
const failure = (code: string) => ({
  error: { code, message: 'scripted', details: [{ field: 'email', message: 'm' }] },
});

/** A client whose fetch answers in order (the last answer again once they run out). */
function scripted(...answers: Answer[]) {
  const requests: Headers[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    requests.push(new Headers(init?.headers));
    const [status, retryAfter, body] = (answers.length > 1 ? answers.shift() : answers[0]) as Answer;
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: {
        'content-type': 'application/json',
        ...(retryAfter === null ? {} : { 'retry-after': retryAfter }),
      },
    });
  };
  const client = new ContactVerify({ baseUrl: 'http://cv.test/', apiKey: 'cvk_test_key', fetch });
  return { client, requests };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('the call succeeded'),
    (err: unknown) => {
      expect(err).toBeInstanceOf(ContactVerifyError);
      return err as ContactVerifyError;
    },
  );

describe('the TypeScript client', () => {
  it('retries a 503 at most maxRetries times (default 2, or per call)', async () => {
    let s = scripted([503, '0', failure('UNAVAILABLE')]);
    const err = await caught(s.client.health());
    expect([err.status, err.code]).toEqual([503, 'UNAVAILABLE']);
    expect(s.requests).toHaveLength(3);
    s = scripted([503, '0', failure('UNAVAILABLE')]);
    await caught(s.client.health({ maxRetries: 0 }));
    expect(s.requests).toHaveLength(1);
  });

  it('never retries 503 CHANNEL_UNAVAILABLE: only the operator can give the channel a provider', async () => {
    const s = scripted([503, null, failure('CHANNEL_UNAVAILABLE')]);
    const err = await caught(s.client.health());
    expect([err.status, err.code]).toEqual([503, 'CHANNEL_UNAVAILABLE']);
    expect(s.requests).toHaveLength(1);
  });

  it('backs off on a 503 without Retry-After', async () => {
    const s = scripted([503, null, '<html>proxy</html>'], [200, null, { status: 'ok' }]);
    const started = performance.now();
    expect((await s.client.health()).status).toBe('ok');
    expect(performance.now() - started).toBeGreaterThanOrEqual(200);
    expect(s.requests).toHaveLength(2);
  });

  it('retries RATE_LIMITED only with a Retry-After of at most 10 s', async () => {
    let s = scripted([429, '0', failure('RATE_LIMITED')], [200, null, SENT]);
    expect((await s.client.sendCode({ channel: 'EMAIL', email: 'j@x.io' })).requestId).toBe(
      SENT.data.requestId,
    );
    expect(s.requests).toHaveLength(2);
    for (const retryAfter of [null, '11']) {
      s = scripted([429, retryAfter, failure('RATE_LIMITED')]);
      const err = await caught(s.client.sendCode({ channel: 'EMAIL', email: 'j@x.io' }));
      expect([err.code, err.retryAfter]).toEqual(['RATE_LIMITED', retryAfter === null ? null : 11]);
      expect(s.requests).toHaveLength(1);
    }
  });

  it.each([
    [429, 'TOO_MANY_ATTEMPTS'],
    [401, 'UNAUTHORIZED'],
    [400, 'VALIDATION_ERROR'],
    [404, 'NOT_FOUND'],
  ])('never retries %i %s, and carries its code, message and details', async (status, code) => {
    const s = scripted([status, '0', failure(code)]);
    const err = await caught(s.client.verifyCode({ requestId: SENT.data.requestId, otpCode: '123456' }));
    expect([err.status, err.code, err.message, err.details]).toEqual([
      status,
      code,
      'scripted',
      [{ field: 'email', message: 'm' }],
    ]);
    expect(s.requests).toHaveLength(1);
  });

  it('sends one Idempotency-Key per send, the same on each of its retries', async () => {
    let s = scripted(
      [503, '0', failure('UNAVAILABLE')],
      [503, '0', failure('UNAVAILABLE')],
      [200, null, SENT],
    );
    await s.client.sendCode({ channel: 'EMAIL', email: 'j@x.io' });
    await s.client.sendCode({ channel: 'EMAIL', email: 'j@x.io' });
    const keys = s.requests.map((h) => h.get('idempotency-key'));
    expect(keys).toHaveLength(4);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
    s = scripted([200, null, SENT]);
    await s.client.sendCode({ channel: 'EMAIL', email: 'j@x.io' }, { idempotencyKey: 'order-42' });
    expect(s.requests[0]?.get('idempotency-key')).toBe('order-42');
  });

  it('retries a lost read or cancel of a verification (a cancel is idempotent), never its NOT_FOUND', async () => {
    const resource = { data: { ...SENT.data, status: 'canceled', createdAt: SENT.data.expiresAt } };
    let s = scripted([503, '0', failure('UNAVAILABLE')], [200, null, resource]);
    expect((await s.client.cancelVerification(SENT.data.requestId)).status).toBe('canceled');
    expect(s.requests).toHaveLength(2);
    s = scripted([404, null, failure('NOT_FOUND')]);
    const err = await caught(s.client.getVerification(SENT.data.requestId));
    expect([err.status, err.code]).toEqual([404, 'NOT_FOUND']);
    expect(s.requests).toHaveLength(1);
  });

  it('names itself in the user agent and sends the key', async () => {
    const s = scripted([200, null, { status: 'ok' }]);
    await s.client.health();
    expect(s.requests[0]?.get('user-agent')).toBe(`contact-verify-node/${VERSION}`);
    expect(s.requests[0]?.get('authorization')).toBe('Bearer cvk_test_key');
  });
});
