import { PROVIDERS } from '../delivery/providers/registry.js';
import { CALL_UNDELIVERED_REASONS } from '../delivery/providers/whatsapp/whatsapp.call-reasons.js';
import { CHANNELS } from '../domain/channels/registry.js';
import { DELIVERY_STATUSES } from '../domain/delivery-states.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhooks/events.js';

/** The provider of the examples' EMAIL request: the registry's. */
const EXAMPLE_EMAIL_PROVIDER = PROVIDERS.find((p) => p.channel === 'EMAIL')?.name ?? 'outbox';

const DESCRIPTIONS: Record<WebhookEventType, string> = {
  'verification.created': 'A send-code stored a verification request (one per channel of a dual send).',
  'verification.delivered':
    'A provider reported the message delivered (delivery status callback), or a call that reads the code was answered.',
  'verification.undelivered':
    'Every provider failed, or a provider reported the message undelivered; for a WhatsApp call (WHATSAPP with deliveryType CALL): the call permission was refused or not given before the code expired, a WhatsApp limit refused it, or the call was rejected, not answered or failed. `deliveryError` says why.',
  'verification.verified': 'The right code was presented; the request (and its dual sibling) is consumed.',
  'verification.failed': 'The attempts were used up.',
  'verification.expired': "The code's lifetime ended while pending (written by the expiry sweeper).",
  'verification.canceled':
    'Superseded by a newer send to the same destination, canceled through the API (one event per request of the pair), or its dual sibling was verified.',
  'verification.fallback':
    "A SILENT request fell back to a code (send-code `fallback`): its silent start or check failed, or it timed out (the account's `silentTimeoutSeconds`). `fallback` names the code's channel, its request (the dual sibling) and why.",
  'contact.blocked': 'An operator blocked a destination.',
  'contact.unblocked': 'An operator lifted a block.',
};

/** The request's status in the example of each verification event. */
const STATUS_AFTER: Record<string, string> = {
  'verification.created': 'pending',
  'verification.delivered': 'pending',
  'verification.undelivered': 'pending',
  'verification.verified': 'verified',
  'verification.failed': 'failed',
  'verification.expired': 'expired',
  'verification.canceled': 'canceled',
  'verification.fallback': 'pending',
};

const EventData = {
  type: 'object',
  required: ['id', 'type', 'timestamp', 'accountId', 'test'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Event id (UUIDv7); also the webhook-id header.' },
    type: { type: 'string' },
    timestamp: { type: 'string', format: 'date-time' },
    accountId: { type: 'string' },
    test: { type: 'boolean', description: 'True for events of test-mode keys.' },
    requestId: { type: 'string', format: 'uuid' },
    groupId: { type: 'string', description: 'Shared by both requests of a dual send.' },
    contactId: { type: 'string' },
    channel: { type: 'string', enum: [...CHANNELS] },
    to: { type: 'string', description: 'Masked destination, as in send-code answers.' },
    country: { type: 'string' },
    purpose: { type: 'string' },
    locale: {
      type: 'string',
      description:
        'Verification events: the locale the message was written in (a Locale tag); absent for requests made before locales were kept.',
    },
    status: { type: 'string', description: 'State of the verification request after the event.' },
    method: {
      type: 'string',
      description:
        'verification.verified: how the request was verified, `code` (verify-code) or `link` (its magic link, docs/links.md).',
    },
    provider: { type: 'string', description: 'The delivery provider, where there is one.' },
    deliveryStatus: {
      type: 'string',
      // The store's `failed` is `undelivered` to integrators.
      enum: DELIVERY_STATUSES.map((s) => (s === 'failed' ? 'undelivered' : s)),
      description:
        'verification.delivered and verification.undelivered: where the message or call is when the event is made (`answered` or `completed` for a call; `undelivered` when it failed).',
    },
    deliveryError: {
      type: 'string',
      description: `verification.undelivered: why. For a WhatsApp call it starts with a reason code and a colon: ${Object.keys(
        CALL_UNDELIVERED_REASONS,
      )
        .map((r) => `\`${r}\``)
        .join(', ')} (docs/delivery.md, "WhatsApp calls").`,
    },
    fallback: {
      type: 'object',
      required: ['channel'],
      description: 'verification.fallback only: the code the SILENT request fell back to.',
      properties: {
        channel: { type: 'string', enum: [...CHANNELS] },
        requestId: {
          type: 'string',
          format: 'uuid',
          description: "The fallback code's request (the dual sibling).",
        },
        reason: { type: 'string', enum: ['provider_failed', 'rejected', 'timeout'] },
      },
    },
  },
};

const signatureHeaders = [
  { name: 'webhook-id', description: 'The event id: the same on every retry; de-duplicate on it.' },
  { name: 'webhook-timestamp', description: 'Unix seconds of this attempt; refuse times far from now.' },
  {
    name: 'webhook-signature',
    description:
      '`v1,<base64 HMAC-SHA256>` of `<id>.<timestamp>.<body>` with the endpoint secret (Standard Webhooks).',
  },
].map((h) => ({ in: 'header', required: true, schema: { type: 'string' }, ...h }));

/** `verification.created` → `onVerificationCreated`: what a receiver's handler is called. */
export const eventOperationId = (type: string): string =>
  `on${type.replace(/(^|[._])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}`;

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type the service POSTs to registered
 * endpoints, signed as the Standard Webhooks specification says.
 */
export function openApiWebhooks(): Record<string, unknown> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      {
        post: {
          operationId: eventOperationId(type),
          summary: type,
          description: `${DESCRIPTIONS[type]} Retried with backoff over about a day until a 2xx answer; see docs/webhooks.md. It carries no credentials: check its \`webhook-signature\` with the endpoint's secret before trusting it.`,
          security: [],
          tags: ['webhooks'],
          parameters: signatureHeaders,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['type', 'timestamp', 'data'],
                  properties: {
                    type: { type: 'string', const: type },
                    timestamp: { type: 'string', format: 'date-time' },
                    data: EventData,
                  },
                },
                example: {
                  type,
                  timestamp: '2026-11-24T12:00:00.000Z',
                  data: {
                    id: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3b',
                    type,
                    timestamp: '2026-11-24T12:00:00.000Z',
                    accountId: 'acc_default',
                    test: false,
                    ...(type === 'verification.fallback'
                      ? {
                          requestId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
                          groupId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
                          channel: 'SILENT',
                          to: '+44*******457',
                          status: 'pending',
                          fallback: {
                            channel: 'SMS',
                            requestId: '0193a1b2-d9e0-7e5f-8a7b-8c9d0e1f2a3d',
                            reason: 'timeout',
                          },
                        }
                      : type.startsWith('contact.')
                        ? {
                            contactId: '3f2a9c1e-7b4d-8e21-9c3a-5d6e7f8a9b0c',
                            channel: 'EMAIL',
                            to: 'j***@example.com',
                          }
                        : {
                            requestId: '0193a1b2-c3d4-7e5f-8a7b-8c9d0e1f2a3c',
                            channel: 'EMAIL',
                            to: 'j***@example.com',
                            purpose: 'signup',
                            status: STATUS_AFTER[type],
                            provider: EXAMPLE_EMAIL_PROVIDER,
                          }),
                  },
                },
              },
            },
          },
          responses: {
            '2XX': { description: 'Received; any other answer (or none within the timeout) is retried.' },
          },
        },
      },
    ]),
  );
}
