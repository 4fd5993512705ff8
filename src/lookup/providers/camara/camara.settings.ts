import { Type } from '@sinclair/typebox';
import {
  providerDefault,
  providerString,
  type SettingsValues,
} from '../../../delivery/providers/settings.js';

const url = (env: string, description: string) =>
  providerString('camara', { env, required: true, description, pattern: '^https?://[^\\s]+$' });

/** A CAMARA SIM Swap endpoint of an operator or an aggregator, reached with OAuth 2.0 client credentials. */
export const camaraSettings = {
  camaraBaseUrl: url(
    'CAMARA_BASE_URL',
    "The API root of the operator's or aggregator's CAMARA APIs (`{apiRoot}`; CAMARA_SIM_SWAP_PATH follows it).",
  ),
  camaraTokenUrl: url(
    'CAMARA_TOKEN_URL',
    'The OAuth 2.0 token endpoint of the operator or aggregator (client credentials grant).',
  ),
  camaraClientId: providerString('camara', {
    env: 'CAMARA_CLIENT_ID',
    required: true,
    description: 'OAuth 2.0 client id given at onboarding.',
  }),
  camaraClientSecret: providerString('camara', {
    env: 'CAMARA_CLIENT_SECRET',
    required: true,
    secret: true,
    description: 'OAuth 2.0 client secret (sent with HTTP Basic to the token endpoint).',
  }),
  camaraScope: providerString('camara', {
    env: 'CAMARA_SCOPE',
    description:
      'Scope asked with the token; default `sim-swap:retrieve-date` or `sim-swap:check`, as CAMARA_SIM_SWAP_OPERATION says.',
  }),
  camaraSimSwapPath: providerDefault(
    'camara',
    'CAMARA_SIM_SWAP_PATH',
    '/sim-swap/v2',
    'Path of the SIM Swap API under CAMARA_BASE_URL (its version as the operator publishes it).',
  ),
  camaraSimSwapOperation: Type.Union([Type.Literal('retrieve-date'), Type.Literal('check')], {
    env: 'CAMARA_SIM_SWAP_OPERATION',
    default: 'retrieve-date',
    provider: 'camara',
    description:
      '`retrieve-date` asks the date of the last SIM change; `check` asks whether it changed within LOOKUP_SIM_SWAP_WINDOW_HOURS (for operators that implement only that one).',
  }),
};

export type CamaraConfig = SettingsValues<typeof camaraSettings>;
