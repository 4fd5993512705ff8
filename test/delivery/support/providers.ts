import { type Answer, type FakeApi, type Received, startFakeApi } from './fake-api.js';
import { type FakeSmtp, startFakeSmtp } from './fake-smtp.js';
import { VONAGE_APPLICATION_ID, vonageKeys } from './signing.js';

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
  telnyx: (r: Received, n: number): Answer => {
    // Call Control: a dial answers the call's ids; a command on a call answers ok.
    if (r.path === '/v2/calls')
      return {
        status: 200,
        json: {
          data: {
            call_control_id: `v3:call-${n}`,
            call_leg_id: `leg-${n}`,
            call_session_id: `session-${n}`,
            is_alive: false,
            record_type: 'call',
          },
        },
      };
    if (r.path.startsWith('/v2/calls/')) return { status: 200, json: { data: { result: 'ok' } } };
    return { status: 200, json: { data: { id: `tx-${n}`, record_type: 'message' } } };
  },
  /** The Voice API: a call is created for a request signed by the application's key, else 401. */
  vonageVoice: (r: Received, n: number): Answer =>
    vonageKeys.authorizes(r.headers.authorization)
      ? {
          status: 201,
          json: {
            uuid: `63f61863-4a51-4f6b-86e1-46edebcf${String(n).padStart(4, '0')}`,
            status: 'started',
            direction: 'outbound',
            conversation_uuid: `CON-${n}`,
          },
        }
      : {
          status: 401,
          json: { type: 'https://developer.nexmo.com/api-errors#unauthorized', title: 'Unauthorized' },
        },
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
  vonageVoice: FakeApi;
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
  const [twilio, vonage, telnyx, whatsapp, vonageVoice, smtp] = await Promise.all([
    startFakeApi(counting(ok.twilio)),
    startFakeApi(counting(ok.vonage)),
    startFakeApi(counting(ok.telnyx)),
    startFakeApi(counting(ok.whatsapp)),
    startFakeApi(counting(ok.vonageVoice)),
    startFakeSmtp({ reject: ['nobody@example.com'], delayMs: options.smtpDelayMs }),
  ]);
  return {
    twilio,
    vonage,
    telnyx,
    whatsapp,
    vonageVoice,
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
      // VOICE: Twilio Voice (TWILIO_FROM is a number) and Vonage Voice; Telnyx's calls need a
      // public URL and its webhook key, which a test gives when it wants them.
      VONAGE_APPLICATION_ID: VONAGE_APPLICATION_ID,
      VONAGE_PRIVATE_KEY: vonageKeys.privateKeyEnv,
      VONAGE_VOICE_FROM: '447700900000',
      VONAGE_VOICE_BASE_URL: vonageVoice.url,
      // Tests send to the same numbers again and again.
      RESEND_COOLDOWN_SECONDS: '0',
      SENDS_PER_DESTINATION_PER_HOUR: '1000',
    },
    reset() {
      twilio.answer(counting(ok.twilio));
      vonage.answer(counting(ok.vonage));
      telnyx.answer(counting(ok.telnyx));
      whatsapp.answer(counting(ok.whatsapp));
      vonageVoice.answer(counting(ok.vonageVoice));
    },
    async close() {
      await Promise.all([
        twilio.close(),
        vonage.close(),
        telnyx.close(),
        whatsapp.close(),
        vonageVoice.close(),
        smtp.close(),
      ]);
    },
  };
}
