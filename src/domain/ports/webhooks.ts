/**
 * Webhook endpoints and the durable queue of their deliveries. The fold (src/store/fold.ts) queues
 * one delivery per interested endpoint for each change it folds, in the transaction that folds
 * it; workers on every instance then claim due deliveries under a lease, so no two send one at
 * the same time. A live lease is an attempt in flight: the claims count them per endpoint, over
 * every instance.
 */
export interface WebhookStore {
  createEndpoint(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  /** Endpoints not deleted, oldest first; of one account when given. */
  listEndpoints(accountId?: string): Promise<WebhookEndpoint[]>;
  getEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Changes url, events or the enabled flag; enabling clears the failure record. */
  updateEndpoint(id: string, patch: EndpointPatch): Promise<WebhookEndpoint | null>;
  /** Deletes an endpoint (kept as deleted) and abandons its pending deliveries. */
  deleteEndpoint(id: string, now: number): Promise<boolean>;
  /** The sealed signing secret of every endpoint not deleted (for a rotation of CODE_SECRET). */
  sealedSecrets(): Promise<Array<{ id: string; sealedSecret: string }>>;
  /** Replaces an endpoint's sealed secret if it is still `expected`; false when it was not. */
  replaceSealedSecret(id: string, expected: string, next: string): Promise<boolean>;

  /** Newest first. */
  listDeliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** Sends a delivery again as soon as a worker is free; null when the endpoint has no such delivery. */
  replayDelivery(endpointId: string, deliveryId: string, now: number): Promise<WebhookDelivery | null>;

  /**
   * Leases due deliveries of enabled endpoints until `leaseUntil` for the free slots of each lane.
   * An endpoint never gets more than its cap in flight (live leases of every instance included):
   * `perEndpoint` in the main lane, one in the slow lane. In the main lane an endpoint also never
   * holds more than its fair share of the claiming instance's pool (see `ClaimRequest.held`).
   * Each lane takes the oldest due first. Claims that run at once on several instances never pass
   * a cap together.
   */
  claimDue(claim: ClaimRequest): Promise<DueDelivery[]>;
  /**
   * Records one attempt and clears its lease; disables the endpoint when it has been failing
   * since `disableBefore`. A slow attempt (answered or not) adds one to the endpoint's slow
   * attempts in a row; a prompt success resets them, a prompt failure leaves them.
   */
  recordAttempt(attempt: AttemptRecord): Promise<{ endpointDisabled: boolean }>;
  /** Enabled endpoints in the slow lane now (`slowAfter` slow attempts in a row or more). */
  countSlowEndpoints(slowAfter: number): Promise<number>;
  /** Deletes up to `batchSize` finished deliveries created before `before`. */
  sweep(before: number, batchSize: number): Promise<number>;
}

export interface NewWebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** The signing secret, sealed (src/webhooks/secrets.ts). */
  sealedSecret: string;
  createdAt: number;
}

export interface EndpointPatch {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** Why the service disabled it, when it did. */
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
}

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryState;
  attempts: number;
  nextAttemptAt: number | null;
  responseStatus: number | null;
  lastError: string | null;
  lastAttemptAt: number | null;
  createdAt: number;
}

export interface ClaimRequest {
  now: number;
  leaseUntil: number;
  /** Free slots of the main lane: deliveries of endpoints not in the slow lane. */
  main: number;
  /**
   * The claiming instance's attempts in flight in the main lane, by endpoint id. With `main` they
   * make its pool, which the endpoints with due deliveries or attempts held share: none holds
   * more than an equal share, one share being kept for an endpoint that comes next (`fairShare`).
   */
  held: Readonly<Record<string, number>>;
  /** Free slots of the slow lane: deliveries of endpoints with `slowAfter` slow attempts in a row or more. */
  slow: number;
  /** In-flight cap of an endpoint in the main lane over every instance (in the slow lane it is one). */
  perEndpoint: number;
  /** Slow attempts in a row that put an endpoint in the slow lane, until a prompt success. */
  slowAfter: number;
}

/**
 * The most main-lane attempts one endpoint may hold in an instance's pool of `pool` slots shared
 * by `active` endpoints: an equal share, with one share left over for an endpoint that has no
 * attempt yet, so that its first event finds a free slot instead of waiting behind the others.
 * Never less than one.
 */
export function fairShare(pool: number, active: number): number {
  return Math.max(1, Math.floor(pool / (active + 1)));
}

/** A claimed delivery with what it takes to send it. */
export interface DueDelivery extends WebhookDelivery {
  payload: string;
  url: string;
  sealedSecret: string;
  /** Claimed for the slow lane (its endpoint keeps timing out). */
  slow: boolean;
}

export interface AttemptRecord {
  deliveryId: string;
  endpointId: string;
  now: number;
  ok: boolean;
  responseStatus: number | null;
  error: string | null;
  /**
   * The attempt held its slot long: no answer within the timeout, or an answer (of any status)
   * after the slow threshold (WEBHOOK_SLOW_ATTEMPT_PERCENT of the timeout).
   */
  slow: boolean;
  /** When to try again after a failure; null when the schedule is used up (the delivery fails). */
  nextAttemptAt: number | null;
  /** A failing endpoint whose first failure is older than this is disabled. */
  disableBefore: number;
  disabledReason: string;
}
