import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../domain/clock.js';
import {
  type InstanceRecord,
  type Instances,
  type InstancesReport,
  sharedWithoutRedis,
} from '../../domain/ports/instances.js';

/** How often an instance says it is alive, unless told otherwise (tests). */
export const HEARTBEAT_MS = 10_000;
/** Heartbeats an instance may miss before the others count it gone. */
const MISSED_BEATS = 3;

export interface InstanceRegistryOptions {
  instances: Instances;
  clock: Clock;
  logger: Logger;
  /** This process, as it registers. */
  self: Pick<InstanceRecord, 'host' | 'pid' | 'version' | 'redis'>;
  heartbeatMs?: number;
  /**
   * Called when another instance is seen on the database while this one was alone: this process
   * is no longer the only one writing there (its destination filter misses the other's sends).
   */
  onNotAlone?: () => void;
  /** Called when this instance is alone on its database again (the others left, or fell silent). */
  onAlone?: () => void;
}

/**
 * This instance's registration on its database, renewed every heartbeat, and what it sees of the
 * others. Several instances on one database share their rate limits only through one Redis, and
 * an instance without Redis keeps a destination filter that sees only its own sends: when
 * several are alive and one of them runs without REDIS_URL, the registry says so, in a warning
 * (at start, and each time it begins) and in report() (GET /health). The database decides the
 * rest whatever the instances know of each other (a block: src/store/blocks.ts).
 */
export class InstanceRegistry {
  readonly id = randomUUID();
  private readonly heartbeatMs: number;
  private readonly startedAt: number;
  private last: InstancesReport;
  private alone = true;
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> | null = null;
  private failing = false;

  constructor(private readonly options: InstanceRegistryOptions) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.startedAt = options.clock.now();
    this.last = { live: 1, withoutRedis: options.self.redis ? 0 : 1 };
  }

  /** Registers this instance and reads the others (a warning now if it must), then beats on. */
  async start(): Promise<void> {
    await this.beat();
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  /** The instances on the database as of the last heartbeat. */
  report(): InstancesReport {
    return this.last;
  }

  /** Stops beating and removes the registration: the others count this instance gone at once. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating;
    await this.options.instances.leave(this.id).catch(() => undefined);
  }

  private beat(): Promise<void> {
    this.beating ??= this.beatOnce().finally(() => {
      this.beating = null;
    });
    return this.beating;
  }

  private async beatOnce(): Promise<void> {
    const { instances, clock, logger, self } = this.options;
    const now = clock.now();
    let seen: InstanceRecord[];
    try {
      await instances.heartbeat({ id: this.id, ...self, startedAt: this.startedAt, seenAt: now });
      seen = await instances.seenSince(now - MISSED_BEATS * this.heartbeatMs);
      this.failing = false;
    } catch (err) {
      // The database may be away (GET /health says so); the last report stands until it is back.
      if (!this.failing) logger.warn({ err: (err as Error).message }, 'instance heartbeat failed');
      this.failing = true;
      return;
    }
    const others = seen.filter((i) => i.id !== this.id);
    const before = this.last;
    this.last = {
      live: others.length + 1,
      withoutRedis: others.filter((i) => !i.redis).length + (self.redis ? 0 : 1),
    };
    if (this.alone !== (others.length === 0)) {
      this.alone = others.length === 0;
      if (this.alone) this.options.onAlone?.();
      else this.options.onNotAlone?.();
    }
    const shared = sharedWithoutRedis(this.last);
    if (shared && !sharedWithoutRedis(before))
      logger.warn(
        { instances: this.last.live, withoutRedis: this.last.withoutRedis },
        `${this.last.live} instances serve on this database and ${this.last.withoutRedis} of them without REDIS_URL: ` +
          'their rate limits are counted apart, and an instance without Redis no longer skips the risk screen’s ' +
          'read for new addresses (blocks hold all the same). Give every instance the same REDIS_URL ' +
          '(docs/deployment.md, "What each shared part holds").',
      );
    else if (!shared && sharedWithoutRedis(before))
      logger.info(
        { instances: this.last.live },
        'no instance without REDIS_URL shares this database any more',
      );
  }
}
