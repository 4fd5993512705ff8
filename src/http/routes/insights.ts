import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { assembleBuckets } from '../../domain/analytics.js';
import { checkPhone } from '../../domain/phone.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import { CHANNELS, VERIFICATION_STATUSES } from '../../domain/types.js';
import type { ContactRecord } from '../../store/contacts.js';
import { GROUP_BY } from '../../store/insights.js';
import { adminAuth } from '../auth.js';
import type { AppDeps } from '../deps.js';
import { ApiError, validationError } from '../errors.js';
import { ADMIN_SECURITY, SESSION_FORBIDDEN } from '../openapi.js';
import { ChannelSchema, enumOf, errorResponses, RiskSchema } from '../schemas.js';
import { schemaDetails } from '../validation.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The widest range one query may span: a year of days, or three days of hours (docs/analytics.md). */
const MAX_BUCKETS = { hour: 3 * 24, day: 366 } as const;

const AnalyticsQuery = Type.Object({
  accountId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'Absent: every account.' }),
  ),
  from: Type.String({ format: 'date-time', description: 'Start (inclusive), ISO 8601.' }),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'End (exclusive); default now.' })),
  interval: Type.Optional(
    Type.Unsafe<'hour' | 'day'>({ type: 'string', enum: ['hour', 'day'], default: 'day' }),
  ),
  groupBy: Type.Optional(Type.Unsafe<(typeof GROUP_BY)[number]>({ type: 'string', enum: [...GROUP_BY] })),
  mode: Type.Optional(
    Type.Unsafe<'live' | 'test'>({ type: 'string', enum: ['live', 'test'], default: 'live' }),
  ),
});

const Bucket = Type.Object({
  start: Type.String({ format: 'date-time' }),
  group: Type.Union([Type.String(), Type.Null()]),
  sent: Type.Integer(),
  delivered: Type.Integer(),
  undelivered: Type.Integer(),
  verified: Type.Integer(),
  failed: Type.Integer(),
  expired: Type.Integer(),
  canceled: Type.Integer(),
  conversionRate: Type.Number({ description: 'verified / sent' }),
  wrongCodes: Type.Integer(),
  limited: Type.Integer({ description: 'Sends refused by a rate limit or the SMS-pumping breaker.' }),
  limitedBy: Type.Record(Type.String(), Type.Integer(), { description: 'limited, by limit.' }),
  riskRefused: Type.Integer(),
  blockedRefused: Type.Integer(),
  medianSecondsToVerify: Type.Union([Type.Number(), Type.Null()]),
  p90SecondsToVerify: Type.Union([Type.Number(), Type.Null()]),
});

const AnalyticsResponse = Type.Object({ data: Type.Object({ buckets: Type.Array(Bucket) }) });

