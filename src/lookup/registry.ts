import type { TSchema } from '@sinclair/typebox';
import type { LookupProviderModule } from './module.js';
import { camara } from './providers/camara/index.js';
import { telnyx } from './providers/telnyx/index.js';
import { twilio } from './providers/twilio/index.js';
import { vonage } from './providers/vonage/index.js';

/**
 * Every lookup provider, once. LOOKUP_PROVIDER's choices, the configuration schema and its checks,
 * the factory and docs/lookup.md iterate this list: a new provider is a folder with an index.ts and
 * one line here.
 */
export const LOOKUP_PROVIDERS = [twilio, vonage, telnyx, camara] as const;

export type LookupProviderName = (typeof LOOKUP_PROVIDERS)[number]['name'];

type Intersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** The settings of every lookup provider, typed, for the configuration schema. */
export const lookupProviderSettings = Object.assign(
  {},
  ...LOOKUP_PROVIDERS.map((p) => p.settings),
) as Intersection<(typeof LOOKUP_PROVIDERS)[number]['settings']>;

/** The module named `name`. */
export const lookupProviderNamed = (name: string): LookupProviderModule | undefined =>
  (LOOKUP_PROVIDERS as readonly LookupProviderModule<Record<string, TSchema>>[]).find((p) => p.name === name);
