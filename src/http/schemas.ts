import { type TSchema, Type } from '@sinclair/typebox';
import type { preValidationHookHandler } from 'fastify';
import {
  CHANNEL_SPECS,
  CHANNELS,
  channelsTo,
  FALLBACK_CHANNELS,
  listed,
} from '../domain/channels/registry.js';
import { MAX_REDIRECT_URL_LENGTH } from '../domain/links.js';
import { LOCALES } from '../domain/locales.js';
import {
  LINE_TYPE_WEIGHTS,
  LOOKUP_UNAVAILABLE_WEIGHT,
  NUMBER_SIGNALS,
  POSSIBLE_SIM_SWAP_WEIGHT,
  SIM_SWAP_WEIGHT,
} from '../domain/number-intelligence.js';
import { RISK_SIGNALS } from '../domain/risk.js';
import { DELIVERY_TYPES, VERIFICATION_STATUSES } from '../domain/types.js';
import { component, enumeration, envelope, ref } from './components.js';
import { ERROR_CODES } from './errors.js';

/**
 * Request and response schemas of the public API and the schemas every part shares. Fastify
 * validates requests with them, serialises answers with them, and @fastify/swagger turns the same
 * objects into the OpenAPI document, each named one under `components.schemas`.
 */

export const enumOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });

export const Channel = enumeration(
  'Channel',
  CHANNELS,
  `Delivery channel: ${CHANNEL_SPECS.map((c) => `\`${c.name}\`, ${c.description}`).join('; ')}.`,
);

/** The channels whose destination is `phone`, as a sentence lists them. */
const PHONE_CHANNELS = listed(channelsTo('phone'));
/** The channels that offer a delivery type other than the default TEXT. */
const TYPED_CHANNELS = listed(CHANNEL_SPECS.filter((c) => c.deliveryTypes.length > 0).map((c) => c.name));
export const DeliveryType = enumeration(
  'DeliveryType',
  DELIVERY_TYPES,
  `How a ${TYPED_CHANNELS} code is delivered: TEXT (a message, the default) or CALL (a WhatsApp call that speaks the code twice in the request's locale; without the user's call permission WhatsApp's permission request is sent first and the delivery is \`awaiting_permission\`; a reject, no reply or no answer before the code expires makes it \`undelivered\` with a reason). The send answers 200 \`pending\` at once; the call follows. A phone call to any number is the VOICE channel.`,
);
export const VerificationStatus = enumeration(
  'VerificationStatus',
  VERIFICATION_STATUSES,
  'State of a verification request: pending → verified | expired | failed (attempts used up) | canceled (superseded, canceled through the API, or its dual sibling was verified: of a dual pair, the request whose code matched is verified and the other canceled).',
);
/** Test and live keys are two worlds inside an account. */
export const Mode = enumeration('Mode', ['live', 'test'] as const, 'Requests of live keys, or of test keys.');

/** The locales messages are written in (src/domain/locales.ts). */
export const Locale = enumeration(
  'Locale',
  LOCALES,
  'A locale with built-in texts, as a BCP 47 tag. ar, he and fa are written right to left.',
);

/** A BCP 47 language tag, as send-code and the branding preview take it. */
export const LocaleTag = Type.String({
  maxLength: 35,
  pattern: '^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*$',
  description: `BCP 47 language tag of the recipient (\`_\` is read as \`-\`). Matched to a supported locale (${LOCALES.join(', ')}): exactly, then by language, taking script or region into account where a language has two locales (\`zh-Hant\`, \`zh-HK\` → zh-TW; \`pt-AO\` → pt-PT; \`pt\` → pt-BR; \`zh\` → zh-CN), then the language alone (\`fr-CA\` → fr, \`es-419\` → es, \`nn\`, \`no\` → nb). A well-formed tag of another language falls through to the account's default \`locale\`, then the phone number's country, then \`en\`; a malformed one is refused (400 VALIDATION_ERROR).`,
  examples: ['pt-BR'],
});

const phoneField = (description: string) =>
  Type.Optional(Type.String({ maxLength: 32, description, examples: ['+14155552671'] }));

