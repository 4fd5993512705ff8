import {
  LINE_TYPES,
  LOOKUP_SCOPES,
  type NumberIntelligenceSettings,
  SIM_SWAP_ACTIONS,
} from './number-facts.js';

/**
 * The account settings of number intelligence and silent verification, described once: the admin
 * API's PATCH schema and answer (src/http/admin-schemas.ts), the settings in force
 * (settings.ts) and the types below derive from this table. None has a deployment variable: an
 * account turns lookups on for itself, since they cost money per number.
 */
export const NUMBER_INTELLIGENCE_SETTINGS = {
  lookup: {
    kind: 'choice',
    values: LOOKUP_SCOPES,
    default: 'off',
    description:
      'Carrier lookups (line type, carrier, SIM change) before a send: `off`, `sms_voice` (SMS and VOICE) or `all_phone` (every phone channel). Needs LOOKUP_PROVIDER; each lookup is billed by the provider, at most once per number per cache period.',
  },
  refuseLineTypes: {
    kind: 'list',
    values: LINE_TYPES,
    default: [],
    description:
      'Line types refused with 400 UNSUPPORTED_NUMBER (`details[].field`: `lineType`), e.g. `["voip","landline"]`. Needs `lookup`.',
  },
  simSwapHours: {
    kind: 'integer',
    min: 1,
    max: 2400,
    default: null,
    description:
      'A SIM change within this many hours adds the risk signal `sim_swap` (needs `lookup` and a provider that knows SIM changes); null: the SIM is not looked up.',
  },
  simSwapAction: {
    kind: 'choice',
    values: SIM_SWAP_ACTIONS,
    default: 'signal',
    description:
      '`signal`: a recent SIM change is a risk signal; `refuse`: the send is refused with 403 RISK_TOO_HIGH naming `sim_swap`.',
  },
  lookupFailClosed: {
    kind: 'boolean',
    default: false,
    description:
      'When a lookup fails or takes longer than LOOKUP_TIMEOUT_MS: false adds the signal `lookup_unavailable` and sends; true refuses with 403 RISK_TOO_HIGH naming `lookup_unavailable`.',
  },
  silentTimeoutSeconds: {
    kind: 'integer',
    min: 5,
    max: 600,
    default: 30,
    description:
      'SILENT: how long a silent verification may take before the code of its `fallback` channel is sent.',
  },
} as const satisfies Record<
  keyof NumberIntelligenceSettings,
  | { kind: 'choice'; values: readonly string[]; default: string; description: string }
  | { kind: 'list'; values: readonly string[]; default: readonly string[]; description: string }
  | { kind: 'integer'; min: number; max: number; default: number | null; description: string }
  | { kind: 'boolean'; default: boolean; description: string }
>;

export type NumberIntelligenceSettingName = keyof typeof NUMBER_INTELLIGENCE_SETTINGS;
export const NUMBER_INTELLIGENCE_SETTING_NAMES = Object.keys(
  NUMBER_INTELLIGENCE_SETTINGS,
) as NumberIntelligenceSettingName[];

/** The values an account may hold (absent: the default). */
export type NumberIntelligenceOverrides = {
  [K in NumberIntelligenceSettingName]?: K extends 'refuseLineTypes'
    ? NumberIntelligenceSettings[K][number][]
    : Exclude<NumberIntelligenceSettings[K], null>;
};

export const numberIntelligenceDefaults = (): NumberIntelligenceSettings => ({
  lookup: NUMBER_INTELLIGENCE_SETTINGS.lookup.default,
  refuseLineTypes: [],
  simSwapHours: NUMBER_INTELLIGENCE_SETTINGS.simSwapHours.default,
  simSwapAction: NUMBER_INTELLIGENCE_SETTINGS.simSwapAction.default,
  lookupFailClosed: NUMBER_INTELLIGENCE_SETTINGS.lookupFailClosed.default,
  silentTimeoutSeconds: NUMBER_INTELLIGENCE_SETTINGS.silentTimeoutSeconds.default,
});

/**
 * The value of `name` an account holds, if it is one the setting takes. The admin API validates
 * what it stores; this keeps a value written by another version (or by hand) from reaching a send.
 */
export function ownNumberIntelligenceValue(
  name: NumberIntelligenceSettingName,
  value: unknown,
): NumberIntelligenceSettings[typeof name] | undefined {
  const s = NUMBER_INTELLIGENCE_SETTINGS[name];
  switch (s.kind) {
    case 'choice':
      return typeof value === 'string' && (s.values as readonly string[]).includes(value)
        ? (value as NumberIntelligenceSettings[typeof name])
        : undefined;
    case 'list':
      return Array.isArray(value) && value.every((v) => (s.values as readonly string[]).includes(v))
        ? ([...new Set(value)] as NumberIntelligenceSettings[typeof name])
        : undefined;
    case 'integer':
      return Number.isInteger(value) && (value as number) >= s.min && (value as number) <= s.max
        ? (value as number)
        : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
  }
}

/** The settings in force for an account holding `own` (its stored settings). */
export function numberIntelligenceOf(own: Readonly<Record<string, unknown>>): NumberIntelligenceSettings {
  const settings = numberIntelligenceDefaults() as unknown as Record<string, unknown>;
  for (const name of NUMBER_INTELLIGENCE_SETTING_NAMES) {
    const value = ownNumberIntelligenceValue(name, own[name]);
    if (value !== undefined) settings[name] = value;
  }
  return settings as unknown as NumberIntelligenceSettings;
}
