/**
 * Where the message (or call) that carries a code is, as the store records it: described once,
 * read by the send (what a provider's acceptance records), the stores (which change a move
 * appends, and which reports may move a state) and the API's documents.
 */
export const DELIVERY_STATUSES = [
  'queued',
  'outbox',
  'sent',
  'awaiting_permission',
  'calling',
  'answered',
  'delivered',
  'completed',
  'failed',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Where the message is, as the API says it (the resource's `delivery.status`: CONTRACT.md, "A
 * verification is a resource"): fewer words than the store keeps, the last four for calls. Each
 * stored state says which one it is shown as (DeliveryState.shownAs).
 */
export const SHOWN_DELIVERY_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'undelivered',
  'awaiting_permission',
  'calling',
  'answered',
  'completed',
] as const;
export type ShownDeliveryStatus = (typeof SHOWN_DELIVERY_STATUSES)[number];

interface DeliveryState {
  /** What it means, for the documents. */
  meaning: string;
  /**
   * How far along it is. A provider's report moves a message forward or sideways, never back: a
   * late `answered` does not undo `completed` (callbacks can arrive out of order).
   */
  progress: number;
  /** Whether the code reached its recipient (`delivered`), did not (`undelivered`), or neither yet. */
  outcome: 'delivered' | 'undelivered' | null;
  /**
   * What the API shows of it. The outbox is shown `sent` (with `provider: "outbox"`): the outbox
   * took the message as a provider would, and nothing will happen to it later; a failure of any
   * kind is `undelivered`, as analytics and webhooks name it.
   */
  shownAs: ShownDeliveryStatus;
}

export const DELIVERY_STATES: Record<DeliveryStatus, DeliveryState> = {
  queued: { meaning: 'stored, not handed to a provider yet', progress: 0, outcome: null, shownAs: 'queued' },
  outbox: {
    meaning: 'kept by the built-in outbox, sent nowhere',
    progress: 0,
    outcome: null,
    shownAs: 'sent',
  },
  sent: { meaning: 'a provider took the message', progress: 1, outcome: null, shownAs: 'sent' },
  awaiting_permission: {
    meaning: "a WhatsApp call waits for the user's call permission (the request was sent)",
    progress: 1,
    outcome: null,
    shownAs: 'awaiting_permission',
  },
  calling: {
    meaning: 'a provider is placing the call, or it rings',
    progress: 1,
    outcome: null,
    shownAs: 'calling',
  },
  answered: {
    meaning: 'the call was answered: the code is being read',
    progress: 2,
    outcome: 'delivered',
    shownAs: 'answered',
  },
  delivered: {
    meaning: 'the provider reported the message delivered',
    progress: 3,
    outcome: 'delivered',
    shownAs: 'delivered',
  },
  completed: {
    meaning: 'the call that read the code ended normally',
    progress: 3,
    outcome: 'delivered',
    shownAs: 'completed',
  },
  failed: {
    meaning:
      'not delivered (`undelivered` on the resource): refused, undelivered, a call that was busy, rejected, not answered or failed, or a WhatsApp call permission refused or not given in time',
    progress: 3,
    outcome: 'undelivered',
    shownAs: 'undelivered',
  },
};

/** The `delivery.status` the API shows for a stored delivery state. */
export const shownDeliveryStatus = (status: DeliveryStatus): ShownDeliveryStatus =>
  DELIVERY_STATES[status]?.shownAs ?? 'queued';

/**
 * The change a move of a request's delivery state appends to the change log: `delivered` when
 * the code first reached its recipient, `undelivered` when it did not; null when the move says
 * nothing new (answered, then completed).
 */
export function deliveryChange(from: DeliveryStatus, to: DeliveryStatus): 'delivered' | 'undelivered' | null {
  const before = DELIVERY_STATES[from]?.outcome ?? null;
  const after = DELIVERY_STATES[to].outcome;
  return after !== before ? after : null;
}

/** Whether a provider's report of `to` may replace `from` (never back: see DeliveryState.progress). */
export const movesForward = (from: DeliveryStatus, to: DeliveryStatus): boolean =>
  DELIVERY_STATES[to].progress >= (DELIVERY_STATES[from]?.progress ?? 0);
