import {
  LINE_TYPES,
  type LineType,
  type LookupOutcome,
  type LookupParts,
  type NumberFacts,
  type SimChange,
} from '../number-facts.js';
import type { Mode } from '../types.js';
import type { ProviderState } from './delivery.js';

/** One lookup a send asks for: the number, the key's mode, and the parts its account needs. */
export interface LookupRequest {
  /** The number in E.164. */
  e164: string;
  /** A test key never reaches a provider: it gets the documented test numbers' answers. */
  mode: Mode;
  parts: LookupParts;
  /** What readAhead began for this very request: the lookup neither keys nor reads it again. */
  ahead?: LookupAhead | null;
}

/** What readAhead began for a lookup (opaque to a send, which hands it to the lookup). */
export interface LookupAhead {
  /** The number's cache key. */
  readonly key: string;
  /** The shared cache's read; null when this process holds the parts asked. */
  readonly shared: Promise<CachedLookup> | null;
}

/** The carrier lookup provider's state on an instance, as GET /health shows it. */
export interface LookupHealth {
  name: string;
  state: ProviderState;
}

/**
 * Carrier data of a phone number (src/lookup implements it): from the shared cache, else from the
 * deployment's lookup provider. Never throws, never waits past its budget (LOOKUP_TIMEOUT_MS):
 * every fault is an outcome with `ok: false`.
 */
export interface NumberLookup {
  lookup(request: LookupRequest): Promise<LookupOutcome>;
  /**
   * Starts the shared cache's read that a lookup of `request` would begin with, for the lookup to
   * be given as its `ahead`: a send reads the cache beside its other reads rather than after them.
   * Asks no provider; never rejects; null for a test key.
   */
  readAhead?(request: LookupRequest): LookupAhead | null;
  /**
   * What is known of a number now without asking a provider (the contact profile): the fresh
   * parts of the cache (a test key's: the test numbers' answer), or null when it holds none.
   * Never throws.
   */
  known(e164: string, mode: Mode): Promise<KnownNumber | null>;
}

/** A number's facts as the lookups' cache holds them, with when each part was looked up. */
export interface KnownNumber {
  facts: NumberFacts;
  /** When the line type and carrier were looked up; null when the cache holds none. */
  lineCheckedAt: number | null;
  /** When the SIM change was looked up; null when the cache holds none. */
  simCheckedAt: number | null;
}

/** The line part of a number's facts as the cache keeps it, with when it was asked. */
export interface CachedLine {
  lineType: LineType | null;
  carrier: string | null;
  country: string | null;
  mcc: string | null;
  mnc: string | null;
  checkedAt: number;
}

/** The SIM part of a number's facts as the cache keeps it (null: the carrier does not say). */
export interface CachedSim {
  lastSimChange: SimChange | null;
  checkedAt: number;
}

/** The parts the cache holds for a number that are still fresh. */
export interface CachedLookup {
  line: CachedLine | null;
  sim: CachedSim | null;
}

/** What a lookup writes: each part it has, with the time it stops being fresh. */
export interface LookupCacheWrite {
  line?: { facts: CachedLine; expiresAt: number };
  sim?: { facts: CachedSim; expiresAt: number };
}

/**
 * The lookups' cache, shared by every instance of a deployment: Redis with a TTL per part when
 * REDIS_URL is set, else the database (SQLite, PostgreSQL). A number is known only by its key, an
 * HMAC of the number under a secret derived from CODE_SECRET, never by the number itself.
 */
export interface LookupCacheStore {
  /** The parts held for `key` that are fresh at `now`. */
  get(key: string, now: number): Promise<CachedLookup>;
  /** Keeps the parts given, leaving the others as they are. */
  put(key: string, write: LookupCacheWrite): Promise<void>;
  /** Deletes up to `batchSize` entries with no part fresh at `now`; returns how many (Redis: 0, its keys expire). */
  sweep(now: number, batchSize: number): Promise<number>;
  /**
   * Claims `claim` (a cache key and the parts asked) until `until` unless another caller holds an
   * unexpired claim on it at `now`: true when this caller holds it now. How instances sharing the
   * cache ask a provider about a number at most once at a time (src/lookup/service.ts).
   */
  claim(claim: string, now: number, until: number): Promise<boolean>;
  /** Gives a claim up before it lapses (its holder's lookup failed: another may ask now). */
  release(claim: string): Promise<void>;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const time = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** A cached line part read back (JSON from Redis or the database), or null when it is not one. */
export function cachedLineOf(value: unknown): CachedLine | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const checkedAt = time(v.checkedAt);
  if (checkedAt === null) return null;
  const lineType = LINE_TYPES.includes(v.lineType as LineType) ? (v.lineType as LineType) : null;
  return {
    lineType,
    carrier: str(v.carrier),
    country: str(v.country),
    mcc: str(v.mcc),
    mnc: str(v.mnc),
    checkedAt,
  };
}

/** A cached SIM part read back, or null when it is not one. */
export function cachedSimOf(value: unknown): CachedSim | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const checkedAt = time(v.checkedAt);
  if (checkedAt === null) return null;
  return { lastSimChange: simChangeOf(v.lastSimChange), checkedAt };
}

function simChangeOf(value: unknown): SimChange | null {
  if (value === null || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const at = time(v.at);
  if (at !== null) return { at };
  const withinHours = time(v.withinHours);
  const checkedAt = time(v.checkedAt);
  if (withinHours === null || checkedAt === null || typeof v.changed !== 'boolean') return null;
  return { withinHours, changed: v.changed, checkedAt };
}
