import { providerString, type SettingsValues } from '../settings.js';
import { telnyxSettings } from '../telnyx/telnyx.settings.js';

/** Telnyx Call Control: the account's settings (shared with Telnyx SMS) and the calls' own. */
export const telnyxVoiceSettings = {
  telnyxApiKey: telnyxSettings.telnyxApiKey,
  telnyxFrom: telnyxSettings.telnyxFrom,
  telnyxPublicKey: telnyxSettings.telnyxPublicKey,
  telnyxBaseUrl: telnyxSettings.telnyxBaseUrl,
  telnyxTimeoutMs: telnyxSettings.telnyxTimeoutMs,
  telnyxVoiceConnectionId: providerString('telnyx-voice', {
    env: 'TELNYX_VOICE_CONNECTION_ID',
    required: true,
    description:
      'Id of the Call Control application (Voice API connection) that places VOICE calls. Its calls are driven by their webhooks: PUBLIC_BASE_URL and TELNYX_PUBLIC_KEY are needed too.',
  }),
  telnyxVoiceFrom: providerString('telnyx-voice', {
    env: 'TELNYX_VOICE_FROM',
    description:
      'Caller ID of VOICE calls (+E.164, a number of the connection); defaults to TELNYX_FROM when that is a phone number.',
  }),
};

export interface TelnyxVoiceOptions {
  apiKey: string;
  connectionId: string;
  from: string;
  baseUrl: string;
  timeoutMs: number;
  /** Where Telnyx posts the call's events, which say when to speak and to hang up. */
  webhookUrl: string;
}

type Config = SettingsValues<typeof telnyxVoiceSettings>;

const callerId = (config: Config) =>
  config.telnyxVoiceFrom ??
  (config.telnyxFrom && /^\+\d{6,15}$/.test(config.telnyxFrom) ? config.telnyxFrom : null);

/** The options of the calls' commands (speak, hang up), as a webhook needs them. */
export function telnyxCommandsOptions(config: Config) {
  if (!config.telnyxApiKey) return null;
  return { apiKey: config.telnyxApiKey, baseUrl: config.telnyxBaseUrl, timeoutMs: config.telnyxTimeoutMs };
}

/**
 * Telnyx voice calls' options, or null until everything they need is set: the key, the
 * connection, a caller ID, and their webhooks (the public URL, and the key that checks them).
 */
export function telnyxVoiceOptions(config: Config, publicBaseUrl: string | null): TelnyxVoiceOptions | null {
  const from = callerId(config);
  const commands = telnyxCommandsOptions(config);
  if (!commands || !config.telnyxVoiceConnectionId || !from) return null;
  if (!publicBaseUrl || !config.telnyxPublicKey) return null;
  return {
    ...commands,
    connectionId: config.telnyxVoiceConnectionId,
    from,
    webhookUrl: `${publicBaseUrl}/v1/callbacks/telnyx-voice`,
  };
}

/** What a configuration that names a connection still lacks, each naming its variable. */
export function telnyxVoiceProblems(config: Config, publicBaseUrl: string | null): string[] {
  if (!config.telnyxVoiceConnectionId) return [];
  const problems: string[] = [];
  const needs = 'Telnyx voice calls speak the code on their call.answered webhook';
  if (!config.telnyxApiKey) problems.push('TELNYX_VOICE_CONNECTION_ID: set TELNYX_API_KEY too');
  if (!callerId(config))
    problems.push(
      'TELNYX_VOICE_CONNECTION_ID: set TELNYX_VOICE_FROM (or a number in TELNYX_FROM) as the caller ID',
    );
  if (!publicBaseUrl) problems.push(`TELNYX_VOICE_CONNECTION_ID: ${needs}: set PUBLIC_BASE_URL`);
  if (!config.telnyxPublicKey) problems.push(`TELNYX_VOICE_CONNECTION_ID: ${needs}: set TELNYX_PUBLIC_KEY`);
  return problems;
}
