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
/** The filter's size in bits, as a power of two: 2^25 bits, 4 MiB. */
const FILTER_BITS_LOG2 = 25;
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
 * filter of fixed size: a send to a destination the store has certainly never held has no
 * history, so the risk screen knows its history without a query. A false positive only costs the
 * query; there are no false negatives once the store's rows are loaded (until then every
 * destination may be held). Only a phone's signals depend on other destinations (its number
 * block, its country's breaker), so only an email address is ever answered without a query.
 *
 * The filter skips the read of a history, never a refusal: a send's write reads its destination's
 * block whatever the filter said (src/store/blocks.ts). It must see every request written on the
 * database to be right about the history, so it is kept only by a process that is the only one
 * writing there (compose.ts; the instance registry suspends it while another is there).
 */
export interface DestinationFilter {
  /** Remembers a destination before its request is written. */
  add(accountId: string, mode: Mode, destination: string): void;
  /** Whether this send's destination has certainly no history (an email address never held). */
  certainlyNew(accountId: string, mode: Mode, destination: string, country: string | null): boolean;
  /** Fills the filter with every destination the store holds, then answers. */
  load(page: DestinationPage): Promise<void>;
  /** Answers no more, for good (the store is closing). */
  stop(): void;
}

/** Only an email address may be answered without a query: a phone's signals count its neighbours. */
const filterable = (destination: string, country: string | null): boolean =>
  country === null && numberBlock(destination) === null;

/**
 * A destination's risk signals: NO_HISTORY where the filter says it was certainly never held,
 * else what `read` finds.
 */
export function signalsThrough(
  filter: DestinationFilter | null,
  send: { accountId: string; mode: Mode; destination: string; country: string | null },
  read: () => Promise<DestinationSignals>,
): Promise<DestinationSignals> {
  if (filter?.certainlyNew(send.accountId, send.mode, send.destination, send.country))
    return Promise.resolve(NO_HISTORY);
  return read();
}

/** The filter's bit positions of a key, below 2^bitsLog2: two FNV-1a hashes of the key, combined. */
function filterPositions(
  accountId: string,
  mode: Mode,
  destination: string,
  bitsLog2 = FILTER_BITS_LOG2,
): number[] {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  const key = `${accountId}\u0000${mode}\u0000${destination}`;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  // HASHES positions from the two hashes (Kirsch-Mitzenmacher).
  const step = h2 | 1;
  // A shift, not `2 ** bitsLog2`: V8 calls its pow() for that on every key (bitsLog2 < 31).
  const mask = (1 << bitsLog2) - 1;
  const positions = new Array<number>(HASHES);
  for (let i = 0; i < HASHES; i++) positions[i] = (h1 + Math.imul(i, step)) & mask;
  return positions;
}

/**
 * Hands every destination of the store's two tables to `take`, a page at a time, yielding to
 * requests between pages. False when `stopped` said to give up before the end.
 */
async function readDestinations(
  page: DestinationPage,
  take: (rows: Array<{ accountId: string; mode: Mode; destination: string }>) => void,
  stopped: () => boolean,
): Promise<boolean> {
  for (const table of ['verifications', 'contacts'] as const) {
    let after = '';
    for (;;) {
      if (stopped()) return false;
      const rows = await page(table, after, PAGE);
      take(rows.map((r) => ({ accountId: r.account_id, mode: rowMode(r.test), destination: r.destination })));
      if (rows.length < PAGE) break;
      after = (rows[rows.length - 1] as { id: string }).id;
      // Requests go on meanwhile (SQLite answers a page without ever leaving this thread).
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return !stopped();
}

/**
 * The filter in this process's memory (4 MiB). It is complete only while this process is the one
 * that writes requests on its database: one instance, no REDIS_URL. While another writes there it
 * is suspended; alone again, it reads the database's destinations again (its bits only ever add
 * destinations, so what it held stays true) and answers once that read is over.
 */
export class KnownDestinations implements DestinationFilter {
  private readonly bits: Int32Array;
  private ready = false;
  private stopped = false;
  private suspended = false;
  /** The store's pages, from the first load: a reload reads them again. */
  private page: DestinationPage | null = null;
  /** Bumped by suspend(): a load that began before it must not make the filter answer. */
  private generation = 0;

  constructor(private readonly bitsLog2 = FILTER_BITS_LOG2) {
    this.bits = new Int32Array(2 ** (bitsLog2 - 5));
  }

  /** Whether the store's rows are loaded, so that a destination may be answered as never held. */
  get answering(): boolean {
    return this.ready;
  }

  add(accountId: string, mode: Mode, destination: string): void {
    for (const p of filterPositions(accountId, mode, destination, this.bitsLog2))
      this.bits[p >>> 5] = (this.bits[p >>> 5] as number) | (1 << (p & 31));
  }

  /** False only when the store certainly holds nothing of this destination. */
  mightHold(accountId: string, mode: Mode, destination: string): boolean {
    if (!this.ready) return true;
    for (const p of filterPositions(accountId, mode, destination, this.bitsLog2))
      if (((this.bits[p >>> 5] as number) & (1 << (p & 31))) === 0) return false;
    return true;
  }

  certainlyNew(accountId: string, mode: Mode, destination: string, country: string | null): boolean {
    return filterable(destination, country) && !this.mightHold(accountId, mode, destination);
  }

  /**
   * Reads every destination the store holds, then starts answering. Should a read fail, or the
   * store close first, it never answers: every send reads its signals as before.
   */
  load(page: DestinationPage): Promise<void> {
    this.page = page;
    return this.fill();
  }

  /**
   * Another process writes on the database: its sends never pass through this filter, so it
   * answers nothing (every send reads its history) until reload().
   */
  suspend(): void {
    this.suspended = true;
    this.ready = false;
    this.generation++;
  }

  /** This process is alone on its database again: reads every destination again, then answers. */
  reload(): Promise<void> {
    this.suspended = false;
    return this.fill();
  }

  stop(): void {
    this.stopped = true;
    this.ready = false;
  }

  private async fill(): Promise<void> {
    const page = this.page;
    const generation = this.generation;
    const gone = () => this.stopped || this.suspended || generation !== this.generation;
    if (!page || gone()) return;
    try {
      const complete = await readDestinations(
        page,
        (rows) => {
          for (const r of rows) this.add(r.accountId, r.mode, r.destination);
        },
        gone,
      );
      if (complete && !gone()) this.ready = true;
    } catch {
      // Left unready: every send queries, which is what it did before this filter.
    }
  }
}

/** One page of a table's destinations in id order (DestinationPage), in either dialect. */
export const destinationPageSql = (table: 'verifications' | 'contacts', dialect: 'sqlite' | 'postgres') =>
  placeholdersFor(
    dialect,
    `SELECT id, account_id, test, destination FROM ${table} WHERE id > ? ORDER BY id LIMIT ?`,
  );
