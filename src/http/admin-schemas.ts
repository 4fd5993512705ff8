import { type TInteger, type TSchema, Type } from '@sinclair/typebox';
import { ACCOUNT_LIMITS, ACCOUNT_ONLY_SETTINGS, type AccountLimitName } from '../domain/account-limits.js';
import { CHANNELS, PHONE_CHANNEL_TITLES } from '../domain/channels/registry.js';
import { LINK_SETTINGS } from '../domain/link-settings.js';
import { MESSAGE_SETTINGS } from '../domain/message-settings.js';
import {
  NUMBER_INTELLIGENCE_SETTING_NAMES,
  NUMBER_INTELLIGENCE_SETTINGS,
  type NumberIntelligenceSettingName,
} from '../domain/number-intelligence-settings.js';
import { BrandingPatch, BrandingSchema } from './branding-schema.js';
import { component, enumeration, envelope, ref } from './components.js';
import { pagedEnvelope } from './paging.js';
import { Channel, Locale, VerificationStatus } from './schemas.js';
import { VerificationMethod } from './verification-schemas.js';

/**
 * The admin API's accounts, API keys and outbox: requests and answers, each named once (see
 * components.ts). A setting, a limit: described in the domain and derived here.
 */

const ChannelList = Type.Array(ref(Channel), { minItems: 1, maxItems: CHANNELS.length, uniqueItems: true });

const nullable = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/** Each per-account limit, as its one description in the domain bounds it; null restores the default. */
const limitOverrides = Object.fromEntries(
  Object.entries(ACCOUNT_LIMITS).map(([name, l]) => [
    name,
    nullable(Type.Integer({ minimum: l.min, maximum: l.max, description: l.description })),
  ]),
) as { [K in AccountLimitName]: ReturnType<typeof nullable<TInteger>> };

/** The settings only an account sets, from the same description; null restores the default. */
const accountOnlyOverrides = Object.fromEntries(
  Object.entries(ACCOUNT_ONLY_SETTINGS).map(([name, o]) => {
    const bounds = { minimum: o.min, maximum: o.max, description: o.description };
    return [name, nullable(o.integer ? Type.Integer(bounds) : Type.Number(bounds))];
  }),
) as { [K in keyof typeof ACCOUNT_ONLY_SETTINGS]: ReturnType<typeof nullable<TInteger>> };

/** A number-intelligence setting's value, from its one description (number-intelligence-settings.ts). */
function numberIntelligenceSetting(name: NumberIntelligenceSettingName): TSchema {
  const s = NUMBER_INTELLIGENCE_SETTINGS[name];
  const description = s.description;
  switch (s.kind) {
    case 'choice':
      return Type.String({ enum: [...s.values], description });
    case 'list':
      return Type.Array(Type.String({ enum: [...s.values] }), {
        uniqueItems: true,
        maxItems: s.values.length,
        description,
      });
    case 'integer':
      return Type.Integer({ minimum: s.min, maximum: s.max, description });
    case 'boolean':
      return Type.Boolean({ description });
  }
}

const numberIntelligenceSettings = <T>(wrap: (schema: TSchema) => T) =>
  Object.fromEntries(
    NUMBER_INTELLIGENCE_SETTING_NAMES.map((name) => [name, wrap(numberIntelligenceSetting(name))]),
  ) as Record<NumberIntelligenceSettingName, T>;

/** A message setting's value, from its one description: the locale by name, the others by pattern. */
function messageSetting(name: keyof typeof MESSAGE_SETTINGS) {
  const s = MESSAGE_SETTINGS[name];
  if (s.enum !== null) return ref(Locale, { description: s.description });
  return Type.String({ pattern: s.pattern, maxLength: s.maxLength, description: s.description });
}

const messageSettings = <T>(wrap: (schema: TSchema) => T) =>
  Object.fromEntries(
    (Object.keys(MESSAGE_SETTINGS) as (keyof typeof MESSAGE_SETTINGS)[]).map((name) => [
      name,
      wrap(messageSetting(name)),
    ]),
  ) as Record<keyof typeof MESSAGE_SETTINGS, T>;

/** The origins a magic link may redirect to, from their one description (link-settings.ts). */
const { linkRedirectOrigins: linkOrigins } = LINK_SETTINGS;
const LinkRedirectOrigins = Type.Array(
  Type.String({ minLength: 1, maxLength: linkOrigins.maxLength, examples: ['https://app.example.com'] }),
  { maxItems: linkOrigins.maxItems, uniqueItems: true, description: linkOrigins.description },
);

const CountryList = Type.Array(Type.String({ pattern: '^([A-Za-z]{2}|\\*)$' }), {
  maxItems: 250,
  description: `ISO 3166-1 alpha-2 codes ${PHONE_CHANNEL_TITLES} may reach; \`*\` or absent: every country.`,
});

