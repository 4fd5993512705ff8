import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestService } from '../../support/app.js';
import { eachStore } from '../../support/each-store.js';

const SEND = '/v1/contact/send-code';
const resource = (id: string) => `/v1/contact/verifications/${id}`;
const cancel = (id: string) => `/v1/contact/verifications/${id}/cancel`;

/**
 * The resource is scoped exactly as verify-code: a request of another account, of the key's other
 * mode or of a channel the key is not enabled for is 404 NOT_FOUND, as an unknown one, for a read
 * and for a cancel, which then changes nothing. Bad ids are a 4xx, never a 500.
 */
eachStore('verifications: scope and bad ids', (start) => {
  let svc: TestService;
  let key: string;
  let requestId: string;
  let smsPair: { email: string; sms: string };

  beforeAll(async () => {
    svc = await start();
    const account = await svc.post('/v1/admin/accounts', { name: 'Owner' }, ADMIN_TOKEN);
    key = await svc.createKey({ accountId: account.body.data.id });
    const sent = await svc.post(SEND, { channel: 'EMAIL', email: 'scope@example.com' }, key);
    requestId = sent.body.data.requestId;
    const dual = await svc.post(
      SEND,
      { channels: ['EMAIL', 'SMS'], email: 'pair@example.com', phone: '+14155550199' },
      key,
    );
    smsPair = { email: dual.body.data[0].requestId, sms: dual.body.data[1].requestId };
  });
  afterAll(() => svc.close());

  const expectNotFound = (res: { status: number; body: any }) => {
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  };
  const stillPending = async (id: string) =>
    expect((await svc.get(resource(id), key)).body.data.status).toBe('pending');

  describe('outside the key', () => {
    it("another account's key finds nothing, and cancels nothing", async () => {
      const other = await svc.post('/v1/admin/accounts', { name: 'Other' }, ADMIN_TOKEN);
      const otherKey = await svc.createKey({ accountId: other.body.data.id });
      expectNotFound(await svc.get(resource(requestId), otherKey));
      expectNotFound(await svc.post(cancel(requestId), undefined, otherKey));
      await stillPending(requestId);
    });

    it("the account's key of the other mode finds nothing, and cancels nothing", async () => {
      const owner = (await svc.get('/v1/admin/api-keys', ADMIN_TOKEN)).body.data.find(
        (k: { prefix: string }) => key.startsWith(k.prefix),
      );
      const testKey = await svc.createKey({ accountId: owner.accountId, test: true });
      expectNotFound(await svc.get(resource(requestId), testKey));
      expectNotFound(await svc.post(cancel(requestId), undefined, testKey));
      await stillPending(requestId);
    });

    it('a key not enabled for the channel finds nothing, and cancels nothing', async () => {
      const owner = (await svc.get('/v1/admin/api-keys', ADMIN_TOKEN)).body.data.find(
        (k: { prefix: string }) => key.startsWith(k.prefix),
      );
      const smsKey = await svc.createKey({ accountId: owner.accountId, channels: ['SMS'] });
      expectNotFound(await svc.get(resource(requestId), smsKey));
      expectNotFound(await svc.post(cancel(requestId), undefined, smsKey));
      await stillPending(requestId);
      // Its own channel's request of a pair it sees, with the sibling it is not enabled for named.
      const sms = await svc.get(resource(smsPair.sms), smsKey);
      expect(sms.status).toBe(200);
      expect(sms.body.data.siblingRequestId).toBe(smsPair.email);
      expectNotFound(await svc.get(resource(smsPair.email), smsKey));
    });

    it('no key, or a revoked one: 401', async () => {
      const res = await svc.get(resource(requestId));
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
      expect((await svc.post(cancel(requestId), undefined, 'cvk_live_nope')).status).toBe(401);
      await stillPending(requestId);
    });
  });

  describe('bad ids', () => {
    it('a malformed id: 400 VALIDATION_ERROR naming requestId', async () => {
      for (const id of [
        'abc',
        'not-a-uuid',
        '0190a7c2-5b1e-7c3d-9f00-2b4b4c11949',
        "1'%20OR%20'1'='1",
        '%00',
      ]) {
        for (const res of [await svc.get(resource(id), key), await svc.post(cancel(id), undefined, key)]) {
          expect(res.status, id).toBe(400);
          expect(res.body.error.code, id).toBe('VALIDATION_ERROR');
        }
      }
      const res = await svc.get(resource('abc'), key);
      expect(JSON.stringify(res.body.error.details)).toContain('requestId');
    });

    it('an over-long id: a 4xx in the error shape', async () => {
      for (const id of [`${requestId}0`, 'a'.repeat(99), 'a'.repeat(101), 'a'.repeat(5000)]) {
        for (const res of [await svc.get(resource(id), key), await svc.post(cancel(id), undefined, key)]) {
          expect(res.status, `${id.length} characters`).toBeGreaterThanOrEqual(400);
          expect(res.status, `${id.length} characters`).toBeLessThan(500);
          expect(typeof res.body.error.code).toBe('string');
        }
      }
    });

    it('an unknown id: 404, and an id in upper case names the same request', async () => {
      const unknown = '0190a7c2-5b1e-7c3d-9f00-2b4b4c119497';
      expectNotFound(await svc.get(resource(unknown), key));
      expectNotFound(await svc.post(cancel(unknown), undefined, key));
      const upper = await svc.get(resource(requestId.toUpperCase()), key);
      expect(upper.status).toBe(200);
      expect(upper.body.data.requestId).toBe(requestId);
    });
  });
});
