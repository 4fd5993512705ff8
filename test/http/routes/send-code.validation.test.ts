import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/app.js';

const SEND = '/v1/contact/send-code';

describe('send-code validation', () => {
  let svc: TestService;
  let key: string;
  beforeAll(async () => {
    // No cooldown: many tests send to the same destinations.
    svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0', SENDS_PER_DESTINATION_PER_HOUR: '1000' });
    key = await svc.createKey();
  });
  afterAll(() => svc.close());

  const send = (body: unknown) => svc.post(SEND, body, key);
  const fields = (res: { body: any }) =>
    (res.body.error.details ?? []).map((d: { field: string }) => d.field);

  async function expectInvalid(body: unknown, expectedFields: string[]) {
    const res = await send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(fields(res)).toEqual(expectedFields);
    for (const d of res.body.error.details) expect(d.message.length).toBeGreaterThan(5);
    return res;
  }

  it('needs exactly one of channel and channels', async () => {
    await expectInvalid({ email: 'a@example.com' }, ['channel']);
    await expectInvalid(
      { channel: 'EMAIL', channels: ['EMAIL', 'SMS'], email: 'a@example.com', phone: '+14155552671' },
      ['channel'],
    );
  });

  it('takes only the three channel values', async () => {
    await expectInvalid({ channel: 'FAX' }, ['channel']);
    await expectInvalid({ channel: 'email', email: 'a@example.com' }, ['channel']);
    await expectInvalid({ channels: ['EMAIL', 'PIGEON'], email: 'a@example.com' }, ['channels[1]']);
  });

  it('needs exactly two different channels in dual mode', async () => {
    await expectInvalid({ channels: ['EMAIL'], email: 'a@example.com' }, ['channels']);
    await expectInvalid(
      { channels: ['EMAIL', 'SMS', 'WHATSAPP'], email: 'a@example.com', phone: '+14155552671' },
      ['channels'],
    );
    await expectInvalid({ channels: ['SMS', 'SMS'], phone: '+14155552671' }, ['channels']);
    await expectInvalid({ channels: 'EMAIL,SMS' }, ['channels']);
  });

  it('needs a valid email of at most 254 characters when EMAIL is used', async () => {
    await expectInvalid({ channel: 'EMAIL' }, ['email']);
    await expectInvalid({ channel: 'EMAIL', email: 'not-an-email' }, ['email']);
    await expectInvalid({ channel: 'EMAIL', email: `${'a'.repeat(250)}@example.com` }, ['email']);
    await expectInvalid({ channel: 'EMAIL', email: 42 }, ['email']);
  });

  it('needs a phone in + international form, valid for its country, when SMS or WHATSAPP is used', async () => {
    await expectInvalid({ channel: 'SMS' }, ['phone']);
    await expectInvalid({ channel: 'WHATSAPP', phone: '4155552671' }, ['phone']);
    await expectInvalid({ channel: 'SMS', phone: '+1415' }, ['phone']);
    await expectInvalid({ channel: 'SMS', phone: '+99912345678' }, ['phone']);
    await expectInvalid({ channels: ['EMAIL', 'SMS'], email: 'a@example.com' }, ['phone']);
  });

  it('accepts the three phone field names, and they must agree', async () => {
    for (const name of ['phone', 'whatsappNumber', 'phoneNumber']) {
      const res = await send({ channel: 'WHATSAPP', [name]: '+447400123456' });
      expect(res.status, name).toBe(200);
    }
    const agree = await send({ channel: 'SMS', phone: '+447400123456', phoneNumber: '+44 7400 123456' });
    expect(agree.status).toBe(200);
    await expectInvalid({ channel: 'SMS', phone: '+447400123456', whatsappNumber: '+447400123457' }, [
      'whatsappNumber',
    ]);
  });

  it('checks country in any case against the number, and infers it when omitted', async () => {
    expect((await send({ channel: 'SMS', phone: '+14155552671', country: 'us' })).status).toBe(200);
    // +1 is shared: a Canadian number is not a US one.
    await expectInvalid({ channel: 'SMS', phone: '+16135550123', country: 'US' }, ['country']);
    expect((await send({ channel: 'SMS', phone: '+16135550123', country: 'CA' })).status).toBe(200);
    await expectInvalid({ channel: 'SMS', phone: '+14155552671', country: 'USA' }, ['country']);
    await expectInvalid({ channel: 'SMS', phone: '+14155552671', country: 'XX' }, ['country']);
    await expectInvalid({ channel: 'SMS', phone: '+14155552671', country: 'GB' }, ['country']);
  });

  it('takes deliveryType TEXT or CALL, CALL only with WHATSAPP; a WHATSAPP CALL answers 200 pending like any send', async () => {
    await expectInvalid({ channel: 'WHATSAPP', phone: '+14155552671', deliveryType: 'VIDEO' }, [
      'deliveryType',
    ]);
    await expectInvalid({ channel: 'SMS', phone: '+14155552671', deliveryType: 'CALL' }, ['deliveryType']);
    await expectInvalid({ channel: 'VOICE', phone: '+14155552671', deliveryType: 'CALL' }, ['deliveryType']);
    const call = await send({ channel: 'WHATSAPP', phone: '+14155552671', deliveryType: 'CALL' });
    expect(call.status).toBe(200);
    expect(call.body.data).toMatchObject({ channel: 'WHATSAPP', status: 'pending', deliveryType: 'CALL' });
    const dual = await send({ channels: ['SMS', 'WHATSAPP'], phone: '+14155552672', deliveryType: 'CALL' });
    expect(dual.status).toBe(200);
    expect(dual.body.data[1]).toMatchObject({ channel: 'WHATSAPP', status: 'pending', deliveryType: 'CALL' });
    expect(dual.body.data[1].error).toBeUndefined();
    expect((await send({ channel: 'WHATSAPP', phone: '+14155552673', deliveryType: 'TEXT' })).status).toBe(
      200,
    );
  });

  it('limits purpose to 100 and customMessage to 500 characters', async () => {
    await expectInvalid({ channel: 'EMAIL', email: 'a@example.com', purpose: 'p'.repeat(101) }, ['purpose']);
    await expectInvalid({ channel: 'EMAIL', email: 'a@example.com', customMessage: 'm'.repeat(501) }, [
      'customMessage',
    ]);
    const ok = await send({
      channel: 'EMAIL',
      email: 'a@example.com',
      purpose: 'p'.repeat(100),
      customMessage: 'm'.repeat(500),
    });
    expect(ok.status).toBe(200);
  });

  it('reports every problem at once, one detail each', async () => {
    await expectInvalid(
      { channel: 'EMAIL', email: 'nope', purpose: 'p'.repeat(101), customMessage: 7, deliveryType: 'CALL' },
      ['email', 'purpose', 'customMessage', 'deliveryType'],
    );
  });

  it('refuses premium-rate and shared-cost numbers with UNSUPPORTED_NUMBER', async () => {
    for (const phone of ['+19005550123', '+449098790123', '+491805123456', '+34901123456']) {
      const res = await send({ channel: 'SMS', phone });
      expect(res.status, phone).toBe(400);
      expect(res.body.error.code, phone).toBe('UNSUPPORTED_NUMBER');
    }
  });

  it('answers INVALID_JSON, 415 and 413 for bodies that are not a small JSON object', async () => {
    const raw = (payload: string, type = 'application/json') =>
      svc.app.inject({
        method: 'POST',
        url: SEND,
        headers: { authorization: `Bearer ${key}`, 'content-type': type },
        payload,
      });
    const broken = await raw('{"channel": "EMAIL",');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('INVALID_JSON');
    const empty = await raw('');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('INVALID_JSON');
    const poisoned = await raw('{"__proto__": {"x": 1}, "channel": "EMAIL"}');
    expect(poisoned.statusCode).toBe(400);
    const text = await raw('channel=EMAIL', 'text/plain');
    expect(text.statusCode).toBe(415);
    expect(text.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await raw('channel=EMAIL', 'application/x-www-form-urlencoded');
    expect(form.statusCode).toBe(415);
    const big = await raw(
      JSON.stringify({ channel: 'EMAIL', email: 'a@example.com', purpose: 'x'.repeat(17_000) }),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json().error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('never answers 500, whatever the body', async () => {
    const bodies: unknown[] = [
      null,
      [],
      [1, 2],
      'EMAIL',
      12,
      true,
      { channel: null },
      { channels: null },
      { channels: [null, 1] },
      { channel: 'SMS', phone: null },
      { channel: 'SMS', phone: ['+14155552671'] },
      { channel: 'SMS', phone: '+'.repeat(40) },
      { channel: 'SMS', phone: '+1 (415) 555-2671 ext 99' },
      { channel: 'EMAIL', email: { a: 1 } },
      { channel: 'EMAIL', email: 'a@example.com', country: 12 },
      { channel: 'WHATSAPP', phone: '+14155552671', country: 'zz' },
      { channel: 'SMS', phone: '\u0000+14155552671' },
      { channel: 'EMAIL', email: 'a@example.com', purpose: '\u202e\ud800' },
      { channel: 'EMAIL', email: '"a b"@example.com' },
    ];
    for (const body of bodies) {
      const res = await send(body);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body.error?.code ?? 'ok', JSON.stringify(body)).not.toBe('INTERNAL');
    }
  });
});
