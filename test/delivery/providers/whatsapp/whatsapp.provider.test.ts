import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WhatsAppProvider } from '../../../../src/delivery/providers/whatsapp/whatsapp.provider.js';
import type { WhatsAppOptions } from '../../../../src/delivery/providers/whatsapp/whatsapp.settings.js';
import type { Locale } from '../../../../src/domain/locales.js';
import { type FakeApi, startFakeApi } from '../../support/fake-api.js';
import { deliveryRequest } from '../../support/request.js';

describe('WhatsApp Cloud API', () => {
  let api: FakeApi;
  let options: WhatsAppOptions;
  beforeAll(async () => {
    api = await startFakeApi(() => ({
      status: 200,
      json: {
        messaging_product: 'whatsapp',
        contacts: [{ input: '+14155550123', wa_id: '14155550123' }],
        messages: [{ id: 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI' }],
      },
    }));
    options = {
      token: 'EAAGtoken',
      phoneNumberId: '106540352242922',
      template: 'verify_code',
      language: 'en_US',
      languages: [],
      apiVersion: 'v23.0',
      baseUrl: api.url,
      timeoutMs: 1000,
    };
  });
  afterAll(() => api.close());

  it('sends the authentication template with the code as body and copy-code button parameter', async () => {
    const outcome = await new WhatsAppProvider(options).send(deliveryRequest({ channel: 'WHATSAPP' }));
    expect(outcome).toEqual({ ok: true, providerMessageId: 'wamid.HBgLMTQxNTU1NTAxMjMVAgARGBI' });
    const r = api.sends().at(-1)!;
    expect(r.path).toBe('/v23.0/106540352242922/messages');
    expect(r.headers.authorization).toBe('Bearer EAAGtoken');
    expect(JSON.parse(r.body)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '+14155550123',
      type: 'template',
      template: {
        name: 'verify_code',
        language: { code: 'en_US' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '048213' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '048213' }] },
        ],
      },
    });
  });

  it("asks for the template in the request's language when it is approved in it, else in the default", async () => {
    const p = new WhatsAppProvider({ ...options, languages: ['es', 'pt_BR', 'zh_CN', 'zh_TW'] });
    const languageOf = async (locale: Locale) => {
      await p.send(deliveryRequest({ channel: 'WHATSAPP', locale }));
      return JSON.parse(api.sends().at(-1)!.body).template.language.code;
    };
    expect(await languageOf('pt-BR')).toBe('pt_BR');
    // Approved only in Brazilian Portuguese: European Portuguese readers get that rather than English.
    expect(await languageOf('pt-PT')).toBe('pt_BR');
    expect(await languageOf('zh-TW')).toBe('zh_TW');
    expect(await languageOf('zh-CN')).toBe('zh_CN');
    expect(await languageOf('es')).toBe('es');
    expect(await languageOf('fr')).toBe('en_US');
    expect(await languageOf('en')).toBe('en_US');
  });

  it('treats 131026 (undeliverable) as a refusal and rate limits or 5xx as retryable', async () => {
    const p = new WhatsAppProvider(options);
    api.answer(() => ({ status: 400, json: { error: { code: 131026, message: 'Message undeliverable' } } }));
    expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: false });
    api.answer(() => ({ status: 400, json: { error: { code: 130429, message: 'Rate limit hit' } } }));
    expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: true });
    api.answer(() => ({ status: 500, json: { error: { code: 131000 } } }));
    expect(await p.send(deliveryRequest())).toMatchObject({ ok: false, retryable: true });
  });

  it('check() reads the phone number node', async () => {
    expect(await new WhatsAppProvider(options).check()).toBe('up');
    const probe = api.received.at(-1)!;
    expect(probe).toMatchObject({ method: 'GET', path: '/v23.0/106540352242922' });
    expect(probe.headers.authorization).toBe('Bearer EAAGtoken');
  });
});
