import type { DestinationSignals } from '../domain/ports/read-model.js';
import type { Mode } from '../domain/types.js';
import { numberBlock } from './contacts.js';
import { rowMode } from './mode.js';
import { placeholdersFor } from './placeholders.js';

/** The signals of a destination nothing was ever sent to: what the risk screen's read returns for it. */
export const NO_HISTORY: DestinationSignals = Object.freeze({
  blocked: false,
  history: Object.freeze({ sends: 0, verified: 0, wrongCodes: 0 }),
  sendsLastHour: 0,
  neighboursLastHour: 0,
  breaker: null,
}) as DestinationSignals;

/** Hash functions per key; with 2^25 bits, about 1 % false positives at 3.5 million destinations. */
const HASHES = 7;
const DEFAULT_BITS_LOG2 = 25;
/** Rows read per page while loading, so that a large table never sits in memory at once. */
const PAGE = 5000;

/** One page of a table's destinations after the row `after` (its id), in id order. */
export type DestinationPage = (
  table: 'verifications' | 'contacts',
  after: string,
  limit: number,
) => Promise<Array<{ id: string; account_id: string; test: unknown; destination: string }>>;

/**
 * The destinations a store holds a request or a contact of, per account and mode, as a Bloom
 * filter of fixed size (4 MiB): a send to a destination the store has certainly never held has
 * no history, so the risk screen knows its signals without a query. A false positive only costs
 * the query; there are no false negatives once the store's rows are loaded (until then every
 * destination may be held). Only a phone's signals depend on other destinations (its number
 * block, its country's breaker), so only an email address is ever answered without a query.
 *
 * It is complete only while this process is the one that writes requests: the composition turns
 * it on for a single instance (no REDIS_URL) and leaves it off where several instances send.
 */
export class KnownDestinations {
  private readonly bits: Int32Array;
  private readonly mask: number;
  private ready = false;
  private stopped = false;

  constructor(bitsLog2 = DEFAULT_BITS_LOG2) {
    this.bits = new Int32Array(2 ** (bitsLog2 - 5));
    this.mask = 2 ** bitsLog2 - 1;
  }

  /** Whether the store's rows are loaded, so that a destination may be answered as never held. */
  get answering(): boolean {
    return this.ready;
  }

  /** Remembers a destination before its request is written. */
  add(accountId: string, mode: Mode, destination: string): void {
    this.visit(accountId, mode, destination, (word, bit) => {
      this.bits[word] = (this.bits[word] as number) | bit;
      return true;
    });
  }

  /** False only when the store certainly holds nothing of this destination. */
  mightHold(accountId: string, mode: Mode, destination: string): boolean {
    if (!this.ready) return true;
    return this.visit(accountId, mode, destination, (word, bit) => ((this.bits[word] as number) & bit) !== 0);
  }

  /** Whether the risk signals of this send are certainly NO_HISTORY (an email address never held). */
  certainlyNew(accountId: string, mode: Mode, destination: string, country: string | null): boolean {
    return (
      country === null && numberBlock(destination) === null && !this.mightHold(accountId, mode, destination)
    );
  }

  /**
   * Reads every destination the store holds, page by page, then starts answering. Should a read
   * fail, or the store close first, it never answers: every send reads its signals as before.
   */
  async load(page: DestinationPage): Promise<void> {
    try {
      for (const table of ['verifications', 'contacts'] as const) {
        let after = '';
        for (;;) {
          if (this.stopped) return;
          const rows = await page(table, after, PAGE);
          for (const r of rows) this.add(r.account_id, rowMode(r.test), r.destination);
          if (rows.length < PAGE) break;
          after = (rows[rows.length - 1] as { id: string }).id;
          // Requests go on meanwhile (SQLite answers a page without ever leaving this thread).
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      this.ready = !this.stopped;
    } catch {
      // Left unready: every send queries, which is what it did before this filter.
    }
  }

  /** Stops a load under way (the store is closing). */
  stop(): void {
    this.stopped = true;
    this.ready = false;
  }

  /** Runs `check` on the word and bit of each of the key's hashes while it returns true. */
  private visit(
    accountId: string,
    mode: Mode,
    destination: string,
    check: (word: number, bit: number) => boolean,
  ) {
    // Two FNV-1a hashes of the key, combined (Kirsch-Mitzenmacher) into HASHES positions.
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ 0x5bd1e995;
    const key = `${accountId}\u0000${mode}\u0000${destination}`;
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    h2 |= 1;
    for (let i = 0; i < HASHES; i++) {
      const position = (h1 + Math.imul(i, h2)) & this.mask;
      if (!check(position >>> 5, 1 << (position & 31))) return false;
    }
    return true;
  }
}

/** One page of a table's destinations in id order (DestinationPage), in either dialect. */
export const destinationPageSql = (table: 'verifications' | 'contacts', dialect: 'sqlite' | 'postgres') =>
  placeholdersFor(
    dialect,
    `SELECT id, account_id, test, destination FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`,
  );