/** Per-account overrides; null returns a setting to the deployment default. */
export const AccountSettingsPatch = component(
  'AccountSettingsPatch',
  Type.Object(
    {
      ...limitOverrides,
      ...accountOnlyOverrides,
      ...numberIntelligenceSettings(nullable),
      ...messageSettings(nullable),
      linkRedirectOrigins: nullable(LinkRedirectOrigins),
      allowedCountries: nullable(CountryList),
      branding: nullable(ref(BrandingPatch)),
    },
    {
      additionalProperties: false,
      description: "Overrides of the deployment's defaults; absent fields stay, null restores the default.",
    },
  ),
);

/** The overrides an account holds: only those it set (derived from the same descriptions). */
const AccountSettings = component(
  'AccountSettings',
  Type.Object(
    {
      ...Object.fromEntries(
        Object.entries(ACCOUNT_LIMITS).map(([name, l]) => [
          name,
          Type.Optional(Type.Integer({ description: l.description })),
        ]),
      ),
      ...Object.fromEntries(
        Object.entries(ACCOUNT_ONLY_SETTINGS).map(([name, o]) => [
          name,
          Type.Optional(
            o.integer
              ? Type.Integer({ description: o.description })
              : Type.Number({ description: o.description }),
          ),
        ]),
      ),
      ...numberIntelligenceSettings(Type.Optional),
      ...messageSettings(Type.Optional),
      linkRedirectOrigins: Type.Optional(LinkRedirectOrigins),
      allowedCountries: Type.Optional(CountryList),
      branding: Type.Optional(ref(BrandingSchema)),
    },
    { description: "The account's own settings; absent ones are the deployment's defaults." },
  ),
);

export const Account = component(
  'Account',
  Type.Object({
    id: Type.String({ examples: ['acc_default'] }),
    name: Type.String(),
    settings: ref(AccountSettings),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

export const CreateAccountRequest = component(
  'CreateAccountRequest',
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    settings: Type.Optional(ref(AccountSettingsPatch)),
  }),
);

export const CreateApiKeyRequest = component(
  'CreateApiKeyRequest',
  Type.Object({
    name: Type.String({ minLength: 1, maxLength: 100 }),
    channels: ChannelList,
    accountId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Default: the default account.' }),
    ),
    test: Type.Optional(Type.Boolean({ description: 'Test keys deliver every message to the outbox only.' })),
  }),
);

export const UpdateApiKeyRequest = component(
  'UpdateApiKeyRequest',
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      channels: Type.Optional(ChannelList),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
);

/** An API key as the admin API shows it: never its secret or hash. */
export const ApiKey = component(
  'ApiKey',
  Type.Object({
    id: Type.String({ examples: ['key_0193a1b2c3d4e5f6a7b8c9d0'] }),
    name: Type.String(),
    prefix: Type.String({ description: 'The first characters of the secret.' }),
    channels: Type.Array(ref(Channel)),
    accountId: Type.String(),
    test: Type.Boolean({ description: 'A test key: its messages go to the outbox only.' }),
    createdAt: Type.String({ format: 'date-time' }),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the key last authenticated a request, to within a minute; null if never.',
    }),
  }),
);

/** A key with its secret: the only answers that show it (creation and rotation). */
export const CreatedApiKey = component(
  'CreatedApiKey',
  Type.Intersect(
    [
      ref(ApiKey),
      Type.Object({
        key: Type.String({
          description:
            'The secret (`cvk_live_…` or `cvk_test_…`): shown only in this answer, only its hash is kept.',
        }),
        replaces: Type.Optional(Type.String({ description: 'Rotation only: the id of the key it revoked.' })),
      }),
    ],
    { description: 'A new API key with its secret.' },
  ),
);

/** An outbox message as the recipient would see it; documented, and serialised by this schema. */
export const OutboxMessage = component(
  'OutboxMessage',
  Type.Object({
    id: Type.String({ description: '`msg_` and the request id without dashes.' }),
    accountId: Type.String({ description: 'The account the request belongs to.' }),
    requestId: Type.String({ format: 'uuid', description: 'The verification request it delivered.' }),
    groupId: Type.String({
      format: 'uuid',
      description:
        "Shared by both requests of a dual send (the first one's id); a single send's is its own `requestId`.",
    }),
    siblingRequestId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'Dual sends only: the other request of the pair, as on the verification resource. Its message is in the outbox too when the outbox took it (`?requestId=` finds it).',
      }),
    ),
    status: ref(VerificationStatus, { description: 'The state of that request now.' }),
    verifiedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description: 'When the request was verified; with `status: verified` only.',
      }),
    ),
    method: Type.Optional(
      ref(VerificationMethod, { description: 'How the request was verified; with `status: verified` only.' }),
    ),
    channel: ref(Channel),
    to: Type.String({ description: 'The full destination.' }),
    subject: Type.Optional(Type.String({ description: 'EMAIL only.' })),
    text: Type.String({
      description: 'The message text; the code shows masked once the request has left pending.',
    }),
    html: Type.Optional(Type.String({ description: 'EMAIL only.' })),
    code: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4,10}$',
        description:
          'Test-mode requests only (made with a test key), while pending: the code in clear, for automated tests to read without parsing `text`. Never present for live requests.',
        examples: ['042817'],
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);

