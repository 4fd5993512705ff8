import { smtp } from './smtp/index.js';
import { telnyx } from './telnyx/index.js';
import { twilio, twilioVoice } from './twilio/index.js';
import { vonage } from './vonage/index.js';
import { whatsapp } from './whatsapp/index.js';

/**
 * Every provider, once. Settings, the factory, the default SMS routing order (the order of the
 * SMS providers here) and the callback routes all iterate this list: a new provider is a folder
 * with an index.ts and one line here.
 */
export const PROVIDERS = [smtp, twilio, vonage, telnyx, whatsapp, twilioVoice] as const;

type Intersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** The settings of every provider, by name, as one object for the configuration schema. */
export const providerSettings = Object.assign({}, ...PROVIDERS.map((p) => p.settings)) as Intersection<
  (typeof PROVIDERS)[number]['settings']
>;
