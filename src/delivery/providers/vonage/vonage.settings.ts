import { Type } from '@sinclair/typebox';
import { providerBaseUrl, providerString, providerTimeout, type SettingsValues } from '../settings.js';

export const VONAGE_SIGNATURE_METHODS = ['md5hash', 'md5', 'sha1', 'sha256', 'sha512'] as const;
export type VonageSignatureMethod = (typeof VONAGE_SIGNATURE_METHODS)[number];

export const vonageSettings = {
  vonageApiKey: providerString('vonage', {
    env: 'VONAGE_API_KEY',
    required: true,
    description: 'Vonage API key (SMS API).',
  }),
  vonageApiSecret: providerString('vonage', {
    env: 'VONAGE_API_SECRET',
    required: true,
    secret: true,
    description: 'Vonage API secret.',
  }),
  vonageFrom: providerString('vonage', {
    env: 'VONAGE_FROM',
    required: true,
    description: 'Sender of Vonage SMS: a Vonage number (digits) or an alphanumeric sender ID.',
  }),
  vonageSignatureSecret: providerString('vonage', {
    env: 'VONAGE_SIGNATURE_SECRET',
    secret: true,
    description:
      "The account's signature secret: when set, SMS delivery receipts must carry a valid `sig`; Vonage Voice's call events must carry a JWT signed with it.",
  }),
  vonageSignatureMethod: Type.Union(
    VONAGE_SIGNATURE_METHODS.map((m) => Type.Literal(m)),
    {
      env: 'VONAGE_SIGNATURE_METHOD',
      default: 'md5hash',
      description:
        'Signing method chosen in the Vonage dashboard: md5hash, md5, sha1, sha256 or sha512 (HMAC).',
      provider: 'vonage',
    },
  ),
  vonageBaseUrl: providerBaseUrl('vonage', 'VONAGE_BASE_URL', 'https://rest.nexmo.com', 'Vonage SMS'),
  vonageTimeoutMs: providerTimeout('vonage', 'VONAGE_TIMEOUT_MS', 5000, 'Vonage'),
};

export interface VonageOptions {
  apiKey: string;
  apiSecret: string;
  from: string;
  baseUrl: string;
  timeoutMs: number;
  /** Where Vonage sends delivery receipts; null leaves the dashboard's setting in force. */
  callbackUrl: string | null;
}

export function vonageOptions(
  config: SettingsValues<typeof vonageSettings>,
  publicBaseUrl: string | null,
): VonageOptions | null {
  if (!config.vonageApiKey || !config.vonageApiSecret || !config.vonageFrom) return null;
  return {
    apiKey: config.vonageApiKey,
    apiSecret: config.vonageApiSecret,
    from: config.vonageFrom,
    baseUrl: config.vonageBaseUrl,
    timeoutMs: config.vonageTimeoutMs,
    callbackUrl: publicBaseUrl ? `${publicBaseUrl}/v1/callbacks/vonage` : null,
  };
}
