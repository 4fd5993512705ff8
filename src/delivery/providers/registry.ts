import type { TSchema } from '@sinclair/typebox';
import type { Channel } from '../../domain/types.js';
import type { ProviderModule } from './module.js';
import { smtp } from './smtp/index.js';
import { telnyx } from './telnyx/index.js';
import { telnyxVoice } from './telnyx-voice/index.js';
import { twilio } from './twilio/index.js';
import { twilioVerify } from './twilio-verify/index.js';
import { twilioVoice } from './twilio-voice/index.js';
import { vonage } from './vonage/index.js';
import { vonageVerify } from './vonage-verify/index.js';
import { vonageVoice } from './vonage-voice/index.js';
import { whatsapp, whatsappCall } from './whatsapp/index.js';

/**
 * Every provider, once. The configuration schema, the settings documentation, the factory, the
 * country routes of SMS and the other routed channels (which names `<CHANNEL>_ROUTES` accepts,
 * and the default order: the order of the channel's providers here), /health and the callback
 * routes all iterate this list: a new provider is a folder with an index.ts and one line here.
 */
export const PROVIDERS = [
  smtp,
  twilio,
  vonage,
  telnyx,
  whatsapp,
  whatsappCall,
  twilioVoice,
  vonageVoice,
  telnyxVoice,
  twilioVerify,
  vonageVerify,
] as const;

/** A list of providers: PROVIDERS, or one that adds to it (compose and loadConfig take one). */
export type ProviderList = readonly ProviderModule[];

/** The names of the providers of `channel` in `providers`, in its order: a routed channel's default route. */
export const providerNames = (providers: ProviderList, channel: Channel): string[] =>
  providers.filter((p) => p.channel === channel).map((p) => p.name);

/** The settings of every provider of `providers`, by name, as one object. */
export const settingsOf = (providers: ProviderList): Record<string, TSchema> =>
  Object.assign({}, ...providers.map((p) => p.settings));

type Intersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** The settings of every registered provider, typed, for the configuration schema. */
export const providerSettings = settingsOf(PROVIDERS) as Intersection<(typeof PROVIDERS)[number]['settings']>;
