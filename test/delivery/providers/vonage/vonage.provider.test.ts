import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VonageSmsProvider } from '../../../../src/delivery/providers/vonage/vonage.provider.js';
import type { VonageOptions } from '../../../../src/delivery/providers/vonage/vonage.settings.js';
import { type FakeApi, startFakeApi } from '../../support/fake-api.js';
import { deliveryRequest } from '../../support/request.js';

const accepted = (id: string) => ({
  status: 200,
  json: { 'message-count': '1', messages: [{ to: '14155550123', 'message-id': id, status: '0' }] },
});
const rejected = (status: string, errorText: string) => ({
  status: 200,
  json: { 'message-count': '1', messages: [{ status, 'error-text': errorText }] },
});

describe('Vonage (SMS API)', () => {
  let api: FakeApi;
  let options: VonageOptions;
  beforeAll(async () => {
    api = await startFakeApi(() => accepted('0A0000001'));
    options = {
      apiKey: 'abc123',
      apiSecret: 'vonage-secret',
      from: 'Acme',
      baseUrl: api.url,
      timeoutMs: 1000,
      callbackUrl: 'https://verify.example.com/v1/callbacks/vonage',
    };
  });
  afterAll(() => api.close());

  it('POSTs api_key, api_secret, from, to (no +), text and callback to /sms/json', async () => {
    const outcome = await new VonageSmsProvider(options).send(deliveryRequest());
    expect(outcome).toEqual({ ok: true, providerMessageId: '0A0000001' });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe('/sms/json');
    expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const form = new URLSearchParams(r.body);
    expect(Object.fromEntries(form)).toMatchObject({
      api_key: 'abc123',
      api_secret: 'vonage-secret',
      from: 'Acme',
      to: '14155550123',
      text: '048213 is your Acme verification code.',
      callback: 'https://verify.example.com/v1/callbacks/vonage',
    });
    expect(form.has('type')).toBe(false);
  });

  it('sends a brand name outside ASCII as type=unicode', async () => {
    await new VonageSmsProvider(options).send(
      deliveryRequest({ branding: { brandName: 'Zürich Bank', color: '#000' } }),
    );
    expect(new URLSearchParams(api.sends().at(-1)!.body).get('type')).toBe('unicode');
  });

  it('reads the per-message status: throttled (1) and internal error (5) are retryable', async () => {
    const p = new VonageSmsProvider(options);
    for (const [status, text] of [
      ['1', 'Throttled'],
      ['5', 'Internal Error'],
      ['4', 'Bad Credentials'],
      ['29', 'Non White-listed Destination'],
      ['3', 'Invalid from param'],
    ] as const) {
      api.answer(() => rejected(status, text));
      expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: true });
    }
  });

  it('treats an invalid or barred number as a refusal of the destination', async () => {
    const p = new VonageSmsProvider(options);
    for (const [status, text] of [
      ['6', 'Invalid Message'],
      ['7', 'Number barred.'],
      ['33', 'Number deactivated'],
      ['3', 'Invalid to address'],
    ] as const) {
      api.answer(() => rejected(status, text));
      expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: false });
    }
  });

  it('treats HTTP 5xx as retryable and probes the balance for check()', async () => {
    api.answer(() => ({ status: 503, json: {} }));
    expect(await new VonageSmsProvider(options).send(deliveryRequest())).toMatchObject({ retryable: true });
    expect(await new VonageSmsProvider(options).check()).toBe('up');
    const probe = api.received.at(-1)!;
    expect(probe.path).toBe('/account/get-balance');
    expect(probe.headers.authorization).toBe(
      `Basic ${Buffer.from('abc123:vonage-secret').toString('base64')}`,
    );
  });
});
