import { defineLookupProvider, missingOf } from '../../module.js';
import { IdentityInsightsLookup } from './identity-insights.js';
import { identityInsightsSettings } from './identity-insights.settings.js';
import { privateKeyOf, VonageJwt } from './vonage-jwt.js';

const REQUIRED = ['vonageApplicationId', 'vonagePrivateKey'];

/** Vonage Identity Insights: original and current carrier, and SIM swap, with an application's JWT. */
export const vonage = defineLookupProvider({
  name: 'vonage',
  title: 'Vonage Identity Insights',
  api: 'Vonage Identity Insights, `POST /identity-insights/v1/requests` (original_carrier, current_carrier, sim_swap)',
  parts: { line: true, sim: true },
  settings: identityInsightsSettings,
  missing: (config) => missingOf(identityInsightsSettings, config, REQUIRED),
  problems(config) {
    if (!config.vonagePrivateKey) return [];
    try {
      privateKeyOf(config.vonagePrivateKey);
      return [];
    } catch {
      return ['VONAGE_PRIVATE_KEY: is not a PEM private key'];
    }
  },
  create: (config, { simSwapWindowHours, clock }) =>
    new IdentityInsightsLookup({
      baseUrl: config.vonageApiBaseUrl,
      jwt: new VonageJwt(
        config.vonageApplicationId as string,
        privateKeyOf(config.vonagePrivateKey as string),
        () => clock.now(),
      ),
      purpose: config.vonageInsightsPurpose,
      simSwapWindowHours,
    }),
});
