import { joinUrl } from '../../http.js';
import { defineLookupProvider, missingOf } from '../../module.js';
import { camaraSettings } from './camara.settings.js';
import { CamaraSimSwap } from './camara-sim-swap.js';
import { ClientCredentialsToken } from './oauth.js';

const REQUIRED = ['camaraBaseUrl', 'camaraTokenUrl', 'camaraClientId', 'camaraClientSecret'];

/** A CAMARA SIM Swap endpoint (an operator's or an aggregator's): the last SIM change only. */
export const camara = defineLookupProvider({
  name: 'camara',
  title: 'CAMARA SIM Swap',
  api: 'GSMA CAMARA SIM Swap v2, `POST /sim-swap/v2/retrieve-date` or `/check`, OAuth 2.0 client credentials',
  parts: { line: false, sim: true },
  settings: camaraSettings,
  missing: (config) => missingOf(camaraSettings, config, REQUIRED),
  create: (config, { simSwapWindowHours, clock }) =>
    new CamaraSimSwap({
      apiUrl: joinUrl(config.camaraBaseUrl as string, config.camaraSimSwapPath),
      operation: config.camaraSimSwapOperation,
      maxAgeHours: simSwapWindowHours,
      token: new ClientCredentialsToken(
        'camara',
        {
          tokenUrl: config.camaraTokenUrl as string,
          clientId: config.camaraClientId as string,
          clientSecret: config.camaraClientSecret as string,
          scope: config.camaraScope ?? `sim-swap:${config.camaraSimSwapOperation}`,
        },
        clock,
      ),
    }),
});
