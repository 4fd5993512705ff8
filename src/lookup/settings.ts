import { type Static, type TObject, Type } from '@sinclair/typebox';
import { LOOKUP_PROVIDERS, lookupProviderNamed, lookupProviderSettings } from './registry.js';

const int = (env: string, def: number, min: number, max: number, description: string) =>
  Type.Integer({ env, default: def, minimum: min, maximum: max, description });

/** The lookups' own settings; each provider's are in its folder (the registry gathers them). */
const commonSettings = {
  lookupProvider: Type.Optional(
    Type.Union(
      LOOKUP_PROVIDERS.map((p) => Type.Literal(p.name)),
      {
        env: 'LOOKUP_PROVIDER',
        description: `The carrier lookup provider: ${LOOKUP_PROVIDERS.map((p) => `\`${p.name}\` (${p.title})`).join(', ')}. Unset: accounts that turn \`lookup\` on get \`lookup_unavailable\` (test keys still get the test numbers' answers).`,
      },
    ),
  ),
  lookupTimeoutMs: int(
    'LOOKUP_TIMEOUT_MS',
    1500,
    50,
    30_000,
    "The budget of one lookup, an OAuth token's request included: past it the send goes on with `lookup_unavailable` (or is refused under the account's `lookupFailClosed`).",
  ),
  lookupLineCacheSeconds: int(
    'LOOKUP_LINE_CACHE_SECONDS',
    7 * 86_400,
    60,
    90 * 86_400,
    "How long a number's line type and carrier are reused before it is looked up again (shared by every instance: Redis when REDIS_URL is set, else the database).",
  ),
  lookupSimCacheSeconds: int(
    'LOOKUP_SIM_CACHE_SECONDS',
    3600,
    60,
    86_400,
    "How long a number's last SIM change is reused before it is looked up again.",
  ),
  lookupSimSwapWindowHours: int(
    'LOOKUP_SIM_SWAP_WINDOW_HOURS',
    240,
    1,
    2400,
    'The window asked of lookup APIs that answer "did the SIM change within N hours?" (where the carrier gives no date); an account whose `simSwapHours` is smaller gets a possible `sim_swap` of half the weight from a change within it, never a refusal.',
  ),
};

/** Every lookup setting, spread into the configuration schema (src/config/schema.ts). */
export const lookupSettings = { ...commonSettings, ...lookupProviderSettings };

/** The lookup part of the parsed configuration. */
export type LookupConfig = Static<TObject<typeof lookupSettings>>;

/**
 * The settings the chosen provider shares with a delivery provider (the same account's
 * credentials): set for lookups alone, they do not half-configure that delivery provider.
 */
export function sharedWithDelivery(config: { lookupProvider?: string }): ReadonlySet<string> {
  const module = config.lookupProvider ? lookupProviderNamed(config.lookupProvider) : undefined;
  return new Set(module?.shared ?? []);
}

/** Mistakes of the lookup configuration, each naming its variable. */
export function lookupConfigProblems(config: LookupConfig): string[] {
  const module = config.lookupProvider ? lookupProviderNamed(config.lookupProvider) : undefined;
  if (!module) return [];
  const values = config as unknown as Record<string, unknown>;
  const missing = module.missing(values as never);
  if (missing.length > 0)
    return [`LOOKUP_PROVIDER=${module.name}: ${module.title} needs ${missing.join(', ')}`];
  return module.problems?.(values as never) ?? [];
}