const SettingSource = enumeration(
  'SettingSource',
  ['default', 'environment', 'account'] as const,
  "default: the built-in value; environment: the deployment's variable (or CONFIG_FILE); account: this account's override.",
);
const numberOrNull = (description?: string) => Type.Union([Type.Number(), Type.Null()], { description });
const CountriesOrNull = Type.Union([Type.Array(Type.String()), Type.Null()], {
  description: 'ISO 3166-1 alpha-2 codes; null: every country.',
});

const SettingInForce = component(
  'SettingInForce',
  Type.Object({
    name: Type.String({ description: 'As in PATCH /v1/admin/accounts/{id}/settings.' }),
    value: numberOrNull('In force; null: off.'),
    source: ref(SettingSource),
    deployment: numberOrNull('What an account without an override gets.'),
    default: numberOrNull('Built in.'),
    env: Type.Union([Type.String(), Type.Null()], {
      description: 'The deployment variable; null for a setting only an account sets.',
    }),
    min: Type.Number(),
    max: Type.Number(),
    description: Type.String(),
  }),
);

const NumberIntelligenceValue = Type.Union(
  [Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String()), Type.Null()],
  { description: 'A word, a number, a boolean or a list of words, as the setting takes; null: off.' },
);

const NumberIntelligenceSettingInForce = component(
  'NumberIntelligenceSettingInForce',
  Type.Object({
    name: Type.String({
      enum: [...NUMBER_INTELLIGENCE_SETTING_NAMES],
      description: 'As in PATCH /v1/admin/accounts/{id}/settings.',
    }),
    value: NumberIntelligenceValue,
    source: ref(SettingSource),
    default: NumberIntelligenceValue,
    allowed: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'The values it (or each item of its list) may take; null for a number or a boolean.',
    }),
    min: numberOrNull('The smallest number it takes; null when it is not a number.'),
    max: numberOrNull('The largest number it takes; null when it is not a number.'),
    description: Type.String(),
  }),
);

const stringOrNull = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

const MessageSettingInForce = component(
  'MessageSettingInForce',
  Type.Object({
    name: Type.String({ enum: Object.keys(MESSAGE_SETTINGS), description: 'locale, webOtpHost or appHash.' }),
    value: stringOrNull('In force; null: none.'),
    source: ref(SettingSource),
    deployment: stringOrNull('What an account without its own value gets.'),
    env: stringOrNull('The deployment variable that sets it for every account; null: none.'),
    allowed: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: 'The values it may take (the supported locales); null: any matching its pattern.',
    }),
    description: Type.String(),
  }),
);

const LinkSettingInForce = component(
  'LinkSettingInForce',
  Type.Object({
    name: Type.String({ enum: Object.keys(LINK_SETTINGS), description: 'linkRedirectOrigins.' }),
    value: Type.Array(Type.String(), { description: 'In force, each origin as browsers write it.' }),
    source: ref(SettingSource),
    default: Type.Array(Type.String()),
    description: Type.String(),
  }),
);

/** The settings an account may override, each with the value in force and where it comes from. */
const AccountLimits = component(
  'AccountLimits',
  Type.Object({
    accountId: Type.String(),
    limits: Type.Array(ref(SettingInForce)),
    numberIntelligence: Type.Array(ref(NumberIntelligenceSettingInForce), {
      description:
        "Carrier lookups, their refusals and SILENT's timeout: set only by the account (`source` is `default` or `account`).",
    }),
    messages: Type.Array(ref(MessageSettingInForce), {
      description: 'The default locale and the SMS one-tap lines (webOtpHost, appHash).',
    }),
    links: Type.Array(ref(LinkSettingInForce), {
      description:
        'Where magic links may redirect: set only by the account (`source` is `default` or `account`).',
    }),
    allowedCountries: Type.Object({
      value: CountriesOrNull,
      source: ref(SettingSource),
      deployment: CountriesOrNull,
    }),
  }),
);

export const AccountLimitsResponse = envelope('AccountLimitsResponse', ref(AccountLimits));
export const AccountResponse = envelope('AccountResponse', ref(Account));
export const AccountListResponse = envelope('AccountListResponse', Type.Array(ref(Account)));
export const ApiKeyResponse = envelope('ApiKeyResponse', ref(ApiKey));
export const ApiKeyListResponse = envelope('ApiKeyListResponse', Type.Array(ref(ApiKey)));
export const CreatedApiKeyResponse = envelope('CreatedApiKeyResponse', ref(CreatedApiKey));
export const OutboxMessageListResponse = pagedEnvelope(
  'OutboxMessageListResponse',
  ref(OutboxMessage),
  'Newest first.',
);