/** Named send-code requests: one per way of sending, each valid as it stands. */
export const SEND_CODE_EXAMPLES = [
  {
    name: 'singleEmail',
    summary: 'One channel: email',
    value: {
      channel: 'EMAIL',
      email: 'jane@example.com',
      purpose: 'sign-in',
      customMessage: 'Welcome back!',
    },
  },
  {
    name: 'emailWithLink',
    summary: 'Email with a magic link beside the code (needs PUBLIC_BASE_URL)',
    value: { channel: 'EMAIL', email: 'ada@example.com', link: {} },
  },
  { name: 'singleSms', summary: 'One channel: SMS', value: { channel: 'SMS', phone: '+14155552671' } },
  {
    name: 'dual',
    summary: 'Two channels at once: email and SMS',
    value: {
      channels: ['EMAIL', 'SMS'],
      email: 'sam@example.com',
      phone: '+14155552672',
      purpose: 'sign-up',
    },
  },
  {
    name: 'voiceCall',
    summary: 'A phone call that reads the code',
    value: { channel: 'VOICE', phone: '+447911123456', locale: 'en-GB' },
  },
  {
    name: 'silentWithFallback',
    summary: 'Silent network authentication, with an SMS code if it fails or times out',
    value: { channel: 'SILENT', phone: '+447911123457', fallback: 'SMS' },
  },
] as const;

/** send-code's `link`: a magic link beside the code in the email (docs/links.md). */
const SendLink = component(
  'SendLink',
  Type.Object(
    {
      redirectUrl: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: MAX_REDIRECT_URL_LENGTH,
          examples: ['https://app.example.com/welcome'],
          description:
            "Where the link's browser goes once it verified, with `requestId` and `status=verified` added to its query: `https:` (or `http:` on localhost), no user name or password, and an origin that is exactly one of the account's `linkRedirectOrigins`. Absent: the service's own \"verified\" page.",
        }),
      ),
    },
    {
      additionalProperties: false,
      description:
        'EMAIL only (single or dual): the email carries a link `<PUBLIC_BASE_URL>/v1/links/<token>` beside the code, valid as long as the code and used up with it (whichever is used first consumes both, and the dual sibling). Opening the link shows a confirmation page; its button verifies. `{}`: a link without a redirect. Needs PUBLIC_BASE_URL.',
    },
  ),
);

export const SendCodeBody = component(
  'SendCodeRequest',
  Type.Object(
    {
      channel: Type.Optional(ref(Channel, { description: 'One channel.' })),
      channels: Type.Optional(
        Type.Array(ref(Channel), {
          minItems: 2,
          maxItems: 2,
          uniqueItems: true,
          description: 'Dual-channel mode: exactly two different channels, sent in parallel.',
        }),
      ),
      email: Type.Optional(
        Type.String({
          format: 'idn-email',
          maxLength: 254,
          description:
            'Required when EMAIL is used. The domain may be internationalised (IDN). The code goes to the address as given; blocks, limits and contacts hold for its canonical mailbox (lower case, no +tag, no dots in a gmail.com local part, the domain in punycode; Fastmail subdomain addresses `x@jane.fastmail.com` as `jane@fastmail.com`, Yahoo disposable addresses `jane-x@yahoo.com` as `jane-@yahoo.com`).',
        }),
      ),
      phone: phoneField(
        `Required when ${PHONE_CHANNELS.replace(' and ', ' or ')} is used: + and country code. The code goes to the number as given; blocks, limits and contacts hold for the subscriber it reaches (an Argentine mobile dialled without its 9, \`+541112345678\`, is \`+5491112345678\`).`,
      ),
      whatsappNumber: phoneField('Alternative name of `phone`.'),
      phoneNumber: phoneField('Alternative name of `phone`.'),
      country: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z]{2}$',
          description: 'ISO 3166-1 alpha-2, any case; inferred from the number when omitted.',
        }),
      ),
      deliveryType: Type.Optional(
        ref(DeliveryType, { description: `${TYPED_CHANNELS} only: TEXT (default) or CALL.` }),
      ),
      purpose: Type.Optional(
        Type.String({ maxLength: 100, description: 'Free-text label for logs and analytics.' }),
      ),
      customMessage: Type.Optional(
        Type.String({ maxLength: 500, description: 'Plain text added to the email body (HTML-escaped).' }),
      ),
      locale: Type.Optional(LocaleTag),
      fallback: Type.Optional(
        Type.Unsafe<(typeof FALLBACK_CHANNELS)[number]>({
          type: 'string',
          enum: [...FALLBACK_CHANNELS],
          description: `SILENT only (\`channel: "SILENT"\`): the channel (${listed(FALLBACK_CHANNELS)}) that sends a code, as the request's dual sibling, when the silent check fails (at once) or has not succeeded within the account's \`silentTimeoutSeconds\` (default 30). The key must be enabled for it. Either requestId then verifies the code; the \`verification.fallback\` event and the resource say so. Without it, a SILENT send whose provider fails answers 502 DELIVERY_FAILED.`,
        }),
      ),
      link: Type.Optional(ref(SendLink)),
    },
    {
      description: 'Exactly one of `channel` and `channels`.',
      // Whole requests, one per way of sending: the reference page offers them by name, and a test
      // posts each to the service.
      examples: SEND_CODE_EXAMPLES.map((e) => e.value),
    },
  ),
);

