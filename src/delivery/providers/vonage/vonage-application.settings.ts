import { providerBaseUrl, providerString } from '../settings.js';

/**
 * A Vonage application: its id and private key, whose JWTs (RS256) authenticate the application
 * APIs (not the SMS API's key and secret). Vonage Voice places its calls with them, and the number
 * lookup's Identity Insights asks with them (src/lookup/providers/vonage): described once, here.
 */
export const vonageApplicationSettings = {
  vonageApplicationId: providerString('vonage-application', {
    env: 'VONAGE_APPLICATION_ID',
    required: true,
    description:
      'Id of the Vonage application whose JWTs sign its requests: Vonage Voice calls (with the Voice capability), Identity Insights and Verify v2.',
  }),
  vonagePrivateKey: providerString('vonage-application', {
    env: 'VONAGE_PRIVATE_KEY',
    required: true,
    secret: true,
    description:
      "The Vonage application's private key, PEM (line breaks as they are, or written `\\n`), which signs its JWTs.",
  }),
};

/**
 * The base URL of Vonage's application APIs (Identity Insights, Verify v2): one setting for both,
 * described here beside the application's credentials.
 */
export const vonageApiBaseUrlSettings = {
  vonageApiBaseUrl: providerBaseUrl(
    'vonage-application',
    'VONAGE_API_BASE_URL',
    'https://api-eu.vonage.com',
    'Vonage application APIs (Identity Insights, Verify v2)',
  ),
};
