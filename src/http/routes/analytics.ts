import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ContactNumber } from '../../domain/contacts.js';
import type { ContactRecord } from '../../domain/ports/read-model.js';
import type { BreakerState } from '../../domain/pumping-breaker.js';
import { riskFromStore } from '../../domain/risk.js';
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
import { answer, errorResponses, NoFields, noFieldsBody } from '../schemas.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const BreakersQuery = Type.Object({ accountId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })) });
const CountryParams = Type.Object({ country: Type.String({ pattern: '^[A-Za-z]{2}$' }) });

const breakerView = (b: BreakerState) => ({
  accountId: b.accountId,
  mode: b.mode,
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

/** A profile's carrier facts: a dated SIM change as a time, an undated one as its window. */
const lookupView = ({ facts, lineCheckedAt, simCheckedAt }: ContactNumber) => {
  const change = facts.lastSimChange;
  return {
    lineType: facts.lineType,
    carrier: facts.carrier,
    country: facts.country,
    mcc: facts.mcc,
    mnc: facts.mnc,
    lastSimChange: change && 'at' in change ? iso(change.at) : null,
    simChangedWithin:
      change && !('at' in change)
        ? { hours: change.withinHours, changed: change.changed, checkedAt: iso(change.checkedAt) }
        : null,
    lineCheckedAt: iso(lineCheckedAt),
    simCheckedAt: iso(simCheckedAt),
  };
};

const contactView = (c: ContactRecord) => ({
  id: c.id,
  accountId: c.accountId,
  mode: c.mode,
  channel: c.channel,
  destination: c.destination,
  masked: c.masked,
  firstSeen: iso(c.firstSeen),
  lastSeen: iso(c.lastSeen),
  counts: c.counts,
  risk: riskFromStore(c.risk),
  blocked: c.blocked !== null,
  blockedReason: c.blocked?.reason ?? null,
  blockedAt: iso(c.blocked?.at ?? null),
});

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
      const { accountId, groupBy, from, to } = request.query;
      const buckets = await deps.analytics.buckets({
        accountId,
        mode: request.query.mode ?? 'live',
        from: Date.parse(from),
        to: to ? Date.parse(to) : undefined,
        interval: request.query.interval ?? 'day',
        groupBy,
      });
      return { data: { buckets } };
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
      const limit = pageLimit(request.query.limit);
      if (q !== undefined) {
        if (request.query.cursor !== undefined)
          throw validationError([
            { field: 'cursor', message: 'cursor pages the list without q: a search has one page' },
          ]);
        const found = await deps.contacts.search(accountId, q, limit, mode);
        return { data: found.map(contactView), nextCursor: null };
      }
      const after = readCursor(request.query.cursor, ['number', 'string'] as const);
      const rows = await deps.contacts.list({
        accountId,
        mode,
        after: after && { lastSeen: after[0], id: after[1] },
        limit: limit + 1,
      });
      const { data, nextCursor } = page(rows, limit, (last) => [last.lastSeen, last.id]);
      return { data: data.map(contactView), nextCursor };
    },
  );

  app.get<{ Params: Static<typeof IdParams> }>(
    '/contacts/:id',
    {
      schema: doc('getContact', 'A contact: counts, risk, block and its last 100 requests', {
        params: IdParams,
        response: { 200: answer(ContactProfileResponse, 'The contact and its history.'), ...errors },
      }),
    },
    async (request) => {
      const profile = await deps.contacts.profile(request.params.id);
      if (!profile) throw new ApiError('NOT_FOUND', 'No contact with this id.');
      const { contact, history, number } = profile;
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
            deliveryError: h.deliveryError,
            createdAt: iso(h.createdAt),
            expiresAt: iso(h.expiresAt),
            verifiedAt: iso(h.verifiedAt),
            method: h.method,
            risk: riskFromStore(h.risk),
            link: h.link,
          })),
          lookup: number && lookupView(number),
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
      const contact = await deps.contacts.block(request.params.id, request.body.reason);
      if (!contact) throw new ApiError('NOT_FOUND', 'No contact with this id.');
      return { data: contactView(contact) };
    },
  );

  app.post<{ Params: Static<typeof IdParams> }>(
    '/contacts/:id/unblock',
    {
      schema: doc('unblockContact', 'Unblock a contact', {
        params: IdParams,
        body: ref(NoFields),
        response: { 200: answer(ContactResponse, 'The contact, unblocked.'), ...errors },
      }),
      ...noFieldsBody,
    },
    async (request) => {
      const contact = await deps.contacts.unblock(request.params.id);
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
      const breakers = await deps.breakers.list(request.query.accountId);
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
      const { accountId, mode } = request.body;
      const reset = await deps.breakers.reset(accountId, mode ?? 'live', request.params.country);
      if (!reset)
        throw new ApiError(
          'NOT_FOUND',
          `No breaker for ${request.params.country.toUpperCase()} in this account and mode.`,
        );
      return { data: breakerView(reset) };
    },
  );
};
