import type { TSchema } from '@sinclair/typebox';
import type { SettingsValues } from '../delivery/providers/settings.js';
import type { Clock } from '../domain/clock.js';
import type { LookupParts } from '../domain/number-intelligence.js';
import type { LookupProvider } from './interface.js';

/** What a lookup provider is built with besides its settings. */
export interface LookupContext {
  /** LOOKUP_SIM_SWAP_WINDOW_HOURS: the window asked of APIs that answer "changed within N hours?". */
  simSwapWindowHours: number;
  clock: Clock;
}

/**
 * Everything about one lookup provider, in its own folder: its settings (described as data, the
 * way src/delivery/providers do), what it can tell, and how it is built. The registry
 * (./registry.ts) lists them; LOOKUP_PROVIDER's choices, the configuration checks and the docs
 * derive from it.
 */
export interface LookupProviderModule<S extends Record<string, TSchema> = Record<string, TSchema>> {
  /** Its name in LOOKUP_PROVIDER. */
  name: string;
  /** Its name as sentences and the docs write it. */
  title: string;
  /** The API it calls, for docs/lookup.md. */
  api: string;
  /** What it can tell: the line type and carrier, the last SIM change, or both. */
  parts: LookupParts;
  /** Its settings; some may be a delivery provider's (the same account's credentials). */
  settings: S;
  /**
   * The settings it shares with a delivery provider: set for the lookup alone, they do not mean
   * that delivery provider is half configured.
   */
  shared?: readonly string[];
  /** The variables it still needs; empty when it is configured. */
  missing(config: SettingsValues<S>): string[];
  /** Its settings' values that cannot work (a private key that does not parse …), each naming its variable. */
  problems?(config: SettingsValues<S>): string[];
  /** The provider; called only when nothing is missing. */
  create(config: SettingsValues<S>, context: LookupContext): LookupProvider;
}

/** Declares a lookup provider module, keeping the type of its settings. */
export const defineLookupProvider = <S extends Record<string, TSchema>>(
  module: LookupProviderModule<S>,
): LookupProviderModule<S> => module;

/** The environment variables of `keys` among `settings` whose value is absent. */
export function missingOf(
  settings: Record<string, TSchema>,
  config: Record<string, unknown>,
  keys: readonly string[],
): string[] {
  return keys
    .filter((k) => config[k] === undefined)
    .map((k) => (settings[k] as unknown as { env: string }).env);
}
