import { hashApiKey } from '../domain/api-keys.js';
import type { KeysAndAccounts } from '../domain/ports/keys-and-accounts.js';
import type { AuthenticatedKey } from '../domain/types.js';

/** Where the cache looks a key up. */
export type KeyLookup = Pick<KeysAndAccounts, 'findActiveApiKey'>;

/** How long a looked-up key is trusted without asking the database again. */
export const KEY_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

/**
 * API-key lookups, cached briefly so that a busy key costs one query every few seconds instead
 * of one per request. Revoking or rotating a key, or changing an account, through this process
 * clears the cache at once (see buildApp); another process (a second worker or instance, the
 * CLI) is heard within KEY_CACHE_TTL_MS. Entries are keyed by the key's hash, as stored.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, { key: AuthenticatedKey; expiresAt: number }>();
  /** Bumped by clear(): a lookup that straddles a clear must not put its answer back. */
  private generation = 0;

  constructor(
    private readonly keys: KeyLookup,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
  ) {}

  /**
   * The key for `token`: at once when this cache holds it (nearly every request), else a promise
   * of the database's answer (null for an unknown or revoked key). The token is hashed once.
   */
  find(token: string): AuthenticatedKey | Promise<AuthenticatedKey | null> {
    const hash = hashApiKey(token);
    const now = performance.now();
    const hit = this.entries.get(hash);
    if (hit && hit.expiresAt > now) return hit.key;
    return this.fetch(hash, now);
  }

  private async fetch(hash: string, now: number): Promise<AuthenticatedKey | null> {
    const generation = this.generation;
    const key = await this.keys.findActiveApiKey(hash);
    this.entries.delete(hash);
    if (key && generation === this.generation) {
      // Insertion order is age order: past the bound, the oldest entry goes.
      if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
      this.entries.set(hash, { key, expiresAt: now + this.ttlMs });
    }
    return key;
  }

  clear(): void {
    this.entries.clear();
    this.generation++;
  }
}

const caches = new WeakMap<KeyLookup, ApiKeyCache>();

/** The one cache of a key lookup, shared by every route that authenticates with it. */
export function keyCacheOf(keys: KeyLookup): ApiKeyCache {
  let cache = caches.get(keys);
  if (!cache) {
    cache = new ApiKeyCache(keys);
    caches.set(keys, cache);
  }
  return cache;
}
