import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Mode } from '../domain/types.js';
import { redisConnection } from '../redis-connection.js';
import {
  type DestinationFilter,
  type DestinationPage,
  FILTER_BITS_LOG2,
  filterable,
  filterKey,
  positionsOf,
  readDestinations,
} from './known-destinations.js';

/**
 * The first bits of the key are its state, the filter's bits follow. READY: a load of every row
 * of the database completed while the key lived; LOADING: a load began on the key as it is. A key
 * Redis lost (a restart without persistence, an eviction, a flush) comes back, at the next add,
 * with both clear: nobody answers from it until a new load completes.
 */
const READY = 0;
const LOADING = 1;
const HEADER_BITS = 64;
/** How long a check's bits stand for its send's add (the screen and the write are milliseconds apart). */
const CHECKED_FOR_MS = 10_000;

/**
 * Ends a load: if the load that set LOADING is still the key's last, ORs the loaded bits (KEYS[2],
 * built by the loader) into the key, which kept the adds made meanwhile, and marks it READY.
 */
const FINISH_LOAD = `
local current = redis.call('getbit', KEYS[1], ${LOADING}) == 1
if current then
  redis.call('bitop', 'OR', KEYS[1], KEYS[1], KEYS[2])
  redis.call('setbit', KEYS[1], ${READY}, 1)
end
redis.call('del', KEYS[2])
if current then return 1 end
return 0
`;
/** Frees the loader's lease if it is still this loader's. */
const RELEASE_LEASE = `
if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end
return 0
`;

export interface SharedFilterOptions {
  /** Namespaces the keys (REDIS_KEY_PREFIX). */
  prefix: string;
  /** How often an instance looks whether the key needs a load (it also does at start). */
  pollMs?: number;
  /** A command that gets no answer within this time fails: the send then reads its signals. */
  commandTimeoutMs?: number;
  /** How long a loader's claim lasts without a sign of life (renewed at every page). */
  loaderLeaseMs?: number;
  /**
   * How long a load waits before it reads the rows (default 5 s): a send whose add went to a key
   * Redis then lost may not have committed yet; once it has, the load reads its row.
   */
  settleMs?: number;
  /** 2^bitsLog2 filter bits (tests use fewer). */
  bitsLog2?: number;
}

/**
 * The destination filter of instances that send on one database, in one Redis string (4 MiB) that
 * every instance adds to before it writes a request and reads from in its risk screen: one
 * BITFIELD a send (the screen's check sets the bits its write would add). Its positions are an
 * HMAC of the destination under a secret the database holds (its `destination_filter_key`
 * setting, see identify): whoever reads Redis without the database cannot test an address against
 * it. The key is named after that secret's digest, so two deployments that share a Redis and a
 * prefix never answer from each other's filter.
 *
 * One instance at a time loads the database's rows into it (a lease in Redis picks it); every
 * instance looks every `pollMs` whether the key needs that, and answers only while the key says
 * READY. Whatever goes wrong answers "maybe held", which costs the query the send would have run
 * without the filter: a key Redis lost (its state bits are gone with it), a command that fails or
 * times out, an add that may not have landed (this instance then clears READY, so a new load
 * covers the destination it could not add).
 */
export class SharedKnownDestinations implements DestinationFilter {
  private readonly redis: Redis;
  private readonly bitsLog2: number;
  private key: string | null = null;
  private secret: Buffer | null = null;
  private page: DestinationPage | null = null;
  /** An add failed (or came before the key was known): READY must be cleared before answering. */
  private unsure = false;
  /** Destinations whose bits a check set (see remember), in two generations. */
  private checked = new Set<string>();
  private checkedBefore = new Set<string>();
  private checkedSince = Date.now();
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private tending: Promise<void> | null = null;
  private firstTend: (() => void) | null = null;
  private readonly firstTended = new Promise<void>((resolve) => {
    this.firstTend = resolve;
  });

  constructor(
    url: string,
    private readonly options: SharedFilterOptions,
  ) {
    this.bitsLog2 = options.bitsLog2 ?? FILTER_BITS_LOG2;
    // A failed command answers "maybe": the send reads its signals.
    this.redis = redisConnection(url, options.commandTimeoutMs ?? 500);
  }

  /**
   * Connects before the first send: a command given before the connection is up fails at once,
   * and a failed add costs a load of the whole key. Starts anyway when Redis is away.
   */
  async connect(): Promise<void> {
    try {
      await this.redis.connect();
    } catch {
      // ioredis goes on trying; until then every send reads its signals.
    }
  }

  /**
   * Takes the database's filter secret (base64url), which names the key and keys the positions;
   * until then the filter neither adds nor answers.
   */
  identify(secret: string): void {
    this.secret = Buffer.from(secret, 'base64url');
    const name = createHash('sha256')
      .update('destination filter name\u0000')
      .update(this.secret)
      .digest('hex');
    this.key = `${this.options.prefix}:destinations:${name.slice(0, 32)}`;
    this.start();
  }

