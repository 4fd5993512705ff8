import { Type } from '@sinclair/typebox';
import { DELIVERY_STATES, DELIVERY_STATUSES } from '../domain/delivery-states.js';
import { LINE_TYPES } from '../domain/number-facts.js';
import { GROUP_BY } from '../domain/ports/read-model.js';
import { component, enumeration, envelope, ref } from './components.js';
import { PageCursor, PageLimit, pagedEnvelope } from './paging.js';
import { Channel, Mode, Risk, VerificationStatus } from './schemas.js';
import { VerificationMethod } from './verification-schemas.js';

/** The admin API's analytics, contact profiles and SMS-pumping breakers: requests and answers. */

const Time = Type.String({ format: 'date-time' });
const TimeOrNull = Type.Union([Time, Type.Null()]);
const TextOrNull = Type.Union([Type.String(), Type.Null()]);

export const AnalyticsQuery = Type.Object({
  accountId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Absent: every account.' }),
  ),
  from: Type.String({ format: 'date-time', description: 'Start (inclusive), ISO 8601.' }),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End (exclusive); default now.' })),
  interval: Type.Optional(
    Type.Unsafe<'hour' | 'day'>({ type: 'string', enum: ['hour', 'day'], default: 'day' }),
  ),
  groupBy: Type.Optional(Type.Unsafe<(typeof GROUP_BY)[number]>({ type: 'string', enum: [...GROUP_BY] })),
  mode: Type.Optional(ref(Mode, { default: 'live' })),
});

const AnalyticsBucket = component(
  'AnalyticsBucket',
  Type.Object({
    start: Time,
    group: Type.Union([Type.String(), Type.Null()], {
      description:
        'The channel, country, purpose, provider or method of the bucket (with groupBy), else null. The method is `link` for requests whose email carried a magic link beside the code (verified by either), `code` for code-only sends.',
    }),
    sent: Type.Integer(),
    delivered: Type.Integer(),
    undelivered: Type.Integer(),
    verified: Type.Integer(),
    failed: Type.Integer(),
    expired: Type.Integer(),
    canceled: Type.Integer(),
    conversionRate: Type.Number({ description: 'verified / sent' }),
    wrongCodes: Type.Integer(),
    fellBack: Type.Integer({
      description:
        'SILENT requests that fell back to a code (send-code `fallback`): their silent check failed or timed out. With groupBy=channel, the SILENT bucket reads: verified (silent succeeded), failed and undelivered (it did not), fellBack.',
    }),
    limited: Type.Integer({ description: 'Sends refused by a rate limit or the SMS-pumping breaker.' }),
    limitedBy: Type.Record(Type.String(), Type.Integer(), { description: 'limited, by limit.' }),
    riskRefused: Type.Integer({ description: "Sends refused by the account's riskThreshold." }),
    blockedRefused: Type.Integer({ description: 'Sends to a contact an operator blocked.' }),
    refusedBy: Type.Record(Type.String(), Type.Integer(), {
      description:
        "Sends the risk screen refused, by reason: `blocked`, `risk` (the account's riskThreshold), and a carrier lookup's `line_type` (400 UNSUPPORTED_NUMBER), `sim_swap` and `lookup_unavailable` (403 RISK_TOO_HIGH). Reasons with no refusal are absent. Rate limits and the breaker are in limitedBy.",
      examples: [{ line_type: 3, sim_swap: 1, risk: 2 }],
    }),
    medianSecondsToVerify: Type.Union([Type.Number(), Type.Null()]),
    p90SecondsToVerify: Type.Union([Type.Number(), Type.Null()]),
  }),
);

export const AnalyticsResponse = envelope(
  'AnalyticsResponse',
  Type.Object({ buckets: Type.Array(ref(AnalyticsBucket)) }),
);

export const ContactsQuery = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64 }),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 254,
      description:
        'A destination, or the start of one (an email address or a number in + form). Absent: the most recently seen contacts, a page at a time.',
    }),
  ),
  mode: Type.Optional(ref(Mode, { description: 'Contacts of live keys or of test keys; absent: both.' })),
  limit: PageLimit,
  cursor: PageCursor,
});

const ContactCounts = component(
  'ContactCounts',
  Type.Object({
    sends: Type.Integer(),
    verified: Type.Integer(),
    failed: Type.Integer(),
    wrongCodes: Type.Integer(),
  }),
);

const Contact = component(
  'Contact',
  Type.Object({
    id: Type.String({
      description:
        'Time-ordered (UUIDv7); a contact made before those keeps its id (a keyed hash). See docs/analytics.md, Contacts.',
    }),
    accountId: Type.String(),
    mode: ref(Mode),
    channel: ref(Channel, { description: 'The channel of its last send.' }),
    destination: Type.String({
      description:
        'Full: the subscriber number in E.164 (an Argentine mobile with its 9), or the canonical mailbox of an email address (lower case, no +tag, no dots in a gmail.com local part, the domain in punycode, Fastmail subdomain and Yahoo disposable addresses folded into their mailbox).',
    }),
    masked: Type.String(),
    firstSeen: Time,
    lastSeen: Time,
    counts: ref(ContactCounts),
    risk: Type.Union([ref(Risk), Type.Null()], { description: 'The risk assessment of its last send.' }),
    blocked: Type.Boolean(),
    blockedReason: TextOrNull,
    blockedAt: TimeOrNull,
  }),
);

