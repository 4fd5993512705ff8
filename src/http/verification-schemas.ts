import { Type } from '@sinclair/typebox';
import { PROVIDERS } from '../delivery/providers/registry.js';
import { SHOWN_DELIVERY_STATUSES } from '../domain/delivery-states.js';
import { VERIFICATION_METHOD_SPECS, VERIFICATION_METHODS } from '../domain/verification/method.js';
import { component, enumeration, envelope, ref } from './components.js';
import { Channel, DeliveryType, VerificationStatus } from './schemas.js';

/**
 * The schemas of a verification request as a resource (GET /v1/contact/verifications/{requestId}
 * and its cancel): CONTRACT.md, "A verification is a resource".
 */

export const VerificationMethod = enumeration(
  'VerificationMethod',
  VERIFICATION_METHODS,
  `How a request was verified: ${VERIFICATION_METHODS.map((m) => `\`${m}\`, ${VERIFICATION_METHOD_SPECS[m].description}`).join('; ')}.`,
);

const DeliveryState = enumeration(
  'DeliveryState',
  SHOWN_DELIVERY_STATUSES,
  'Where the message that carries the code is: `queued` (not handed to a provider yet), `sent` (a provider took it; the built-in outbox, `provider: "outbox"`, is shown so), `delivered` (the provider reported it delivered), `undelivered` (every provider refused it, or a provider reported it undelivered, or a call was busy, not answered or failed). Calls: `awaiting_permission` (a WhatsApp call waits for the user to allow calls), `calling`, `answered` (the code is being read), `completed`.',
);

const Delivery = component(
  'VerificationDelivery',
  Type.Object(
    {
      status: ref(DeliveryState),
      provider: Type.Optional(
        Type.String({
          description:
            'The provider that took the message, by its name in docs/delivery.md, or `outbox`; absent before one did.',
        }),
      ),
      updatedAt: Type.String({
        format: 'date-time',
        description: 'When the delivery state last moved (the request’s creation until it first did).',
      }),
    },
    { description: 'What became of the message (or call) that carries the code.' },
  ),
);

/** The examples' providers: the registry's first of each channel. */
const providerOf = (channel: string) => PROVIDERS.find((p) => p.channel === channel)?.name ?? 'outbox';
const EXAMPLE_ID = '0190a7c2-5b1e-7c3d-9f00-2b4b4c119497';
const EXAMPLE_SIBLING = '0190a7c2-5b1e-7c3d-9f00-2b4b4c119498';

export const Verification = component(
  'Verification',
  Type.Object(
    {
      requestId: Type.String({ format: 'uuid' }),
      channel: ref(Channel),
      status: ref(VerificationStatus, {
        description:
          'Its state now. A pending request whose lifetime ended shows `expired`, one whose attempts are used up `failed`, before anything settled it. Of a verified dual pair, the request whose code matched is `verified` and the other `canceled`.',
      }),
      to: Type.String({ description: 'Masked destination, as in send-code answers.' }),
      createdAt: Type.String({ format: 'date-time' }),
      expiresAt: Type.String({ format: 'date-time' }),
      attemptsRemaining: Type.Integer({
        minimum: 0,
        description: 'Checks left (shared by both requests of a dual pair).',
      }),
      deliveryType: Type.Optional(
        ref(DeliveryType, { description: 'As send-code took it (WHATSAPP only).' }),
      ),
      verifiedAt: Type.Optional(
        Type.String({
          format: 'date-time',
          description: 'When it was verified; only with `status: verified`.',
        }),
      ),
      method: Type.Optional(
        ref(VerificationMethod, { description: 'How it was verified; only with `status: verified`.' }),
      ),
      siblingRequestId: Type.Optional(
        Type.String({
          format: 'uuid',
          description:
            'The other request of a dual send (read it to learn how the pair ended); absent for one channel.',
        }),
      ),
      fallback: Type.Optional(
        Type.Object(
          {
            channel: ref(Channel),
            state: Type.Unsafe<'scheduled' | 'fired' | 'dropped'>({
              type: 'string',
              enum: ['scheduled', 'fired', 'dropped'],
              description:
                '`scheduled`: waiting for `silentTimeoutSeconds`; `fired`: its code was sent (`requestId`, the sibling); `dropped`: not needed (the SILENT request settled first).',
            }),
            reason: Type.Optional(
              Type.Unsafe<'provider_failed' | 'rejected' | 'timeout'>({
                type: 'string',
                enum: ['provider_failed', 'rejected', 'timeout'],
                description: 'Why it fired.',
              }),
            ),
            requestId: Type.Optional(
              Type.String({ format: 'uuid', description: "The fallback code's request, once fired." }),
            ),
          },
          {
            description:
              'SILENT with send-code `fallback`: the fallback and what became of it (docs/silent.md).',
          },
        ),
      ),
      delivery: ref(Delivery),
    },
    {
      description:
        'A verification request as a resource: what became of it and of its message. Seen only by keys of its account and mode that are enabled for its channel.',
      examples: [
        {
          requestId: EXAMPLE_ID,
          channel: 'EMAIL',
          status: 'verified',
          to: 'j*******@example.com',
          createdAt: '2026-12-06T08:15:00.000Z',
          expiresAt: '2026-12-06T08:25:00.000Z',
          attemptsRemaining: 4,
          verifiedAt: '2026-12-06T08:16:12.000Z',
          method: 'code',
          siblingRequestId: EXAMPLE_SIBLING,
          delivery: {
            status: 'delivered',
            provider: providerOf('EMAIL'),
            updatedAt: '2026-12-06T08:15:02.000Z',
          },
        },
        {
          requestId: EXAMPLE_SIBLING,
          channel: 'SMS',
          status: 'canceled',
          to: '+1******2671',
          createdAt: '2026-12-06T08:15:00.000Z',
          expiresAt: '2026-12-06T08:25:00.000Z',
          attemptsRemaining: 4,
          siblingRequestId: EXAMPLE_ID,
          delivery: { status: 'sent', provider: providerOf('SMS'), updatedAt: '2026-12-06T08:15:01.000Z' },
        },
      ],
    },
  ),
);

export const VerificationResponse = envelope('VerificationResponse', ref(Verification));

/** The path of a request: its id as send-code answered it. */
export const RequestIdParams = Type.Object({
  requestId: Type.String({
    format: 'uuid',
    maxLength: 36,
    description: 'A requestId from send-code.',
    examples: [EXAMPLE_ID],
  }),
});
