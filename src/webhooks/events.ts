import type { Mode } from '../domain/types.js';

/**
 * The events webhooks announce, and the body each is sent with. A leaf module: the fold
 * (src/store/fold.ts) turns each change of a request or a contact into one of these events.
 */
export const WEBHOOK_EVENT_TYPES = [
  'verification.created',
  'verification.delivered',
  'verification.undelivered',
  'verification.verified',
  'verification.failed',
  'verification.expired',
  'verification.canceled',
  'verification.fallback',
  'contact.blocked',
  'contact.unblocked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One event, as the fold reads it from a change and the request or contact it names. */
export interface WebhookEvent {
  /** The public event id (webhook-id), a UUIDv7 of the change's time. */
  id: string;
  type: WebhookEventType;
  accountId: string;
  mode: Mode;
  requestId: string | null;
  groupId: string | null;
  contactId: string | null;
  channel: string | null;
  /** The destination masked as in send-code answers. */
  toMasked: string | null;
  country: string | null;
  purpose: string | null;
  /** The locale the request's message was written in (null: a contact event, or a request made before locales were kept). */
  locale: string | null;
  /** The request's status after the change. */
  status: string | null;
  /** verification.verified: how the request was verified (`code`, `link`); else null. */
  method?: string | null;
  provider: string | null;
  /**
   * Delivery events: where the message (or call) is, as the resource names it (`undelivered` for a
   * failed delivery), and why it was not delivered (the provider's error; for a WhatsApp call a
   * reason code first, `permission_rejected: …`). Null on other events.
   */
  deliveryStatus: string | null;
  deliveryError: string | null;
  /** verification.fallback: the code the SILENT request fell back to, and why. */
  fallback?: { channel: string; requestId: string | null; reason: string | null } | null;
  /** When the change was made, epoch ms. */
  createdAt: number;
}

/** What a receiver gets in `data`: facts of the event, never a code or a full destination. */
export interface WebhookEventData {
  id: string;
  type: string;
  timestamp: string;
  accountId: string;
  test: boolean;
  requestId?: string;
  groupId?: string;
  contactId?: string;
  channel?: string;
  to?: string;
  country?: string;
  purpose?: string;
  locale?: string;
  status?: string;
  method?: string;
  provider?: string;
  deliveryStatus?: string;
  deliveryError?: string;
  /** verification.fallback: the fallback code's channel, its request (the dual sibling) and why. */
  fallback?: { channel: string; requestId?: string; reason?: string };
}

/**
 * The body of a webhook, `{type, timestamp, data}` as the Standard Webhooks specification
 * suggests. Fields the event lacks are left out rather than sent as null.
 */
export function webhookPayload(event: WebhookEvent): string {
  const timestamp = new Date(event.createdAt).toISOString();
  const data: WebhookEventData = {
    id: event.id,
    type: event.type,
    timestamp,
    accountId: event.accountId,
    test: event.mode === 'test',
  };
  const optional: Array<[keyof WebhookEventData, string | null]> = [
    ['requestId', event.requestId],
    ['groupId', event.groupId],
    ['contactId', event.contactId],
    ['channel', event.channel],
    ['to', event.toMasked],
    ['country', event.country],
    ['purpose', event.purpose],
    ['locale', event.locale],
    ['status', event.status],
    ['method', event.method ?? null],
    ['provider', event.provider],
    ['deliveryStatus', event.deliveryStatus],
    ['deliveryError', event.deliveryError],
  ];
  for (const [key, value] of optional)
    if (value !== null) (data as unknown as Record<string, unknown>)[key] = value;
  if (event.fallback) {
    const { channel, requestId, reason } = event.fallback;
    data.fallback = { channel, ...(requestId ? { requestId } : {}), ...(reason ? { reason } : {}) };
  }
  return JSON.stringify({ type: event.type, timestamp, data });
}