  add(accountId: string, mode: Mode, destination: string): void {
    const key = this.key;
    if (!key || this.stopped) {
      this.unsure = true;
      return;
    }
    const name = filterKey(accountId, mode, destination);
    // Its screen's check already set its bits (the usual case for an email address).
    if (this.checked.delete(name) || this.checkedBefore.delete(name)) return;
    const ops = this.offsets(name).flatMap((o) => ['SET', 'u1', o, 1]);
    this.redis.call('BITFIELD', key, ...ops).catch(() => {
      this.unsure = true;
      void this.tend();
    });
  }

  /**
   * Reads the key's state and the destination's bits and sets them, in one command: the request
   * this screen is for is written next, and a send refused after its screen only leaves a false
   * "maybe" behind. Its add then has nothing left to do.
   */
  async certainlyNew(
    accountId: string,
    mode: Mode,
    destination: string,
    country: string | null,
  ): Promise<boolean> {
    const key = this.key;
    if (!key || this.stopped || !filterable(destination, country)) return false;
    const name = filterKey(accountId, mode, destination);
    const ops = ['GET', 'u1', READY, ...this.offsets(name).flatMap((o) => ['SET', 'u1', o, 1])];
    try {
      const [ready, ...before] = (await this.redis.call('BITFIELD', key, ...ops)) as number[];
      this.remember(name);
      return ready === 1 && before.includes(0) && !this.unsure;
    } catch {
      // Maybe not set: the add sets the bits again.
      return false;
    }
  }

  /** Names whose bits a check set, kept until their add or for one to two CHECKED_FOR_MS. */
  private remember(name: string): void {
    const now = Date.now();
    if (now - this.checkedSince > CHECKED_FOR_MS) {
      this.checkedBefore = this.checked;
      this.checked = new Set();
      this.checkedSince = now;
    }
    this.checked.add(name);
  }

  /**
   * Starts looking after the key: at once, then every `pollMs`. Resolves once the first look is
   * over (the key was ready, this instance loaded it, or another instance is loading it).
   */
  async load(page: DestinationPage): Promise<void> {
    this.page = page;
    this.start();
    await this.firstTended;
  }

  /** Whether the key is READY now, for this instance (tests wait on it). */
  async answering(): Promise<boolean> {
    if (!this.key || this.unsure) return false;
    try {
      return (await this.redis.getbit(this.key, READY)) === 1;
    } catch {
      return false;
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.firstTend?.();
    // QUIT after the commands already sent, so that the adds of the last sends land.
    this.redis.quit().catch(() => this.redis.disconnect());
  }

  private start(): void {
    if (!this.key || !this.page || this.timer || this.stopped) return;
    void this.tend();
    this.timer = setInterval(() => void this.tend(), this.options.pollMs ?? 5000);
    this.timer.unref();
  }

  /** One look at the key, never two at once. */
  private tend(): Promise<void> {
    if (!this.tending)
      this.tending = this.tendOnce()
        .catch(() => undefined)
        .finally(() => {
          this.tending = null;
          this.firstTend?.();
          this.firstTend = null;
        });
    return this.tending;
  }

  private async tendOnce(): Promise<void> {
    const key = this.key;
    if (!key || !this.page || this.stopped) return;
    if (this.unsure) {
      // Cleared before answering again: a load that was under way no longer makes the key READY.
      this.unsure = false;
      try {
        await this.redis.call('BITFIELD', key, 'SET', 'u1', READY, 0, 'SET', 'u1', LOADING, 0);
      } catch (err) {
        this.unsure = true;
        throw err;
      }
    }
    if ((await this.redis.getbit(key, READY)) === 1) return;
    const lease = `${key}:loader`;
    const token = randomUUID();
    const leaseMs = this.options.loaderLeaseMs ?? 60_000;
    if ((await this.redis.set(lease, token, 'PX', leaseMs, 'NX')) !== 'OK') return;
    try {
      await this.redis.setbit(key, LOADING, 1);
      // Adds from here on land in the key; rows of earlier adds it may have lost commit meanwhile.
      await new Promise((resolve) => setTimeout(resolve, this.options.settleMs ?? 5000));
      const page = this.page;
      // The rows' bits are set here and sent at the end as one string: a command per row would
      // take seconds of CPU per million rows (about 10 µs each).
      const loaded = Buffer.alloc((HEADER_BITS + 2 ** this.bitsLog2) / 8);
      const complete = await readDestinations(
        page,
        async (rows) => {
          for (const r of rows)
            for (const o of this.offsets(filterKey(r.accountId, r.mode, r.destination)))
              loaded[o >>> 3] = (loaded[o >>> 3] as number) | (0x80 >>> (o & 7));
          await this.redis.pexpire(lease, leaseMs);
        },
        () => this.stopped,
      );
      if (complete) {
        const bits = `${lease}:${token}`;
        await this.redis.set(bits, loaded, 'PX', leaseMs);
        await this.redis.eval(FINISH_LOAD, 2, key, bits);
      }
    } finally {
      await this.redis.eval(RELEASE_LEASE, 1, lease, token).catch(() => undefined);
    }
  }

  /** The key's bit offsets of a destination's filterKey. */
  private offsets(name: string): number[] {
    const digest = createHmac('sha256', this.secret as Buffer)
      .update(name)
      .digest();
    return positionsOf(digest.readUInt32LE(0), digest.readUInt32LE(4), this.bitsLog2).map(
      (p) => HEADER_BITS + p,
    );
  }
}
