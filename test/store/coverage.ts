import { expect, it } from 'vitest';
import type { IdempotencyStore } from '../../src/domain/ports/idempotency.js';
import type { Instances } from '../../src/domain/ports/instances.js';
import type { KeysAndAccounts } from '../../src/domain/ports/keys-and-accounts.js';
import type { LookupCacheStore } from '../../src/domain/ports/number-lookup.js';
import type { ReadModel } from '../../src/domain/ports/read-model.js';
import type { SessionStore } from '../../src/domain/ports/sessions.js';
import type { SilentFallbacks } from '../../src/domain/ports/silent-fallbacks.js';
import type { Verifications } from '../../src/domain/ports/verifications.js';
import type { WebhookStore } from '../../src/domain/ports/webhooks.js';
import type { WhatsAppCalls } from '../../src/domain/ports/whatsapp-calls.js';
import type { Store } from '../../src/store/factory.js';
import type { StoreLifecycle } from '../../src/store/lifecycle.js';
import type { StoreHarness } from './conformance.js';

type MethodsOf<T> = { [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never }[keyof T];
type Listed<T> = Record<MethodsOf<T>, true>;

/**
 * Every method of every storage interface. A method added to an interface is a type error here
 * until it is listed, and a listed method fails `everyMethodExercised` until the conformance
 * suites call it on the backend.
 */
export const STORE_METHODS = {
  lifecycle: {
    migrate: true,
    check: true,
    close: true,
    getOrCreateSetting: true,
  } satisfies Listed<StoreLifecycle>,
  verifications: {
    createVerifications: true,
    getVerification: true,
    getGroup: true,
    attempt: true,
    settleGroup: true,
    recordDelivery: true,
    recordDeliveryByProviderId: true,
    addOutboxMessage: true,
    listOutbox: true,
    findLink: true,
    consumeLink: true,
    sweep: true,
  } satisfies Listed<Verifications>,
  accounts: {
    createAccount: true,
    listAccounts: true,
    getAccount: true,
    updateAccountSettings: true,
    putAccountLogo: true,
    getAccountLogo: true,
    deleteAccountLogo: true,
    createApiKey: true,
    listApiKeys: true,
    getApiKey: true,
    findActiveApiKey: true,
    revokeApiKey: true,
    updateApiKey: true,
    recordApiKeyUses: true,
    rotateApiKey: true,
  } satisfies Listed<KeysAndAccounts>,
  readModel: {
    fold: true,
    analytics: true,
    recordRefusal: true,
    getContact: true,
    searchContacts: true,
    listContacts: true,
    contactHistory: true,
    destinationSignals: true,
    setContactBlocked: true,
    getBreaker: true,
    saveBreaker: true,
    listBreakers: true,
  } satisfies Listed<ReadModel>,
  webhooks: {
    createEndpoint: true,
    listEndpoints: true,
    getEndpoint: true,
    updateEndpoint: true,
    deleteEndpoint: true,
    sealedSecrets: true,
    replaceSealedSecret: true,
    listDeliveries: true,
    replayDelivery: true,
    claimDue: true,
    recordAttempt: true,
    countSlowEndpoints: true,
    sweep: true,
  } satisfies Listed<WebhookStore>,
  sessions: {
    create: true,
    find: true,
    delete: true,
    sweep: true,
  } satisfies Listed<SessionStore>,
  silentFallbacks: {
    schedule: true,
    claimDue: true,
    claim: true,
    finish: true,
    get: true,
    sweep: true,
  } satisfies Listed<SilentFallbacks>,
  idempotency: {
    claim: true,
    complete: true,
    release: true,
    sweep: true,
  } satisfies Listed<IdempotencyStore>,
  instances: {
    heartbeat: true,
    seenSince: true,
    leave: true,
    sweep: true,
  } satisfies Listed<Instances>,
  lookups: {
    get: true,
    put: true,
    sweep: true,
    claim: true,
    release: true,
  } satisfies Listed<LookupCacheStore>,
  whatsappCalls: {
    insert: true,
    get: true,
    move: true,
    byCallId: true,
    awaitingPermission: true,
    due: true,
    heldBy: true,
    endSettled: true,
    sweep: true,
    permission: true,
    putPermission: true,
    dropPermission: true,
  } satisfies Listed<WhatsAppCalls>,
} as const;

type Part = keyof typeof STORE_METHODS;
const AGGREGATES = Object.keys(STORE_METHODS).filter((p) => p !== 'lifecycle') as Array<
  Exclude<Part, 'lifecycle'>
>;

/** Every method as `part.method`. */
export const allMethods = (): string[] =>
  Object.entries(STORE_METHODS).flatMap(([part, methods]) => Object.keys(methods).map((m) => `${part}.${m}`));

/** Calls `onCall(part.method)` before each listed method of `target` runs; otherwise `target` as it is. */
function recordingPart<T extends object>(target: T, part: Part, onCall: (name: string) => void): T {
  const listed = STORE_METHODS[part] as Record<string, true>;
  return new Proxy(target, {
    get(t, prop, receiver) {
      const value = Reflect.get(t, prop, receiver);
      if (typeof prop !== 'string' || !listed[prop] || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        onCall(`${part}.${prop}`);
        return (value as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
}

/**
 * The harness with each store it opens seen through a recorder of the methods called on it, and
 * the test that, run after the suites of a file, fails for each method none of them called.
 */
export function coverageOf(harness: StoreHarness): { harness: StoreHarness; everyMethodExercised(): void } {
  const called = new Set<string>();
  const record = (name: string) => called.add(name);
  const wrap = (store: Store): Store => {
    const parts = new Map<PropertyKey, unknown>(
      AGGREGATES.map((part) => [part, recordingPart(store[part] as object, part, record)]),
    );
    const lifecycle = recordingPart(store, 'lifecycle', record);
    return new Proxy(store, {
      get: (_, prop) => (parts.has(prop) ? parts.get(prop) : Reflect.get(lifecycle, prop)),
    });
  };
  return {
    harness: {
      open: async () => wrap(await harness.open()),
      close: (store) => harness.close(store),
    },
    everyMethodExercised() {
      it('calls every method of every storage interface', () => {
        expect(allMethods().filter((m) => !called.has(m))).toEqual([]);
      });
    },
  };
}
