import type { KeyObject } from 'node:crypto';
import { providerBaseUrl, providerString, providerTimeout, type SettingsValues } from '../settings.js';
import { vonageSettings } from '../vonage/vonage.settings.js';
import { vonagePrivateKey } from '../vonage/vonage-application.js';
import { vonageApplicationSettings } from '../vonage/vonage-application.settings.js';

export { vonagePrivateKey };

/** Vonage Voice: the application's settings (shared with the number lookup) and the calls' own. */
export const vonageVoiceSettings = {
  ...vonageApplicationSettings,
  vonageVoiceFrom: providerString('vonage-voice', {
    env: 'VONAGE_VOICE_FROM',
    required: true,
    description:
      'Caller ID of VOICE calls: a Vonage number linked to the application (digits, `+` optional).',
  }),
  vonageSignatureSecret: vonageSettings.vonageSignatureSecret,
  vonageVoiceBaseUrl: providerBaseUrl(
    'vonage-voice',
    'VONAGE_VOICE_BASE_URL',
    'https://api.nexmo.com',
    'Vonage Voice',
  ),
  vonageVoiceTimeoutMs: providerTimeout('vonage-voice', 'VONAGE_VOICE_TIMEOUT_MS', 5000, 'Vonage Voice'),
};

export interface VonageVoiceOptions {
  applicationId: string;
  privateKey: KeyObject;
  /** Digits only, as the Voice API takes numbers. */
  from: string;
  baseUrl: string;
  timeoutMs: number;
  /** Where Vonage posts the call's events; null when they cannot be taken (no public URL or secret). */
  eventUrl: string | null;
}

export function vonageVoiceOptions(
  config: SettingsValues<typeof vonageVoiceSettings>,
  publicBaseUrl: string | null,
): VonageVoiceOptions | null {
  if (!config.vonageApplicationId || !config.vonagePrivateKey || !config.vonageVoiceFrom) return null;
  const privateKey = vonagePrivateKey(config.vonagePrivateKey);
  if (!privateKey) return null;
  return {
    applicationId: config.vonageApplicationId,
    privateKey,
    from: config.vonageVoiceFrom.replace(/^\+/, ''),
    baseUrl: config.vonageVoiceBaseUrl,
    timeoutMs: config.vonageVoiceTimeoutMs,
    eventUrl:
      publicBaseUrl && config.vonageSignatureSecret ? `${publicBaseUrl}/v1/callbacks/vonage-voice` : null,
  };
}