const ContactsQuery = Type.Object({
  accountId: Type.String({ minLength: 1, maxLength: 64 }),
  q: Type.String({
    minLength: 1,
    maxLength: 254,
    description: 'A destination, or the start of one (an email address or a number in + form).',
  }),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ModeField = Type.Optional(
  Type.Unsafe<'live' | 'test'>({ type: 'string', enum: ['live', 'test'], default: 'live' }),
);
const BreakersQuery = Type.Object({ accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
const CountryParams = Type.Object({ country: Type.String({ pattern: '^[A-Za-z]{2}$' }) });
const ResetBody = Type.Object({ accountId: Type.String({ minLength: 1, maxLength: 64 }), mode: ModeField });

const Time = Type.String({ format: 'date-time' });
const TimeOrNull = Type.Union([Time, Type.Null()]);
const TextOrNull = Type.Union([Type.String(), Type.Null()]);
const RiskOrNull = Type.Union([RiskSchema, Type.Null()]);
const Mode = Type.Unsafe<'live' | 'test'>({ type: 'string', enum: ['live', 'test'] });

const Contact = Type.Object({
  id: Type.String({
    description:
      'Time-ordered (UUIDv7); a contact made before those keeps its id (a keyed hash). See docs/analytics.md, Contacts.',
  }),
  accountId: Type.String(),
  mode: Mode,
  channel: enumOf(CHANNELS, 'The channel of its last send.'),
  destination: Type.String({ description: 'Full: E.164 number or lower-cased email address.' }),
  masked: Type.String(),
  firstSeen: Time,
  lastSeen: Time,
  counts: Type.Object({
    sends: Type.Integer(),
    verified: Type.Integer(),
    failed: Type.Integer(),
    wrongCodes: Type.Integer(),
  }),
  risk: Type.Union([RiskSchema, Type.Null()], { description: 'The risk assessment of its last send.' }),
  blocked: Type.Boolean(),
  blockedReason: TextOrNull,
  blockedAt: TimeOrNull,
});

const HistoryEntry = Type.Object({
  requestId: Type.String({ format: 'uuid' }),
  channel: ChannelSchema,
  status: enumOf(VERIFICATION_STATUSES, "The request's status."),
  purpose: TextOrNull,
  provider: TextOrNull,
  deliveryStatus: Type.Unsafe<string>({
    type: 'string',
    enum: ['outbox', 'queued', 'sent', 'delivered', 'failed'],
  }),
  createdAt: Time,
  expiresAt: Time,
  verifiedAt: TimeOrNull,
  risk: RiskOrNull,
});

const ContactProfile = Type.Composite([
  Contact,
  Type.Object({
    channels: Type.Array(ChannelSchema, { description: 'The channels of its requests in history.' }),
    history: Type.Array(HistoryEntry, { description: 'Its last 100 requests, newest first; never a code.' }),
  }),
]);

const Breaker = Type.Object({
  accountId: Type.String(),
  mode: Mode,
  country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
  tripped: Type.Boolean(),
  trippedAt: TimeOrNull,
  detail: Type.Union([Type.String(), Type.Null()], { description: 'Why it tripped.' }),
  resetAt: TimeOrNull,
});

const breakerView = (b: BreakerState) => ({
  accountId: b.accountId,
  mode: b.test ? 'test' : 'live',
  country: b.country,
  tripped: b.trippedAt !== null,
  trippedAt: iso(b.trippedAt),
  detail: b.detail,
  resetAt: iso(b.resetAt),
});
const BlockBody = Type.Object({ reason: Type.String({ minLength: 1, maxLength: 500 }) });

const errors = errorResponses({
  400: 'VALIDATION_ERROR',
  401: 'UNAUTHORIZED: missing or wrong admin token (or no live dashboard session)',
  403: SESSION_FORBIDDEN,
  404: 'NOT_FOUND',
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const parseRisk = (risk: string | null) => (risk ? (JSON.parse(risk) as unknown) : null);

const contactView = (c: ContactRecord) => ({
  id: c.id,
  accountId: c.accountId,
  mode: c.test ? 'test' : 'live',
  channel: c.channel,
  destination: c.destination,
  masked: c.masked,
  firstSeen: iso(c.firstSeen),
  lastSeen: iso(c.lastSeen),
  counts: c.counts,
  risk: parseRisk(c.risk),
  blocked: c.blocked !== null,
  blockedReason: c.blocked?.reason ?? null,
  blockedAt: iso(c.blocked?.at ?? null),
});

function rejectInvalid(request: { validationError?: { validation: Parameters<typeof schemaDetails>[0] } }) {
  if (request.validationError)
    throw validationError(schemaDetails(request.validationError.validation).details);
}

/** Destinations are stored lower-case (email) or E.164; accept what an operator types. */
function normaliseSearch(q: string): string {
  const value = q.trim();
  if (value.includes('@') || !/^[+0-9 ()-]+$/.test(value)) return value.toLowerCase();
  const digits = value.replace(/[ ()-]/g, '');
  const phone = checkPhone(digits.startsWith('+') ? digits : `+${digits}`);
  return phone.ok ? phone.e164 : digits.startsWith('+') ? digits : `+${digits}`;
}

/** The admin API's analytics and contact profiles (docs/analytics.md). */
export const insightsRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.addHook('onRequest', adminAuth(deps.adminGate));
  const common = { attachValidation: true } as const;
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['analytics'],
    summary,
    security: ADMIN_SECURITY,
    ...extra,
  });

  app.get<{ Querystring: Static<typeof AnalyticsQuery> }>(
    '/analytics',
    {
      ...common,
      schema: doc('Sends, deliveries, verifications and refusals by hour or day, optionally grouped', {
        querystring: AnalyticsQuery,
        response: { 200: AnalyticsResponse, ...errors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const { accountId, groupBy } = request.query;
      const interval = request.query.interval ?? 'day';
      const from = Date.parse(request.query.from);
      const to = request.query.to ? Date.parse(request.query.to) : deps.clock.now();
      const size = interval === 'hour' ? HOUR : DAY;
      if (!(to > from)) throw validationError([{ field: 'to', message: 'must be later than from' }]);
      if ((to - from) / size > MAX_BUCKETS[interval])
        throw validationError([
          { field: 'to', message: `at most ${MAX_BUCKETS[interval]} buckets of one ${interval} per query` },
        ]);
      const rows = await deps.store.analytics({
        accountId,
        test: request.query.mode === 'test',
        from,
        to,
        intervalMs: size,
        groupBy,
      });
      return { data: { buckets: assembleBuckets(rows, groupBy !== undefined) } };
    },
  );

  app.get<{ Querystring: Static<typeof ContactsQuery> }>(
    '/contacts',
    {
      ...common,
      schema: doc('Find contacts by destination (exact, or its start)', {
        querystring: ContactsQuery,
        response: { 200: Type.Object({ data: Type.Array(Contact) }), ...errors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const found = await deps.store.searchContacts(
        request.query.accountId,
        normaliseSearch(request.query.q),
        50,
      );
      return { data: found.map(contactView) };
    },
  );

  const contactOr404 = async (id: string) => {
    const contact = await deps.store.getContact(id);
    if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
    return contact;
  };

  app.get<{ Params: Static<typeof IdParams> }>(
    '/contacts/:id',
    {
      schema: doc('A contact: counts, risk, block and its last 100 requests', {
        params: IdParams,
        response: { 200: Type.Object({ data: ContactProfile }), ...errors },
      }),
    },
    async (request) => {
      const contact = await contactOr404(request.params.id);
      const history = await deps.store.contactHistory(contact, 100);
      return {
        data: {
          ...contactView(contact),
          channels: [...new Set(history.map((h) => h.channel))],
          history: history.map((h) => ({
            requestId: h.requestId,
            channel: h.channel,
            status: h.status,
            purpose: h.purpose,
            provider: h.provider,
            deliveryStatus: h.deliveryStatus,
            createdAt: iso(h.createdAt),
            expiresAt: iso(h.expiresAt),
            verifiedAt: iso(h.verifiedAt),
            risk: parseRisk(h.risk),
          })),
        },
      };
    },
  );

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof BlockBody> }>(
    '/contacts/:id/block',
    {
      ...common,
      schema: doc('Block a contact: sends to it answer 403 CONTACT_BLOCKED', {
        params: IdParams,
        body: BlockBody,
        response: { 200: Type.Object({ data: Contact }), ...errors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const contact = await deps.store.setContactBlocked(
        request.params.id,
        { reason: request.body.reason },
        deps.clock.now(),
      );
      if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
      return { data: contactView(contact) };
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/contacts/:id/unblock',
    {
      schema: doc('Unblock a contact', {
        params: IdParams,
        response: { 200: Type.Object({ data: Contact }), ...errors },
      }),
    },
    async (request) => {
      const contact = await deps.store.setContactBlocked(request.params.id, null, deps.clock.now());
      if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
      return { data: contactView(contact) };
    },
  );

  app.get<{ Querystring: Static<typeof BreakersQuery> }>(
    '/breakers',
    {
      ...common,
      schema: doc('SMS-pumping breakers: tripped or reset, by account, mode and country', {
        querystring: BreakersQuery,
        response: { 200: Type.Object({ data: Type.Array(Breaker) }), ...errors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const breakers = await deps.store.listBreakers({ accountId: request.query.accountId });
      return { data: breakers.map(breakerView) };
    },
  );

  app.post<{ Params: Static<typeof CountryParams>; Body: Static<typeof ResetBody> }>(
    '/breakers/:country/reset',
    {
      ...common,
      schema: doc('Reset the SMS-pumping breaker of an account and country: sends resume', {
        params: CountryParams,
        body: ResetBody,
        response: { 200: Type.Object({ data: Breaker }), ...errors },
      }),
    },
    async (request) => {
      rejectInvalid(request);
      const country = request.params.country.toUpperCase();
      const test = request.body.mode === 'test';
      const reset = await deps.service.resetBreaker(request.body.accountId, test, country);
      if (!reset) throw new ApiError('NOT_FOUND', `No breaker for ${country} in this account and mode.`);
      return { data: breakerView(reset) };
    },
  );
};