const RiskLevel = enumeration('RiskLevel', ['low', 'medium', 'high'] as const, 'The band of the score.');

const RiskSignal = component(
  'RiskSignal',
  Type.Object({
    name: Type.String({
      description: `${RISK_SIGNALS.join(', ')} (docs/analytics.md), or a carrier lookup's ${NUMBER_SIGNALS.slice(0, -1).join(', ')} or ${NUMBER_SIGNALS.at(-1)} (docs/lookup.md): line_type (${Object.entries(
        LINE_TYPE_WEIGHTS,
      )
        .filter(([, w]) => w > 0)
        .map(([t, w]) => `${t} ${w}`)
        .join(
          ', ',
        )}; it replaces number_type), sim_swap (${SIM_SWAP_WEIGHT} within the account's simSwapHours, ${POSSIBLE_SIM_SWAP_WEIGHT} when the carrier dates it only to a wider window), lookup_unavailable (${LOOKUP_UNAVAILABLE_WEIGHT}).`,
    }),
    weight: Type.Integer({ description: 'What it added to the score.' }),
    detail: Type.String(),
  }),
);

/** data.risk of a send entry: the fraud score of the send and the signals behind it. */
export const Risk = component(
  'Risk',
  Type.Object(
    {
      score: Type.Integer({ minimum: 0, maximum: 100 }),
      level: ref(RiskLevel),
      signals: Type.Array(ref(RiskSignal)),
    },
    {
      description: 'The fraud score of a send (0–100) and the signals behind it.',
      examples: [
        { score: 20, level: 'low', signals: [{ name: 'number_type', weight: 20, detail: 'a VOIP number' }] },
      ],
    },
  ),
);

export const SendCodeHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      description:
        'Optional, 1 to 255 printable ASCII characters. The same key with the same body (same account and mode) ' +
        'within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and sends nothing; ' +
        'another body answers 422 IDEMPOTENCY_KEY_REUSED; while the first request runs, 409 ' +
        'IDEMPOTENCY_KEY_IN_USE with `Retry-After: 1`. Answers 429 and 5xx are not kept: a retry runs again.',
      examples: ['signup-7f3a9c2e-1'],
    }),
  ),
});

const SendCodeEntryStatus = enumeration(
  'SendCodeEntryStatus',
  ['pending', 'undelivered'] as const,
  '`undelivered` only in a dual answer whose other channel was delivered.',
);

const SendCodeEntryError = component(
  'SendCodeEntryError',
  Type.Object(
    {
      code: Type.Unsafe<'DELIVERY_FAILED' | 'INVALID_DESTINATION' | 'CHANNEL_UNAVAILABLE'>({
        type: 'string',
        enum: ['DELIVERY_FAILED', 'INVALID_DESTINATION', 'CHANNEL_UNAVAILABLE'],
        description:
          "`CHANNEL_UNAVAILABLE`: the channel has no provider and live codes are not parked in the outbox; no request was created for this entry, so verify with the other entry's requestId.",
      }),
      message: Type.String(),
    },
    { description: 'Why the channel of an undelivered entry of a dual answer was not delivered.' },
  ),
);

const FallbackReason = enumeration(
  'FallbackReason',
  ['provider_failed', 'rejected', 'timeout'] as const,
  'Why a SILENT request fell back to a code: its provider failed (to start, or to answer a check), the network proved another SIM, or the device did not complete the check within `silentTimeoutSeconds`.',
);

