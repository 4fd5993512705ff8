import { providerBaseUrl, providerString, providerTimeout, type SettingsValues } from '../settings.js';

export const telnyxSettings = {
  telnyxApiKey: providerString('telnyx', {
    env: 'TELNYX_API_KEY',
    required: true,
    secret: true,
    description: 'Telnyx API key (API v2, sent as a Bearer token): of Telnyx SMS and of Telnyx voice calls.',
  }),
  telnyxFrom: providerString('telnyx', {
    env: 'TELNYX_FROM',
    required: true,
    description:
      'Sender of Telnyx SMS: a Telnyx number in +E.164, or an alphanumeric sender ID. Telnyx voice calls alone (TELNYX_VOICE_CONNECTION_ID) do without it.',
  }),
  telnyxMessagingProfileId: providerString('telnyx', {
    env: 'TELNYX_MESSAGING_PROFILE_ID',
    description: 'Messaging profile to send with (needed for an alphanumeric TELNYX_FROM).',
  }),
  telnyxPublicKey: providerString('telnyx', {
    env: 'TELNYX_PUBLIC_KEY',
    description:
      'Base64 Ed25519 public key of the account (Mission Control, Keys & Credentials); needed to accept delivery webhooks, and by Telnyx voice calls.',
  }),
  telnyxBaseUrl: providerBaseUrl('telnyx', 'TELNYX_BASE_URL', 'https://api.telnyx.com', 'Telnyx'),
  telnyxTimeoutMs: providerTimeout('telnyx', 'TELNYX_TIMEOUT_MS', 5000, 'Telnyx'),
};

export interface TelnyxOptions {
  apiKey: string;
  from: string;
  messagingProfileId: string | null;
  baseUrl: string;
  timeoutMs: number;
  /** Per-message webhook URL; only set when webhooks can be verified (public URL and key known). */
  webhookUrl: string | null;
}

export function telnyxOptions(
  config: SettingsValues<typeof telnyxSettings>,
  publicBaseUrl: string | null,
): TelnyxOptions | null {
  if (!config.telnyxApiKey || !config.telnyxFrom) return null;
  return {
    apiKey: config.telnyxApiKey,
    from: config.telnyxFrom,
    messagingProfileId: config.telnyxMessagingProfileId ?? null,
    baseUrl: config.telnyxBaseUrl,
    timeoutMs: config.telnyxTimeoutMs,
    webhookUrl: publicBaseUrl && config.telnyxPublicKey ? `${publicBaseUrl}/v1/callbacks/telnyx` : null,
  };
}
