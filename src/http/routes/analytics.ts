import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { assembleBuckets } from '../../domain/analytics.js';
import { canonicalMailbox } from '../../domain/mailbox.js';
import { checkPhone } from '../../domain/phone.js';
import type { ContactRecord } from '../../domain/ports/read-model.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import {
  AnalyticsQuery,
  AnalyticsResponse,
  BlockContactRequest,
  BreakerListResponse,
  BreakerResponse,
  ContactListResponse,
  ContactProfileResponse,
  ContactResponse,
  ContactsQuery,
  ResetBreakerRequest,
} from '../analytics-schemas.js';
import { adminAuth } from '../auth.js';
import { ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { ApiError, validationError } from '../errors.js';
import { ADMIN_SECURITY, SESSION_FORBIDDEN } from '../openapi.js';
import { page, pageLimit, readCursor } from '../paging.js';
import { answer, errorResponses } from '../schemas.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The widest range one query may span: a year of days, or three days of hours (docs/analytics.md). */
const MAX_BUCKETS = { hour: 3 * 24, day: 366 } as const;

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const BreakersQuery = Type.Object({ accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
const CountryParams = Type.Object({ country: Type.String({ pattern: '^[A-Za-z]{2}$' }) });

const breakerView = (b: BreakerState) => ({
  accountId: b.accountId,
  mode: b.test ? 'test' : 'live',
  country: b.country,
  tripped: b.trippedAt !== null,
  trippedAt: iso(b.trippedAt),
  detail: b.detail,
  resetAt: iso(b.resetAt),
});

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

/**
 * Destinations are stored as canonical mailboxes (email) or E.164; accept what an operator types:
 * any way of writing an address finds its mailbox, and the start of one stays a prefix.
 */
function normaliseSearch(q: string): string {
  const value = q.trim();
  if (value.includes('@')) return canonicalMailbox(value) ?? value.toLowerCase();
  if (!/^[+0-9 ()-]+$/.test(value)) return value.toLowerCase();
  const digits = value.replace(/[ ()-]/g, '');
  const phone = checkPhone(digits.startsWith('+') ? digits : `+${digits}`);
  return phone.ok ? phone.e164 : digits.startsWith('+') ? digits : `+${digits}`;
}

/** The admin API's analytics and contact profiles (docs/analytics.md). */
export const analyticsRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.addHook('onRequest', adminAuth(deps.adminGate));
  const doc = (operationId: string, summary: string, extra: Record<string, unknown> = {}) => ({
    tags: ['analytics'],
    operationId,
    summary,
    security: ADMIN_SECURITY,
    ...extra,
  });

  app.get<{ Querystring: Static<typeof AnalyticsQuery> }>(
    '/analytics',
    {
      schema: doc(
        'getAnalytics',
        'Sends, deliveries, verifications and refusals by hour or day, optionally grouped',
        {
          querystring: AnalyticsQuery,
          response: { 200: answer(AnalyticsResponse, 'One bucket per interval (and group).'), ...errors },
        },
      ),
    },
    async (request) => {
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
      const rows = await deps.store.readModel.analytics({
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
      schema: doc(
        'listContacts',
        "An account's contacts, most recently seen first, or those whose destination starts with q",
        {
          description:
            'Without `q`: a page at a time, most recently seen first; `nextCursor` passed as `cursor` gives the next page (null on the last). A contact seen again while an operator pages moves to the top. With `q`: the first `limit` matches in destination order, and no further page (`nextCursor` null; narrow the search instead).',
          querystring: ContactsQuery,
          response: { 200: answer(ContactListResponse, 'One page of contacts.'), ...errors },
        },
      ),
    },
    async (request) => {
      const { accountId, q, mode } = request.query;
      const test = mode === undefined ? undefined : mode === 'test';
      const limit = pageLimit(request.query.limit);
      if (q !== undefined) {
        if (request.query.cursor !== undefined)
          throw validationError([
            { field: 'cursor', message: 'cursor pages the list without q: a search has one page' },
          ]);
        const found = await deps.store.readModel.searchContacts(accountId, normaliseSearch(q), limit, test);
        return { data: found.map(contactView), nextCursor: null };
      }
      const after = readCursor(request.query.cursor, ['number', 'string'] as const);
      const rows = await deps.store.readModel.listContacts({
        accountId,
        test,
        after: after && { lastSeen: after[0], id: after[1] },
        limit: limit + 1,
      });
      const { data, nextCursor } = page(rows, limit, (last) => [last.lastSeen, last.id]);
      return { data: data.map(contactView), nextCursor };
    },
  );

  const contactOr404 = async (id: string) => {
    const contact = await deps.store.readModel.getContact(id);
    if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
    return contact;
  };

  app.get<{ Params: Static<typeof IdParams> }>(
    '/contacts/:id',
    {
      schema: doc('getContact', 'A contact: counts, risk, block and its last 100 requests', {
        params: IdParams,
        response: { 200: answer(ContactProfileResponse, 'The contact and its history.'), ...errors },
      }),
    },
    async (request) => {
      const contact = await contactOr404(request.params.id);
      const history = await deps.store.readModel.contactHistory(contact, 100);
      return {
        data: {
          ...contactView(contact),
          channels: [...new Set(history.map((h) => h.channel))],
          addressesSeen: [...new Set(history.map((h) => h.address))],
          history: history.map((h) => ({
            requestId: h.requestId,
            channel: h.channel,
            address: h.address,
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

  app.post<{ Params: Static<typeof IdParams>; Body: Static<typeof BlockContactRequest> }>(
    '/contacts/:id/block',
    {
      schema: doc('blockContact', 'Block a contact: sends to it answer 403 CONTACT_BLOCKED', {
        params: IdParams,
        body: ref(BlockContactRequest),
        response: { 200: answer(ContactResponse, 'The contact, blocked.'), ...errors },
      }),
    },
    async (request) => {
      const contact = await deps.store.readModel.setContactBlocked(
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
      schema: doc('unblockContact', 'Unblock a contact', {
        params: IdParams,
        response: { 200: answer(ContactResponse, 'The contact, unblocked.'), ...errors },
      }),
    },
    async (request) => {
      const contact = await deps.store.readModel.setContactBlocked(request.params.id, null, deps.clock.now());
      if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
      return { data: contactView(contact) };
    },
  );

  app.get<{ Querystring: Static<typeof BreakersQuery> }>(
    '/breakers',
    {
      schema: doc('listBreakers', 'SMS-pumping breakers: tripped or reset, by account, mode and country', {
        querystring: BreakersQuery,
        response: { 200: answer(BreakerListResponse, 'Every breaker that tripped or was reset.'), ...errors },
      }),
    },
    async (request) => {
      const breakers = await deps.store.readModel.listBreakers({ accountId: request.query.accountId });
      return { data: breakers.map(breakerView) };
    },
  );

  app.post<{ Params: Static<typeof CountryParams>; Body: Static<typeof ResetBreakerRequest> }>(
    '/breakers/:country/reset',
    {
      schema: doc('resetBreaker', 'Reset the SMS-pumping breaker of an account and country: sends resume', {
        params: CountryParams,
        body: ref(ResetBreakerRequest),
        response: { 200: answer(BreakerResponse, 'The breaker, reset.'), ...errors },
      }),
    },
    async (request) => {
      const country = request.params.country.toUpperCase();
      const test = request.body.mode === 'test';
      const reset = await deps.service.resetBreaker(request.body.accountId, test, country);
      if (!reset) throw new ApiError('NOT_FOUND', `No breaker for ${country} in this account and mode.`);
      return { data: breakerView(reset) };
    },
  );
};
