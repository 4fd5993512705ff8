import { Type } from '@sinclair/typebox';
import {
  providerBaseUrl,
  providerString,
  type SettingsValues,
} from '../../../delivery/providers/settings.js';

/**
 * Vonage Identity Insights authenticates with a Vonage application's JWT (not the SMS API's key and
 * secret): the application's id and private key, which Vonage Verify v2 uses too.
 */
export const identityInsightsSettings = {
  vonageApplicationId: providerString('vonage-application', {
    env: 'VONAGE_APPLICATION_ID',
    required: true,
    description: 'Id of the Vonage application whose JWTs sign Identity Insights (and Verify v2) requests.',
  }),
  vonagePrivateKey: providerString('vonage-application', {
    env: 'VONAGE_PRIVATE_KEY',
    required: true,
    secret: true,
    description:
      "The Vonage application's private key, PEM (line breaks as they are, or written `\\n`), which signs its JWTs.",
  }),
  vonageApiBaseUrl: providerBaseUrl(
    'vonage-application',
    'VONAGE_API_BASE_URL',
    'https://api-eu.vonage.com',
    'Vonage application APIs (Identity Insights, Verify v2)',
  ),
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
