import { Type } from '@sinclair/typebox';
import type { SettingsValues } from '../../../delivery/providers/settings.js';
import {
  vonageApiBaseUrlSettings,
  vonageApplicationSettings,
} from '../../../delivery/providers/vonage/vonage-application.settings.js';

/**
 * Vonage Identity Insights authenticates with a Vonage application's JWT (not the SMS API's key and
 * secret): the application's id and private key, which Vonage Verify v2 uses too.
 */
export const identityInsightsSettings = {
  ...vonageApplicationSettings,
  ...vonageApiBaseUrlSettings,
  vonageInsightsPurpose: Type.String({
    env: 'VONAGE_INSIGHTS_PURPOSE',
    default: 'FraudPreventionAndDetection',
    minLength: 1,
    provider: 'vonage-application',
    description:
      "Identity Insights' `purpose` for its SIM swap insight: one of the network profile purposes of the application (the Playground takes only FraudPreventionAndDetection).",
  }),
};

export type IdentityInsightsConfig = SettingsValues<typeof identityInsightsSettings>;
