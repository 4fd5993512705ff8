import { createHash } from 'node:crypto';
import { uuidV7 } from '../../src/domain/ids.js';
import type { NewApiKey } from '../../src/domain/ports/keys-and-accounts.js';
import type { CodeGuess } from '../../src/domain/ports/verifications.js';
import type { AttemptRecord, ClaimRequest } from '../../src/domain/ports/webhooks.js';
import type { Channel, NewVerification } from '../../src/domain/types.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/events.js';

/** Builders for store rows; every call makes unique ids, so tests never collide. */

export const T0 = 1_750_000_000_000;
export const MINUTE = 60_000;
export const DAY = 86_400_000;

let n = 0;
const unique = () => `${Date.now().toString(36)}${(n++).toString(36)}`;

let sequence = 0;
/**
 * A UUIDv7 of `ms`, as the service makes one at that time; ids of one millisecond are made in
 * order. Not timeOrderedUuid itself: that one never goes back in time within a process, and
 * these tests make rows in the past after rows of today.
 */
const idAt = (ms: number): string => uuidV7(ms, sequence++ % 0x1000);

export function verification(overrides: Partial<NewVerification> = {}): NewVerification {
  // Time-ordered as the service makes them (the outbox lists newest first by id).
  const id = overrides.id ?? idAt(overrides.createdAt ?? T0);
  return {
    id,
    accountId: 'acc_1',
    groupId: id,
    channel: 'EMAIL',
    destination: `user${unique()}@example.com`,
    deliveryType: null,
    country: null,
    purpose: null,
    codeHash: fixtureCodeHash(id),
    maxAttempts: 5,
    createdAt: T0,
    expiresAt: T0 + 10 * MINUTE,
    deliveryStatus: 'outbox',
    outbox: null,
    mode: 'live',
    ...overrides,
  };
}

/** The two rows of a dual send: one group, two channels. */
export function dualPair(overrides: Partial<NewVerification> = {}): [NewVerification, NewVerification] {
  const email = verification({ ...overrides, channel: 'EMAIL' });
  const sms = verification({
    ...overrides,
    channel: 'SMS',
    groupId: email.groupId,
    destination: '+14155550100',
    country: 'US',
  });
  return [email, sms];
}

export function apiKey(accountId: string, overrides: Partial<NewApiKey> = {}): NewApiKey {
  const id = `key_${unique()}`;
  return {
    id,
    accountId,
    name: 'test key',
    prefix: 'cvk_test_abcd',
    keyHash: createHash('sha256').update(id).digest('hex'),
    channels: ['EMAIL', 'SMS'] as Channel[],
    mode: 'live',
    createdAt: T0,
    ...overrides,
  };
}

/** Outbox content as the store keeps it: opaque text (the outbox provider's JSON). */
export function outboxContent(text = `Your code is ${unique()}`): string {
  return JSON.stringify({ text });
}

/** A claim of every delivery queued so far (any time, any endpoint, any lane), for tests that read them. */
export const claimAll = (): ClaimRequest => ({
  now: Date.now() + DAY,
  leaseUntil: Date.now() + 2 * DAY,
  main: 1000,
  held: {},
  slow: 1000,
  perEndpoint: 1000,
  slowAfter: 1000,
});

/** A prompt, successful attempt of delivery `id` to `endpointId` at `now` (recordAttempt). */
export const successOf = (id: string, endpointId: string, now: number): AttemptRecord => ({
  deliveryId: id,
  endpointId,
  now,
  ok: true,
  responseStatus: 200,
  error: null,
  slow: false,
  nextAttemptAt: null,
  disableBefore: now - DAY,
  disabledReason: 'failing',
});

/** The stored code hash of a fixture request (verification): in effect its code is its id. */
export const fixtureCodeHash = (id: string): Buffer => createHash('sha256').update(id).digest();

/**
 * A guess that matches the code of row `winner` (null: of no row), both ways a store may compare
 * it (CodeGuess): by `pick`, and by the hashes it would have on a row.
 */
export const guessOf = (winner: string | null): CodeGuess => ({
  pick: () => winner,
  hashesFor: (id) => [id === winner ? fixtureCodeHash(id) : Buffer.alloc(32)],
});

/** A guess that matches the first live row it is compared with (in id order). */
export const firstCode: CodeGuess = {
  pick: (rows) => rows[0]?.id ?? null,
  hashesFor: (id) => [fixtureCodeHash(id)],
};

/** A webhook endpoint of `accountId` that takes every event (store.webhooks.createEndpoint's input). */
export const everyEventEndpoint = (id: string, accountId = 'acc_1') => ({
  id,
  accountId,
  url: 'https://example.com/hooks',
  events: [...WEBHOOK_EVENT_TYPES],
  enabled: true,
  sealedSecret: 'sealed',
  createdAt: T0,
});

/** The analytics query of acc_1's live requests around T0, as one bucket a day. */
export const LIVE_DAYS_OF_ACC_1 = {
  accountId: 'acc_1',
  mode: 'live',
  from: T0 - DAY,
  to: T0 + DAY,
  intervalMs: DAY,
} as const;
