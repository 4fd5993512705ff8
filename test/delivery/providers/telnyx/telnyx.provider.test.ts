import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TelnyxSmsProvider } from '../../../../src/delivery/providers/telnyx/telnyx.provider.js';
import type { TelnyxOptions } from '../../../../src/delivery/providers/telnyx/telnyx.settings.js';
import { type FakeApi, startFakeApi } from '../../support/fake-api.js';
import { deliveryRequest } from '../../support/request.js';

describe('Telnyx (Messaging API v2)', () => {
  let api: FakeApi;
  let options: TelnyxOptions;
  beforeAll(async () => {
    api = await startFakeApi(() => ({
      status: 200,
      json: { data: { id: '40385f64-5717-4562-b3fc-2c963f66afa6', record_type: 'message' } },
    }));
    options = {
      apiKey: 'KEYtelnyx',
      from: '+15550001111',
      messagingProfileId: '400174d6-0e3b-4e8d-8f37-2ad9ff3f4f0a',
      baseUrl: api.url,
      timeoutMs: 1000,
      webhookUrl: 'https://verify.example.com/v1/callbacks/telnyx',
    };
  });
  afterAll(() => api.close());

  it('POSTs JSON {from, to, text, messaging_profile_id, webhook_url} with a Bearer key', async () => {
    const outcome = await new TelnyxSmsProvider(options).send(deliveryRequest());
    expect(outcome).toEqual({ ok: true, providerMessageId: '40385f64-5717-4562-b3fc-2c963f66afa6' });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe('/v2/messages');
    expect(r.headers.authorization).toBe('Bearer KEYtelnyx');
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({
      from: '+15550001111',
      to: '+14155550123',
      text: '048213 is your Acme verification code.',
      messaging_profile_id: '400174d6-0e3b-4e8d-8f37-2ad9ff3f4f0a',
      webhook_url: 'https://verify.example.com/v1/callbacks/telnyx',
    });
  });

  it('treats 40310 (invalid to) and 40300 (STOP) as refusals of the destination', async () => {
    for (const code of ['40310', '40300']) {
      api.answer(() => ({ status: 400, json: { errors: [{ code, title: 'x', detail: 'y' }] } }));
      expect(await new TelnyxSmsProvider(options).send(deliveryRequest())).toMatchObject({
        ok: false,
        retryable: false,
      });
    }
  });

  it('treats 401, 422 on the sender, 429 and 5xx as retryable', async () => {
    for (const answer of [
      { status: 401, json: { errors: [{ code: '10009' }] } },
      { status: 422, json: { errors: [{ code: '40305' }] } },
      { status: 429, json: { errors: [{ code: '10011' }] } },
      { status: 502, json: {} },
    ]) {
      api.answer(() => answer);
      expect(await new TelnyxSmsProvider(options).send(deliveryRequest())).toMatchObject({ retryable: true });
    }
  });

  it('check() reads /v2/balance', async () => {
    expect(await new TelnyxSmsProvider(options).check()).toBe('up');
    expect(api.received.at(-1)).toMatchObject({ method: 'GET', path: '/v2/balance' });
  });
});