/** The fallback code of a SILENT request, as send-code and verify-code answer it. */
export const SilentFallback = component(
  'SilentFallback',
  Type.Object(
    {
      requestId: Type.String({
        format: 'uuid',
        description: "The fallback code's request (the SILENT request's dual sibling).",
      }),
      channel: ref(Channel),
      status: ref(SendCodeEntryStatus),
      reason: ref(FallbackReason),
      expiresAt: Type.String({ format: 'date-time' }),
    },
    { description: 'The code a SILENT request fell back to: verify it with either requestId.' },
  ),
);

/** One channel's part of a send-code answer. */
export const SendCodeEntry = component(
  'SendCodeEntry',
  Type.Object({
    requestId: Type.String({ format: 'uuid', description: 'Keep it to verify the code.' }),
    channel: ref(Channel),
    status: ref(SendCodeEntryStatus),
    expiresAt: Type.String({ format: 'date-time' }),
    to: Type.String({ description: 'Masked destination.' }),
    deliveryType: Type.Optional(ref(DeliveryType, { description: `${TYPED_CHANNELS} only.` })),
    error: Type.Optional(ref(SendCodeEntryError)),
    risk: Type.Optional(ref(Risk)),
    silent: Type.Optional(
      Type.Object(
        {
          url: Type.String({
            format: 'uri',
            description:
              "Open it from the app on the user's device over mobile data (not Wi-Fi): the provider's URL (docs/silent.md); then call verify-code with the requestId (and the `code` the URL answered, when the provider hands one out). Test keys get a URL under `silent.test.invalid` that nothing answers.",
          }),
        },
        { description: 'SILENT only: how the device proves it holds the SIM.' },
      ),
    ),
    fallback: Type.Optional(
      ref(SilentFallback, {
        description: 'SILENT with `fallback`: the code sent at once because the silent start failed.',
      }),
    ),
  }),
);

export const SendCodeResponse = envelope(
  'SendCodeResponse',
  Type.Union([ref(SendCodeEntry), Type.Array(ref(SendCodeEntry), { minItems: 2, maxItems: 2 })], {
    description: 'An object for one channel; an array in the order of `channels` for two.',
  }),
);

const CodeField = (description: string, pattern = '^[0-9]{4,10}$') =>
  Type.Optional(Type.String({ pattern, description, examples: ['042817'] }));

/** Named verify-code requests. */
export const VERIFY_CODE_EXAMPLES = [
  {
    name: 'verify',
    summary: 'The code the user typed, for a requestId of send-code',
    value: { requestId: '0190a7c2-5b1e-7c3d-9f00-2b4b4c119497', otpCode: '042817' },
  },
  {
    name: 'verifySilent',
    summary: 'A SILENT request once the device opened silent.url (a provider that hands out no code)',
    value: { requestId: '0190a7c2-5b1e-7c3d-9f00-2b4b4c119498' },
  },
] as const;

export const VerifyCodeBody = component(
  'VerifyCodeRequest',
  Type.Object(
    {
      requestId: Type.String({ format: 'uuid', description: 'A requestId from send-code.' }),
      otpCode: CodeField('The code the user entered, as a string of digits.'),
      code: CodeField(
        'Alternative name of `otpCode`; for a SILENT request whose provider hands one out, the code the device received from `silent.url` (letters and digits).',
        '^([0-9]{4,10}|[A-Za-z0-9_-]{4,64})$',
      ),
    },
    {
      description:
        'One of `otpCode` and `code`; a SILENT request takes none (its provider is asked) or the code the device received from `silent.url`, when its provider hands one out.',
      examples: VERIFY_CODE_EXAMPLES.map((e) => e.value),
    },
  ),
);

