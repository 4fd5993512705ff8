import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { WebhookDelivery, WebhookEndpoint } from '../../domain/ports/webhooks.js';
import type { WebhookAdmin } from '../../webhooks/admin.js';
import { WEBHOOK_EVENT_TYPES } from '../../webhooks/events.js';
import { UrlRefused } from '../../webhooks/url-guard.js';
import { type AdminGate, adminAuth } from '../auth.js';
import { component, enumeration, envelope, ref } from '../components.js';
import { ApiError, validationError } from '../errors.js';
import { ADMIN_SECURITY, SESSION_FORBIDDEN } from '../openapi.js';
import { answer, errorResponses, NoFields, noFieldsBody } from '../schemas.js';

const WebhookEventType = enumeration(
  'WebhookEventType',
  WEBHOOK_EVENT_TYPES,
  'An event the service POSTs to registered endpoints (see `webhooks`).',
);
const EventList = Type.Array(ref(WebhookEventType), {
  minItems: 1,
  maxItems: WEBHOOK_EVENT_TYPES.length,
  uniqueItems: true,
  description: 'Event types to receive.',
});
const WebhookUrl = Type.String({
  maxLength: 2000,
  description:
    'http(s) URL of the receiver. Loopback, private and link-local addresses are refused (also after DNS resolution) unless WEBHOOKS_ALLOW_PRIVATE=true.',
  examples: ['https://example.com/hooks/verify'],
});

const CreateBody = component(
  'CreateWebhookRequest',
  Type.Object(
    {
      url: WebhookUrl,
      events: EventList,
      accountId: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'Default: the default account.' }),
      ),
      enabled: Type.Optional(Type.Boolean({ default: true })),
    },
    {
      additionalProperties: false,
      examples: [{ url: 'https://example.com/hooks/verify', events: ['verification.verified'] }],
    },
  ),
);
const PatchBody = component(
  'UpdateWebhookRequest',
  Type.Object(
    {
      url: Type.Optional(WebhookUrl),
      events: Type.Optional(EventList),
      enabled: Type.Optional(
        Type.Boolean({ description: 'true re-enables an endpoint the service disabled.' }),
      ),
    },
    { additionalProperties: false },
  ),
);
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
const ReplayParams = Type.Object({
  id: Type.String({ maxLength: 64 }),
  deliveryId: Type.String({ maxLength: 64 }),
});
const ListQuery = Type.Object({ accountId: Type.Optional(Type.String({ maxLength: 64 })) });
const DeliveriesQuery = Type.Object({
  limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'At most 500; default 50.' })),
});

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const nullableString = Type.Union([Type.String(), Type.Null()]);

const EndpointView = component(
  'WebhookEndpoint',
  Type.Object({
    id: Type.String({ examples: ['wh_0193a1b2c3d4e5f6a7b8c9d0'] }),
    accountId: Type.String(),
    url: Type.String(),
    events: Type.Array(ref(WebhookEventType)),
    enabled: Type.Boolean(),
    disabledReason: nullableString,
    failingSince: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);
const CreatedEndpoint = component(
  'CreatedWebhookEndpoint',
  Type.Intersect(
    [
      ref(EndpointView),
      Type.Object({
        secret: Type.String({
          description: 'Signing secret (`whsec_` + base64); shown only in this answer.',
          examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
        }),
      }),
    ],
    { description: 'A new endpoint with its signing secret.' },
  ),
);
const DeliveryStatus = enumeration(
  'WebhookDeliveryStatus',
  ['pending', 'succeeded', 'failed'] as const,
  '`pending` while attempts remain, `succeeded` on a 2xx answer, `failed` once they are used up.',
);
const DeliveryView = component(
  'WebhookDelivery',
  Type.Object({
    id: Type.String(),
    endpointId: Type.String(),
    eventId: Type.String({ description: 'The webhook-id header of every attempt.' }),
    eventType: ref(WebhookEventType),
    status: ref(DeliveryStatus),
    attempts: Type.Integer(),
    responseStatus: Type.Union([Type.Integer(), Type.Null()], {
      description: 'HTTP status of the last answer.',
    }),
    lastError: nullableString,
    nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    lastAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
  }),
);
const DeletedWebhook = component(
  'DeletedWebhookEndpoint',
  Type.Object({ id: Type.String(), deleted: Type.Boolean() }),
);
const EndpointResponse = envelope('WebhookEndpointResponse', ref(EndpointView));
const EndpointListResponse = envelope('WebhookEndpointListResponse', Type.Array(ref(EndpointView)));
const CreatedEndpointResponse = envelope('CreatedWebhookEndpointResponse', ref(CreatedEndpoint));
const DeliveryResponse = envelope('WebhookDeliveryResponse', ref(DeliveryView));
const DeliveryListResponse = envelope(
  'WebhookDeliveryListResponse',
  Type.Array(ref(DeliveryView), { description: 'Newest first.' }),
);
const DeletedResponse = envelope('DeletedWebhookEndpointResponse', ref(DeletedWebhook));

const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  accountId: e.accountId,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  disabledReason: e.disabledReason,
  failingSince: iso(e.failingSince),
  createdAt: new Date(e.createdAt).toISOString(),
});
const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  endpointId: d.endpointId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  responseStatus: d.responseStatus,
  lastError: d.lastError,
  nextAttemptAt: iso(d.nextAttemptAt),
  lastAttemptAt: iso(d.lastAttemptAt),
  createdAt: new Date(d.createdAt).toISOString(),
});

