import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalPhone, checkPhone } from '../../src/domain/phone.js';
import { ADMIN_TOKEN, type TestService } from '../support/app.js';
import { eachStore } from '../support/each-store.js';

const MOBILE = '+5491112345678';
const WITHOUT_NINE = '+541112345678';

describe('canonicalPhone', () => {
  const subscriber = (raw: string) => {
    const check = checkPhone(raw);
    if (!check.ok) throw new Error(`${raw}: ${check.message}`);
    return check.subscriber;
  };

  it("keys an Argentine mobile dialled without its 9 by the mobile's E.164 form", () => {
    expect(subscriber(WITHOUT_NINE)).toBe(MOBILE);
    expect(subscriber(MOBILE)).toBe(MOBILE);
    expect(subscriber('+54 351 412-3456')).toBe('+5493514123456');
    expect(subscriber('+54 9 351 412-3456')).toBe('+5493514123456');
  });

  it('leaves every other number as it is: toll-free and premium Argentine numbers, other countries', () => {
    expect(subscriber('+54 800 222 1234')).toBe('+548002221234');
    expect(subscriber('+14155552671')).toBe('+14155552671');
    expect(subscriber('+447400123456')).toBe('+447400123456');
    // Mexico dropped its mobile 1 in 2019: +521… is no valid number, so there is nothing to fold.
    expect(checkPhone('+5215512345678').ok).toBe(false);
    expect(canonicalPhone('+541112345678', 'MOBILE')).toBe('+541112345678');
  });
});

// Blocks, limits and contacts key the subscriber; the message goes to the number as given.
eachStore('an Argentine mobile with and without its 9', (start) => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    svc = await start({ RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '1000' });
    key = await svc.createKey({ channels: ['SMS', 'WHATSAPP'] });
  });
  afterAll(() => svc?.close());
  const send = (phone: string, channel = 'SMS') => svc.post('/v1/contact/send-code', { channel, phone }, key);
  const contacts = async (q: string) =>
    (await svc.get(`/v1/admin/contacts?accountId=acc_default&q=${encodeURIComponent(q)}`, ADMIN_TOKEN)).body
      .data as Array<{
      id: string;
      destination: string;
    }>;

  it('a block of +5491112345678 refuses +541112345678, and the contact is one', async () => {
    expect((await send(MOBILE)).status).toBe(200);
    const [contact] = await contacts(MOBILE);
    expect(contact?.destination).toBe(MOBILE);
    const blocked = await svc.post(
      `/v1/admin/contacts/${contact?.id}/block`,
      { reason: 'abuse' },
      ADMIN_TOKEN,
    );
    expect(blocked.body.data.blocked).toBe(true);
    for (const phone of [WITHOUT_NINE, '+54 11 1234-5678', MOBILE]) {
      for (const channel of ['SMS', 'WHATSAPP']) {
        const res = await send(phone, channel);
        expect(res.status, `${channel} ${phone}`).toBe(403);
        expect(res.body.error.code).toBe('CONTACT_BLOCKED');
      }
    }
    // Searching by either form finds the one contact.
    expect((await contacts(WITHOUT_NINE)).map((c) => c.destination)).toEqual([MOBILE]);
  });

  it('delivers to the number as given, keys it by the subscriber, and one live code holds for both forms', async () => {
    const given = '+543514123456';
    const first = await send(given);
    expect(first.status).toBe(200);
    expect((await svc.lastMessage(given)).to).toBe(given);
    const code = await svc.lastCode(given);
    // The other form of the number supersedes the pending code (one live code per destination).
    expect((await send('+5493514123456')).status).toBe(200);
    const late = await svc.post(
      '/v1/contact/verify-code',
      { requestId: first.body.data.requestId, code },
      key,
    );
    expect(late.body.data).toMatchObject({ verified: false, status: 'canceled' });
    const [contact] = await contacts('+5493514123456');
    const profile = (await svc.get(`/v1/admin/contacts/${contact?.id}`, ADMIN_TOKEN)).body.data;
    expect(profile.destination).toBe('+5493514123456');
    expect([...profile.addressesSeen].sort()).toEqual(['+543514123456', '+5493514123456']);
  });
});
