import {
  type ClaimRequest,
  type DueDelivery,
  fairShare,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../domain/ports/webhooks.js';
import type { WebhookEvent } from '../../webhooks/events.js';

/** Row mapping shared by the SQLite and PostgreSQL webhook stores (BIGINT arrives as a string). */

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const strOrNull = (v: unknown) => (v === null || v === undefined ? null : String(v));

export const rowToEndpoint = (r: Row): WebhookEndpoint => ({
  id: String(r.id),
  accountId: String(r.account_id),
  url: String(r.url),
  events: String(r.events).split(',').filter(Boolean),
  enabled: r.enabled === true || r.enabled === 1,
  disabledReason: strOrNull(r.disabled_reason),
  failingSince: numOrNull(r.failing_since),
  createdAt: num(r.created_at),
});

export const rowToDelivery = (r: Row): WebhookDelivery => ({
  id: String(r.id),
  endpointId: String(r.endpoint_id),
  eventId: String(r.event_id),
  eventType: String(r.event_type),
  status: String(r.status) as WebhookDelivery['status'],
  attempts: num(r.attempts),
  nextAttemptAt: numOrNull(r.next_attempt_at),
  responseStatus: numOrNull(r.response_status),
  lastError: strOrNull(r.last_error),
  lastAttemptAt: numOrNull(r.last_attempt_at),
  createdAt: num(r.created_at),
});

export const rowToDue = (r: Row): DueDelivery => ({
  ...rowToDelivery(r),
  payload: String(r.payload),
  url: String(r.url),
  sealedSecret: String(r.secret),
  slow: r.slow === true || r.slow === 1,
});

/** An enabled endpoint as a claim sees it. */
export interface EndpointLoad {
  id: string;
  /** In the slow lane (`slowAfter` slow attempts in a row or more). */
  slow: boolean;
  /** Live leases on it, every instance's: its attempts in flight. */
  busy: number;
  /** Whether it has a due delivery no one holds. */
  due: boolean;
}

/**
 * How many due deliveries of each endpoint a claim may offer, and the lane they go to: in the
 * main lane, up to its cap over every instance and its fair share of the claiming instance's
 * pool less what it holds there; in the slow lane, one if nothing of it is in flight. The
 * PostgreSQL claim computes the same in SQL.
 */
export function claimRooms(endpoints: EndpointLoad[], c: ClaimRequest) {
  const pool = c.main + Object.values(c.held).reduce((a, n) => a + n, 0);
  const active = new Set(endpoints.filter((e) => !e.slow && e.due).map((e) => e.id));
  for (const [id, n] of Object.entries(c.held)) if (n > 0) active.add(id);
  const share = fairShare(pool, active.size);
  return endpoints
    .filter((e) => e.due)
    .map((e) => {
      const held = c.held[e.id] ?? 0;
      const room = e.slow
        ? Math.min(1 - e.busy, c.slow)
        : Math.min(c.perEndpoint - e.busy, share - held, c.main);
      return { id: e.id, slow: e.slow, room };
    })
    .filter((e) => e.room > 0);
}

/** A due delivery a claim may take, and the lane it would take it for. */
export interface ClaimCandidate {
  id: string;
  nextAttemptAt: number;
  slow: boolean;
}

/**
 * The oldest due candidates that fit the free slots of each lane. In the main lane they all fit
 * unless more endpoints want a slot than the pool has (the shares leave one over): then each has
 * one at most, and the oldest due go first.
 */
export function pickForLanes(candidates: ClaimCandidate[], free: { main: number; slow: number }) {
  const byDue = [...candidates].sort(
    (a, b) => a.nextAttemptAt - b.nextAttemptAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return [
    ...byDue.filter((c) => !c.slow).slice(0, free.main),
    ...byDue.filter((c) => c.slow).slice(0, free.slow),
  ];
}

/** The endpoints one event goes to: every enabled endpoint of its account that wants its type. */
export function deliveriesFor(event: WebhookEvent, endpoints: WebhookEndpoint[]): WebhookEndpoint[] {
  return endpoints.filter(
    (e) => e.enabled && e.accountId === event.accountId && e.events.includes(event.type),
  );
}