export const VerifyCodeResult = component(
  'VerifyCodeResult',
  Type.Object({
    verified: Type.Boolean({ description: 'True only on the call that consumed the code.' }),
    channel: ref(Channel, { description: 'The channel on which the matching code was delivered.' }),
    requestId: Type.String({
      format: 'uuid',
      description:
        'On success, the request that was verified: in a dual pair the one whose code matched, which may be the other id than the one given (that one is now `canceled`). Otherwise the requestId given.',
    }),
    status: ref(VerificationStatus, { description: 'State of the verification request after this call.' }),
    attemptsRemaining: Type.Integer({ minimum: 0 }),
    silent: Type.Optional(
      Type.Object(
        {
          outcome: Type.Unsafe<'verified' | 'pending' | 'rejected' | 'invalid_number' | 'unavailable'>({
            type: 'string',
            enum: ['verified', 'pending', 'rejected', 'invalid_number', 'unavailable'],
            description:
              "`pending`: the device has not completed silent.url yet (docs/silent.md maps each provider's answers), call again; `rejected`: the network proved another SIM or the check failed (or the device's code was wrong), a fallback code follows when one was asked for; `invalid_number`: the carrier says the number is not in service, no fallback; `unavailable`: the provider could not be asked.",
          }),
          reason: Type.Optional(
            Type.String({ description: 'Why, in a sentence (never a code or a number).' }),
          ),
        },
        { description: 'SILENT only: what the provider concluded.' },
      ),
    ),
    fallback: Type.Optional(
      ref(SilentFallback, { description: 'SILENT: the fallback code the failed check of this call sent.' }),
    ),
  }),
);

export const VerifyCodeResponse = envelope('VerifyCodeResponse', ref(VerifyCodeResult));

export const ErrorCode = enumeration(
  'ErrorCode',
  ERROR_CODES,
  'The closed list of error codes: stable and machine-readable (the statuses are in the description of the API).',
);

const ErrorDetail = component(
  'ErrorDetail',
  Type.Object(
    {
      field: Type.String({
        description: 'A dotted path into the body, e.g. `channels` or `settings.branding.color`.',
      }),
      message: Type.String(),
      channel: Type.Optional(ref(Channel, { description: 'The channel the problem concerns, if one.' })),
    },
    { description: 'One problem with one field of the request.' },
  ),
);

const ApiError = component(
  'ApiError',
  Type.Object({
    code: ref(ErrorCode),
    message: Type.String({ description: 'What went wrong and what to do.' }),
    details: Type.Optional(Type.Array(ref(ErrorDetail), { description: 'One entry per problem.' })),
  }),
);

export const ErrorResponse = component(
  'ErrorResponse',
  Type.Object({ error: ref(ApiError) }, { description: 'The body of every error answer.' }),
);

/** A named answer of a route, with the description of that answer. */
export const answer = (schema: TSchema, description: string) => Type.Ref(schemaName(schema), { description });

const schemaName = (schema: TSchema) => {
  if (!schema.$id) throw new Error('answer() takes a schema made by component()');
  return schema.$id;
};

/** The error answers a route may give, keyed by status, each documented with its codes. */
export function errorResponses(codes: Record<number, string>): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  for (const [status, description] of Object.entries(codes)) {
    out[Number(status)] = answer(ErrorResponse, description);
  }
  return out;
}

const ProviderState = enumeration(
  'ProviderState',
  ['up', 'down', 'unknown'] as const,
  "A provider's state by its circuit breaker and its check: `unknown` before any use.",
);

const ProviderHealth = component(
  'ProviderHealth',
  Type.Object({
    name: Type.String({
      description: 'The provider, by its name in SMS_ROUTES and docs/delivery.md, or `outbox`.',
    }),
    state: ref(ProviderState),
    detail: Type.Optional(
      Type.String({
        description:
          "What the provider's last check found, where it says more than its state: for `whatsapp-call`, the phone number's calling setting (`calling ENABLED`, `calling DISABLED`; `GET /{phone-number-id}/settings`), without which WhatsApp places no call.",
      }),
    ),
  }),
);

const ServiceState = enumeration('ServiceState', ['up', 'down'] as const, 'Whether a service answers.');

const LiveCodes = enumeration(
  'LiveCodes',
  ['delivered', 'outbox', 'refused'] as const,
  'What becomes of live codes (deliveryType TEXT): a provider delivers them; `outbox`: parked in the outbox and not delivered (no provider, LIVE_OUTBOX=allow); `refused`: sends answer 503 CHANNEL_UNAVAILABLE (no provider, LIVE_OUTBOX=refuse). Test keys always use the outbox.',
);

const ChannelHealth = component(
  'ChannelHealth',
  Type.Object({
    operational: Type.Boolean({
      description:
        'Whether the channel works for live traffic: false when its providers are down, or when it has none and LIVE_OUTBOX=refuse.',
    }),
    providers: Type.Array(ref(ProviderHealth)),
    liveCodes: ref(LiveCodes),
    note: Type.Optional(
      Type.String({
        description: 'A sentence for operators when some live codes of this channel are not delivered.',
      }),
    ),
  }),
);