const errors = errorResponses({
  400: 'VALIDATION_ERROR (a refused URL among them) or INVALID_JSON',
  401: 'UNAUTHORIZED: missing or wrong admin token (or no live dashboard session)',
  403: SESSION_FORBIDDEN,
  404: 'NOT_FOUND',
});

/** A URL the guard refused is a bad request about the `url` field. */
async function urlChecked<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof UrlRefused) throw validationError([{ field: 'url', message: err.message }]);
    throw err;
  }
}

/** Admin routes of webhook endpoints, under /v1/admin/webhooks (the admin token or a dashboard session). */
export const webhookAdminRoutes =
  (deps: { webhooks: WebhookAdmin; adminGate: AdminGate }) => async (app: FastifyInstance) => {
    await app.register(
      async (r) => {
        r.addHook('onRequest', adminAuth(deps.adminGate));
        const doc = (operationId: string, summary: string, extra: Record<string, unknown>) => ({
          tags: ['webhooks'],
          operationId,
          summary,
          security: ADMIN_SECURITY,
          ...extra,
        });

        r.post<{ Body: Static<typeof CreateBody> }>(
          '',
          {
            schema: doc(
              'createWebhook',
              'Register a webhook endpoint; its signing secret is returned only here',
              {
                body: ref(CreateBody),
                response: {
                  201: answer(CreatedEndpointResponse, 'Registered: `secret` is shown only here.'),
                  ...errors,
                },
              },
            ),
          },
          async (request, reply) => {
            const created = await urlChecked(() => deps.webhooks.create(request.body));
            if (!created) throw new ApiError('NOT_FOUND', 'No account with this accountId.');
            reply.code(201);
            return { data: { ...endpointView(created.endpoint), secret: created.secret } };
          },
        );

        r.get<{ Querystring: Static<typeof ListQuery> }>(
          '',
          {
            schema: doc('listWebhooks', 'List webhook endpoints (without secrets)', {
              querystring: ListQuery,
              response: { 200: answer(EndpointListResponse, 'The endpoints.'), ...errors },
            }),
          },
          async (request) => ({
            data: (await deps.webhooks.list(request.query.accountId)).map(endpointView),
          }),
        );

        r.get<{ Params: Static<typeof IdParams> }>(
          '/:id',
          {
            schema: doc('getWebhook', 'Read a webhook endpoint', {
              params: IdParams,
              response: { 200: answer(EndpointResponse, 'The endpoint.'), ...errors },
            }),
          },
          async (request) => {
            const endpoint = await deps.webhooks.get(request.params.id);
            if (!endpoint) throw new ApiError('NOT_FOUND', 'No webhook endpoint with this id.');
            return { data: endpointView(endpoint) };
          },
        );

        r.patch<{ Params: Static<typeof IdParams>; Body: Static<typeof PatchBody> }>(
          '/:id',
          {
            schema: doc('updateWebhook', 'Change the URL or events of an endpoint, or enable/disable it', {
              params: IdParams,
              body: ref(PatchBody),
              response: { 200: answer(EndpointResponse, 'The endpoint now.'), ...errors },
            }),
          },
          async (request) => {
            const endpoint = await urlChecked(() => deps.webhooks.update(request.params.id, request.body));
            if (!endpoint) throw new ApiError('NOT_FOUND', 'No webhook endpoint with this id.');
            return { data: endpointView(endpoint) };
          },
        );

        r.delete<{ Params: Static<typeof IdParams> }>(
          '/:id',
          {
            schema: doc('deleteWebhook', 'Delete a webhook endpoint; its pending deliveries are abandoned', {
              params: IdParams,
              response: { 200: answer(DeletedResponse, 'Deleted.'), ...errors },
            }),
          },
          async (request) => {
            if (!(await deps.webhooks.delete(request.params.id)))
              throw new ApiError('NOT_FOUND', 'No webhook endpoint with this id.');
            return { data: { id: request.params.id, deleted: true } };
          },
        );

        r.get<{ Params: Static<typeof IdParams>; Querystring: Static<typeof DeliveriesQuery> }>(
          '/:id/deliveries',
          {
            schema: doc(
              'listWebhookDeliveries',
              'Deliveries of an endpoint, newest first: status, attempts, last response, next attempt',
              {
                params: IdParams,
                querystring: DeliveriesQuery,
                response: { 200: answer(DeliveryListResponse, 'The deliveries, newest first.'), ...errors },
              },
            ),
          },
          async (request) => {
            const limit = Math.min(500, Math.max(1, Number(request.query.limit ?? 50)));
            const deliveries = await deps.webhooks.deliveries(request.params.id, limit);
            if (!deliveries) throw new ApiError('NOT_FOUND', 'No webhook endpoint with this id.');
            return { data: deliveries.map(deliveryView) };
          },
        );

        r.post<{ Params: Static<typeof ReplayParams> }>(
          '/:id/deliveries/:deliveryId/replay',
          {
            schema: doc(
              'replayWebhookDelivery',
              'Send a delivery again (same event id) as soon as a worker is free',
              {
                params: ReplayParams,
                body: ref(NoFields),
                response: { 202: answer(DeliveryResponse, 'Queued again.'), ...errors },
              },
            ),
            ...noFieldsBody,
          },
          async (request, reply) => {
            const delivery = await deps.webhooks.replay(request.params.id, request.params.deliveryId);
            if (!delivery) throw new ApiError('NOT_FOUND', 'No delivery with this id on this endpoint.');
            reply.code(202);
            return { data: deliveryView(delivery) };
          },
        );
      },
      { prefix: '/v1/admin/webhooks' },
    );
  };
