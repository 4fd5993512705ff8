import type { Database, Statement } from 'better-sqlite3';

interface Waiter {
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit for a single better-sqlite3 connection.
 *
 * Each unit of work runs at once, synchronously, inside a transaction that stays open until the
 * end of the current event-loop turn; then one COMMIT makes the whole batch durable and every
 * unit's promise settles. Statements still run one after another on one connection, so each unit
 * sees the effects of the ones before it (counters stay atomic), while the cost of a commit is
 * shared by every request that arrived in the same turn. Nothing is acknowledged before its
 * batch commits. A savepoint per unit keeps a failing unit from taking the others with it.
 * While another process (a second worker, the CLI) holds the write lock, units wait in order on
 * a timer rather than inside SQLite's busy handler, which would stop the event loop.
 */
export class GroupCommit {
  private readonly begin: Statement;
  private readonly commit: Statement;
  private readonly rollback: Statement;
  private readonly savepoint: Statement;
  private readonly release: Statement;
  private readonly rollbackTo: Statement;
  private readonly busyTimeout: number;
  private waiters: Waiter[] = [];
  private open = false;
  /** Units that arrived while another process held the write lock, in arrival order. */
  private queued: Array<{ run: () => void; reject: (err: unknown) => void }> = [];
  private retry: NodeJS.Timeout | null = null;

  /** `holdOff`: true while writers should let another thread take the lock (Checkpointer). */
  constructor(
    readonly db: Database,
    private readonly holdOff: () => boolean = () => false,
  ) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
    this.savepoint = db.prepare('SAVEPOINT unit');
    this.release = db.prepare('RELEASE unit');
    this.rollbackTo = db.prepare('ROLLBACK TO unit');
    // The connection itself never waits for a lock: SQLite's busy handler sleeps, which would stop
    // the whole event loop. A write that finds the lock taken queues on a timer (tryBegin); only
    // close() and the rare read that finds the database busy wait, for the configured time.
    this.busyTimeout = Number(db.pragma('busy_timeout', { simple: true })) || 0;
    db.pragma('busy_timeout = 0');
  }

  /**
   * Runs a unit of work that writes; resolves with its result once the batch has committed.
   * `savepoint: false` is for a unit of one statement, which SQLite already applies whole or not
   * at all: it spares two statements per unit.
   */
  write<T>(work: () => T, savepoint = true): Promise<T> {
    if (!this.open && (this.queued.length > 0 || !this.tryBegin())) {
      return new Promise<T>((resolve, reject) => {
        this.queued.push({ run: () => void this.unit(work, savepoint).then(resolve, reject), reject });
        this.retry ??= setTimeout(() => this.retryQueued(), 1);
      });
    }
    return this.unit(work, savepoint);
  }

  private unit<T>(work: () => T, savepoint: boolean): Promise<T> {
    let result: T;
    if (savepoint) this.savepoint.run();
    try {
      result = work();
      if (savepoint) this.release.run();
    } catch (err) {
      if (savepoint) {
        this.rollbackTo.run();
        this.release.run();
      }
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      this.waiters.push({ resolve: () => resolve(result), reject });
    });
  }

  /**
   * Opens a batch unless another process (a second worker, the CLI) holds the write lock. SQLite's
   * busy handler would wait for it by sleeping, which stops this whole event loop for up to
   * busy_timeout; so the attempt does not wait, and the units queue on a timer instead.
   */
  private tryBegin(): boolean {
    if (this.holdOff()) return false;
    try {
      this.begin.run();
    } catch (err) {
      if (isBusy(err)) return false;
      throw err;
    }
    this.open = true;
    setImmediate(() => this.flush());
    return true;
  }

  /**
   * Runs `work` as the connection's configured busy_timeout allows. In WAL mode a read finds the
   * database busy only in rare moments (another connection recovering the WAL after a crash), so
   * paying for the wait there costs nothing in the common case.
   */
  waitingIfBusy<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      if (!isBusy(err) || this.busyTimeout === 0) throw err;
      this.db.pragma(`busy_timeout = ${this.busyTimeout}`);
      try {
        return work();
      } finally {
        this.db.pragma('busy_timeout = 0');
      }
    }
  }

  private retryQueued(): void {
    this.retry = null;
    try {
      if (!this.open && !this.tryBegin()) {
        this.retry = setTimeout(() => this.retryQueued(), 1);
        return;
      }
    } catch (err) {
      this.failQueued(err);
      return;
    }
    this.runQueued();
  }

  private runQueued(): void {
    const queued = this.queued;
    this.queued = [];
    for (const unit of queued) unit.run();
  }

  private failQueued(err: unknown): void {
    const queued = this.queued;
    this.queued = [];
    for (const unit of queued) unit.reject(err);
  }

  /** Runs the queued units waiting for the lock as long as busy_timeout allows (on close). */
  private runQueuedBlocking(): void {
    if (this.queued.length === 0) return;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (!this.open) {
      try {
        this.waitingIfBusy(() => this.begin.run());
      } catch (err) {
        this.failQueued(err);
        return;
      }
      this.open = true;
      setImmediate(() => this.flush());
    }
    this.runQueued();
  }

  /**
   * Runs a read. While a batch is open the read may see its uncommitted writes, so the answer
   * waits for that batch (and fails with it); otherwise it resolves at once. A read changes
   * nothing, so it needs no savepoint.
   */
  read<T>(work: () => T): Promise<T> {
    let result: T;
    try {
      result = this.open ? work() : this.waitingIfBusy(work);
    } catch (err) {
      return Promise.reject(err);
    }
    if (!this.open) return Promise.resolve(result);
    return new Promise<T>((resolve, reject) => {
      this.waiters.push({ resolve: () => resolve(result), reject });
    });
  }

  /** Commits the open batch now (also before closing the connection, queued units included). */
  flush(): void {
    this.runQueuedBlocking();
    if (!this.open) return;
    const waiters = this.waiters;
    this.waiters = [];
    this.open = false;
    try {
      this.commit.run();
    } catch (err) {
      try {
        this.rollback.run();
      } catch {
        // The failed COMMIT may already have rolled back.
      }
      for (const waiter of waiters) waiter.reject(err);
      return;
    }
    for (const waiter of waiters) waiter.resolve();
  }
}

const isBusy = (err: unknown) => (err as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
