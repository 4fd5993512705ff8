import { type Answer, type FakeApi, type Received, startFakeApi } from './fake-api.js';
import { type FakeSmtp, startFakeSmtp } from './fake-smtp.js';

export const TWILIO_SID = 'AC0123456789abcdef0123456789abcdef';

/** Successful answers in each provider's documented shape, with a fresh id per request. */
export const ok = {
  twilio: (r: Received, n: number): Answer => ({
    status: 201,
    json: {
      sid: `${r.path.endsWith('/Calls.json') ? 'CA' : 'SM'}${String(n).padStart(32, '0')}`,
      status: 'queued',
    },
  }),
  vonage: (_r: Received, n: number): Answer => ({
    status: 200,
    json: { 'message-count': '1', messages: [{ to: '', 'message-id': `0A${n}`, status: '0' }] },
  }),
  telnyx: (_r: Received, n: number): Answer => ({
    status: 200,
    json: { data: { id: `tx-${n}`, record_type: 'message' } },
  }),
  whatsapp: (_r: Received, n: number): Answer => ({
    status: 200,
    json: { messaging_product: 'whatsapp', contacts: [{ wa_id: '1' }], messages: [{ id: `wamid.${n}` }] },
  }),
};

export interface FakeProviders {
  twilio: FakeApi;
  vonage: FakeApi;
  telnyx: FakeApi;
  whatsapp: FakeApi;
  smtp: FakeSmtp;
  /** Environment that points every provider of the service at these fakes. */
  env: Record<string, string>;
  /** Back to the successful answers. */
  reset(): void;
  close(): Promise<void>;
}

/** Every provider API as a loopback peer, and the env vars that configure the service for them. */
export async function startFakeProviders(options: { smtpDelayMs?: number } = {}): Promise<FakeProviders> {
  let n = 0;
  const counting = (fn: (r: Received, n: number) => Answer) => (r: Received) => fn(r, ++n);
  const [twilio, vonage, telnyx, whatsapp, smtp] = await Promise.all([
    startFakeApi(counting(ok.twilio)),
    startFakeApi(counting(ok.vonage)),
    startFakeApi(counting(ok.telnyx)),
    startFakeApi(counting(ok.whatsapp)),
    startFakeSmtp({ reject: ['nobody@example.com'], delayMs: options.smtpDelayMs }),
  ]);
  return {
    twilio,
    vonage,
    telnyx,
    whatsapp,
    smtp,
    env: {
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'codes@acme.test',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: 'twilio-token',
      TWILIO_FROM: '+15005550006',
      TWILIO_BASE_URL: twilio.url,
      VONAGE_API_KEY: 'vonage-key',
      VONAGE_API_SECRET: 'vonage-secret',
      VONAGE_FROM: 'Acme',
      VONAGE_BASE_URL: vonage.url,
      TELNYX_API_KEY: 'KEYtelnyx',
      TELNYX_FROM: '+15550001111',
      TELNYX_BASE_URL: telnyx.url,
      WHATSAPP_TOKEN: 'EAAGtoken',
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_TEMPLATE: 'verify_code',
      WHATSAPP_BASE_URL: whatsapp.url,
      // Tests send to the same numbers again and again.
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
    },
    reset() {
      twilio.answer(counting(ok.twilio));
      vonage.answer(counting(ok.vonage));
      telnyx.answer(counting(ok.telnyx));
      whatsapp.answer(counting(ok.whatsapp));
    },
    async close() {
      await Promise.all([twilio.close(), vonage.close(), telnyx.close(), whatsapp.close(), smtp.close()]);
    },
  };
}
