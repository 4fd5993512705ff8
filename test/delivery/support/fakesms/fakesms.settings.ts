import {
  providerBaseUrl,
  providerString,
  providerTimeout,
  type SettingsValues,
} from '../../../../src/delivery/providers/settings.js';

export const fakesmsSettings = {
  fakesmsApiKey: providerString('fakesms', {
    env: 'FAKESMS_API_KEY',
    required: true,
    secret: true,
    description: 'FakeSMS API key, sent as a Bearer token.',
  }),
  fakesmsFrom: providerString('fakesms', {
    env: 'FAKESMS_FROM',
    required: true,
    description: 'Sender of FakeSMS messages.',
  }),
  fakesmsBaseUrl: providerBaseUrl('fakesms', 'FAKESMS_BASE_URL', 'https://api.fakesms.invalid', 'FakeSMS'),
  fakesmsTimeoutMs: providerTimeout('fakesms', 'FAKESMS_TIMEOUT_MS', 5000, 'FakeSMS'),
};

export interface FakesmsOptions {
  apiKey: string;
  from: string;
  baseUrl: string;
  timeoutMs: number;
}

export function fakesmsOptions(config: SettingsValues<typeof fakesmsSettings>): FakesmsOptions | null {
  if (!config.fakesmsApiKey || !config.fakesmsFrom) return null;
  return {
    apiKey: config.fakesmsApiKey,
    from: config.fakesmsFrom,
    baseUrl: config.fakesmsBaseUrl,
    timeoutMs: config.fakesmsTimeoutMs,
  };
}