const HealthStatus = enumeration(
  'HealthStatus',
  ['ok', 'degraded', 'down'] as const,
  '`degraded` when the rate-limit store, a channel, the carrier lookup provider (`lookups`) or a country (an SMS-pumping breaker) is down, or when several instances share the database and one of them runs without REDIS_URL (`instances`); `down` (answered with 503) when the database is.',
);

const PumpingBreakerCount = component(
  'PumpingBreakerCount',
  Type.Object({
    country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
    count: Type.Integer({
      minimum: 1,
      description: 'Breakers tripped for this country, over every account and mode.',
    }),
  }),
);

const CodeSecretRotation = component(
  'CodeSecretRotation',
  Type.Object(
    {
      previousSecrets: Type.Integer({
        minimum: 1,
        description: 'Previous code secrets still accepted (CODE_SECRET_PREVIOUS).',
      }),
      since: Type.String({
        format: 'date-time',
        description: 'When this instance started accepting them (its start).',
      }),
      removableAfter: Type.String({
        format: 'date-time',
        description:
          'From then on no code sent under a previous secret since this start is still alive (the longest code lifetime an account may set, after `since`): remove CODE_SECRET_PREVIOUS once every instance is past it, and restart.',
      }),
    },
    {
      description:
        'A rotation of CODE_SECRET in progress: present while CODE_SECRET_PREVIOUS is set (a warning is logged at every start). Codes, webhook signing secrets and dashboard CSRF tokens made with a previous secret are accepted until it is removed. Never names a secret; does not change `status`.',
    },
  ),
);

const InstancesHealth = component(
  'InstancesHealth',
  Type.Object(
    {
      live: Type.Integer({
        minimum: 1,
        description:
          'The instances serving on this database (each says so every 10 s; one unheard for 30 s is gone), this one included; each worker of WORKERS is one.',
      }),
      withoutRedis: Type.Integer({
        minimum: 0,
        description:
          'Of those, how many run without REDIS_URL. With `live` above 1, any makes the status `degraded`: their rate limits are counted apart, and the start logged a warning (docs/deployment.md, "What each shared part holds").',
      }),
    },
    {
      description:
        'The instances on the database, as this one saw them at its last heartbeat. No host is named.',
    },
  ),
);

export const Health = component(
  'Health',
  Type.Object({
    status: ref(HealthStatus),
    version: Type.String(),
    uptimeSeconds: Type.Integer(),
    services: Type.Object({
      database: ref(ServiceState),
      rateLimitStore: ref(ServiceState),
    }),
    channels: Type.Record(Type.String(), ref(ChannelHealth), {
      description: `Per channel (${CHANNELS.join(', ')}).`,
    }),
    lookups: Type.Optional(
      ref(ProviderHealth, {
        description:
          "The carrier lookup provider (LOOKUP_PROVIDER), present when one is configured: `down` while its circuit is open on this instance (lookups skip it: sends carry the risk signal `lookup_unavailable`, or are refused under an account's `lookupFailClosed`), which makes the status `degraded`; `up` once it has answered; `unknown` before. It is never asked just to fill this in: a lookup costs money.",
      }),
    ),
    instances: ref(InstancesHealth),
    pumpingBreakers: Type.Optional(
      Type.Array(ref(PumpingBreakerCount), {
        description:
          'SMS-pumping breakers tripped now, counted per country (sorted by country); any makes the status `degraded`. No account is named here: `GET /v1/admin/breakers` has the details.',
      }),
    ),
    codeSecretRotation: Type.Optional(ref(CodeSecretRotation)),
  }),
);

/**
 * The body of an action that reads no fields (rotate a key, unblock a contact, replay a
 * delivery): none at all, or `{}`, which the dashboard sends; a field is refused, so a caller who
 * expects one to count learns that it does not. Optional in the document (openapi.ts).
 */
export const NoFields = component(
  'NoFields',
  Type.Object({}, { additionalProperties: false, description: 'No fields: send no body, or `{}`.' }),
);

/** The route options of such an action: `{}` stands in for a missing body before validation. */
export const noFieldsBody = {
  preValidation: ((request, _reply, done) => {
    if (request.body === undefined) request.body = {};
    done();
  }) as preValidationHookHandler,
};