const DeliveryStatus = enumeration(
  'DeliveryStatus',
  DELIVERY_STATUSES,
  `Where the message (or call) of a request is: ${DELIVERY_STATUSES.map((d) => `\`${d}\`, ${DELIVERY_STATES[d].meaning}`).join('; ')}.`,
);

const ContactHistoryEntry = component(
  'ContactHistoryEntry',
  Type.Object({
    requestId: Type.String({ format: 'uuid' }),
    channel: ref(Channel),
    address: Type.String({
      description: 'Where its message went: the email address exactly as the request gave it, or the number.',
    }),
    status: ref(VerificationStatus, { description: "The request's status." }),
    purpose: TextOrNull,
    provider: TextOrNull,
    deliveryStatus: ref(DeliveryStatus),
    deliveryError: Type.Union([Type.String(), Type.Null()], {
      description:
        "Why the message or call was not delivered, as the provider said it (null when it was, or is under way); a WhatsApp call's starts with its reason code (`permission_rejected: …`, docs/delivery.md).",
    }),
    createdAt: Time,
    expiresAt: Time,
    verifiedAt: Type.Union([Time, Type.Null()], {
      description: 'When it was verified; null unless `status` is verified.',
    }),
    method: Type.Union([ref(VerificationMethod), Type.Null()], {
      description: 'How it was verified; null unless `status` is verified.',
    }),
    risk: Type.Union([ref(Risk), Type.Null()]),
    link: Type.Boolean({
      description: "Its email carried a magic link beside the code (send-code's `link`, docs/links.md).",
    }),
  }),
);

const LineType = enumeration(
  'LineType',
  LINE_TYPES,
  "A number's line type as a carrier lookup found it, normalised from each provider's own names (docs/lookup.md).",
);

const ContactLookup = component(
  'ContactLookup',
  Type.Object(
    {
      lineType: Type.Union([ref(LineType), Type.Null()], { description: 'null: the provider did not say.' }),
      carrier: Type.Union([Type.String(), Type.Null()], {
        description: "The carrier's name, as the provider spells it.",
      }),
      country: Type.Union([Type.String(), Type.Null()], {
        description: "ISO 3166-1 alpha-2 of the carrier's network.",
      }),
      mcc: Type.Union([Type.String(), Type.Null()], {
        description: 'Mobile country code (mobile numbers only).',
      }),
      mnc: Type.Union([Type.String(), Type.Null()], {
        description: 'Mobile network code (mobile numbers only).',
      }),
      lastSimChange: Type.Union([Time, Type.Null()], {
        description:
          'When the SIM last changed, where the carrier dates it; null: no change known, or no date (see simChangedWithin).',
      }),
      simChangedWithin: Type.Union(
        [
          Type.Object({
            hours: Type.Integer({ description: 'The window the carrier answered for.' }),
            changed: Type.Boolean(),
            checkedAt: Time,
          }),
          Type.Null(),
        ],
        {
          description:
            'Where the carrier gives no date: whether the SIM changed within `hours` before `checkedAt`.',
        },
      ),
      lineCheckedAt: Type.Union([Time, Type.Null()], {
        description: 'When the line type and carrier were looked up (kept LOOKUP_LINE_CACHE_SECONDS).',
      }),
      simCheckedAt: Type.Union([Time, Type.Null()], {
        description:
          'When the SIM change was looked up (kept LOOKUP_SIM_CACHE_SECONDS); null: not looked up.',
      }),
    },
    {
      description:
        "What carrier lookups know of a phone contact's number, as the lookups' cache holds it now (never a new lookup).",
    },
  ),
);

const ContactProfile = component(
  'ContactProfile',
  Type.Intersect(
    [
      ref(Contact),
      Type.Object({
        channels: Type.Array(ref(Channel), { description: 'The channels of its requests in history.' }),
        addressesSeen: Type.Array(Type.String(), {
          description:
            'The addresses its requests in history were sent to, as each request gave it (an email contact is a canonical mailbox: jane+1@… and J.A.N.E@gmail.com are both jane@gmail.com); newest first.',
        }),
        history: Type.Array(ref(ContactHistoryEntry), {
          description: 'Its last 100 requests, newest first; never a code.',
        }),
        lookup: Type.Union([ref(ContactLookup), Type.Null()], {
          description:
            "Line type, carrier and last SIM change of a phone contact's number (docs/lookup.md); null for an email contact, an account whose `lookup` setting is `off`, or a number the lookups' cache holds nothing fresh of.",
        }),
      }),
    ],
    { description: 'A contact with its last requests.' },
  ),
);

const Breaker = component(
  'Breaker',
  Type.Object({
    accountId: Type.String(),
    mode: ref(Mode),
    country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
    tripped: Type.Boolean(),
    trippedAt: TimeOrNull,
    detail: Type.Union([Type.String(), Type.Null()], { description: 'Why it tripped.' }),
    resetAt: TimeOrNull,
  }),
);

export const BlockContactRequest = component(
  'BlockContactRequest',
  Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) }),
);

export const ResetBreakerRequest = component(
  'ResetBreakerRequest',
  Type.Object({
    accountId: Type.String({ minLength: 1, maxLength: 64 }),
    mode: Type.Optional(ref(Mode, { default: 'live' })),
  }),
);

export const ContactListResponse = pagedEnvelope(
  'ContactListResponse',
  ref(Contact),
  'Without q: most recently seen first. With q: the first matches in destination order.',
);
export const ContactResponse = envelope('ContactResponse', ref(Contact));
export const ContactProfileResponse = envelope('ContactProfileResponse', ref(ContactProfile));
export const BreakerListResponse = envelope('BreakerListResponse', Type.Array(ref(Breaker)));
export const BreakerResponse = envelope('BreakerResponse', ref(Breaker));
