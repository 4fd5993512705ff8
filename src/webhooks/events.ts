import { EVENT_TYPES, type EventType } from '../store/journal.js';
import type { JournalEvent } from '../store/webhooks/interface.js';

/** Journal types that stay inside the service: a wrong code is counted, never announced. */
type InternalEventType = 'verification.attempt_failed';
export type WebhookEventType = Exclude<EventType, InternalEventType>;

/** The event types an endpoint may subscribe to: every journal type but the internal ones. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = EVENT_TYPES.filter(
  (t): t is WebhookEventType => t !== 'verification.attempt_failed',
);

const sendable = new Set<string>(WEBHOOK_EVENT_TYPES);

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
  /** The destination masked as in send-code answers. */
  to?: string;
  country?: string;
  purpose?: string;
  status?: string;
  provider?: string;
}

/**
 * The body of a webhook, `{type, timestamp, data}` as the Standard Webhooks specification
 * suggests, or null for an event that is never sent (verification.attempt_failed). Fields the
 * journal row lacks are left out rather than sent as null.
 */
export function webhookPayload(event: JournalEvent): string | null {
  if (!sendable.has(event.type)) return null;
  const timestamp = new Date(event.createdAt).toISOString();
  const data: WebhookEventData = {
    id: event.id,
    type: event.type,
    timestamp,
    accountId: event.accountId,
    test: event.test,
  };
  const optional: Array<[keyof WebhookEventData, string | null]> = [
    ['requestId', event.requestId],
    ['groupId', event.groupId],
    ['contactId', event.contactId],
    ['channel', event.channel],
    ['to', event.toMasked],
    ['country', event.country],
    ['purpose', event.purpose],
    ['status', event.status],
    ['provider', event.provider],
  ];
  for (const [key, value] of optional)
    if (value !== null) (data as unknown as Record<string, unknown>)[key] = value;
  return JSON.stringify({ type: event.type, timestamp, data });
}
