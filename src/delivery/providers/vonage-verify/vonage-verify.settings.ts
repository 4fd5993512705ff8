import type { KeyObject } from 'node:crypto';
import { providerTimeout, type SettingsValues } from '../settings.js';
import { vonagePrivateKey } from '../vonage/vonage-application.js';
import {
  vonageApiBaseUrlSettings,
  vonageApplicationSettings,
} from '../vonage/vonage-application.settings.js';

/** Vonage Verify v2: the application's settings (shared with Vonage Voice and Identity Insights). */
export const vonageVerifySettings = {
  ...vonageApplicationSettings,
  ...vonageApiBaseUrlSettings,
  vonageVerifyTimeoutMs: providerTimeout(
    'vonage-verify',
    'VONAGE_VERIFY_TIMEOUT_MS',
    5000,
    'Vonage Verify v2',
  ),
};

export interface VonageVerifyOptions {
  applicationId: string;
  privateKey: KeyObject;
  baseUrl: string;
  timeoutMs: number;
}

/** Vonage Verify's options when the application is set, else null. */
export function vonageVerifyOptions(
  config: SettingsValues<typeof vonageVerifySettings>,
): VonageVerifyOptions | null {
  if (!config.vonageApplicationId || !config.vonagePrivateKey) return null;
  const privateKey = vonagePrivateKey(config.vonagePrivateKey);
  if (!privateKey) return null;
  return {
    applicationId: config.vonageApplicationId,
    privateKey,
    baseUrl: config.vonageApiBaseUrl,
    timeoutMs: config.vonageVerifyTimeoutMs,
  };
}
