import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/domain/clock.js';
import { StoreUnavailable } from '../../src/domain/ports/storage-errors.js';
import type { SweepResult, Verifications } from '../../src/domain/ports/verifications.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { Sweeper } from '../../src/store/sweeper.js';
import { DAY, MINUTE, outboxContent, T0, verification } from './fixtures.js';

/** A pino logger whose lines the test can read. */
function captureLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A store whose sweep answers from a script and records how it was called. */
function scriptedStore(results: Array<SweepResult | Error>) {
  const calls: Array<[number, number, number]> = [];
  const sweep = vi.fn(async (now: number, retentionMs: number, batch: number) => {
    calls.push([now, retentionMs, batch]);
    const next = results.shift() ?? { expired: 0, deleted: 0 };
    if (next instanceof Error) throw next;
    return next;
  });
  return { verifications: { sweep } satisfies Pick<Verifications, 'sweep'>, calls, sweep };
}

describe('retention sweeper', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps batch after batch until one comes back short, at the clock’s time', async () => {
    const clock = new ManualClock(T0);
    const { verifications, calls } = scriptedStore([
      { expired: 100, deleted: 0 },
      { expired: 3, deleted: 100 },
      { expired: 0, deleted: 99 },
      { expired: 100, deleted: 100 },
    ]);
    const { logger, lines } = captureLogger();
    const sweeper = new Sweeper({
      verifications,
      clock,
      logger,
      retentionDays: 30,
      intervalSeconds: 60,
      batchSize: 100,
    });
    expect(await sweeper.run()).toEqual({ expired: 103, deleted: 199 });
    expect(calls).toEqual([
      [T0, 30 * DAY, 100],
      [T0, 30 * DAY, 100],
      [T0, 30 * DAY, 100],
    ]);
    expect(lines.at(-1)).toMatchObject({ msg: 'retention sweep', expired: 103, deleted: 199, batches: 3 });
  });

  it('expires and deletes real rows once the clock has moved past them', async () => {
    const store = new SqliteStore(':memory:');
    const clock = new ManualClock(T0);
    const { logger, lines } = captureLogger();
    const sweeper = new Sweeper({
      verifications: store.verifications,
      clock,
      logger,
      retentionDays: 30,
      intervalSeconds: 60,
      batchSize: 2,
    });
    const rows = Array.from({ length: 5 }, () =>
      verification({ destination: `x${Math.random()}@example.com` }),
    );
    for (const row of rows) await store.verifications.createVerifications([row]);
    await store.verifications.addOutboxMessage(rows[0]!.id, outboxContent(), '123456');

    expect(await sweeper.run()).toEqual({ expired: 0, deleted: 0 });
    clock.advance(11 * MINUTE);
    expect(await sweeper.run()).toEqual({ expired: 5, deleted: 0 });
    expect((await store.verifications.getVerification('acc_1', rows[0]!.id))?.status).toBe('expired');
    clock.advance(31 * DAY);
    expect(await sweeper.run()).toEqual({ expired: 0, deleted: 5 });
    expect(await store.verifications.getVerification('acc_1', rows[0]!.id)).toBeNull();
    expect(await store.verifications.listOutbox({ limit: 5 })).toEqual([]);
    // Counts only: no destination reaches the log.
    expect(JSON.stringify(lines)).not.toContain('example.com');
    await store.close();
  });

  it('runs on its interval, never two sweeps at once, and stops on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let release: () => void = () => {};
    const sweep = vi.fn(
      () => new Promise<SweepResult>((resolve) => (release = () => resolve({ expired: 0, deleted: 0 }))),
    );
    const verifications = { sweep } satisfies Pick<Verifications, 'sweep'>;
    const sweeper = new Sweeper({
      verifications,
      clock: new ManualClock(T0),
      logger: pino({ level: 'silent' }),
      retentionDays: 30,
      intervalSeconds: 60,
    });
    sweeper.start();
    vi.advanceTimersByTime(59_000);
    expect(sweep).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    // The first sweep is still running: the next tick joins it instead of starting another.
    vi.advanceTimersByTime(60_000);
    expect(sweep).toHaveBeenCalledTimes(1);
    const stopped = sweeper.stop();
    release();
    await stopped;
    vi.advanceTimersByTime(600_000);
    expect(sweep).toHaveBeenCalledTimes(1);
  });

  it('survives a database outage and sweeps again on the next run', async () => {
    const { verifications, sweep } = scriptedStore([
      { expired: 10, deleted: 10 },
      new StoreUnavailable('database unavailable: connect ECONNREFUSED'),
      { expired: 1, deleted: 0 },
    ]);
    const { logger, lines } = captureLogger();
    const sweeper = new Sweeper({
      verifications,
      clock: new ManualClock(T0),
      logger,
      retentionDays: 1,
      intervalSeconds: 1,
      batchSize: 10,
    });
    expect(await sweeper.run()).toEqual({ expired: 10, deleted: 10 });
    expect(lines.at(-1)).toMatchObject({ level: 40, msg: 'retention sweep stopped early' });
    expect(await sweeper.run()).toEqual({ expired: 1, deleted: 0 });
    expect(sweep).toHaveBeenCalledTimes(3);
  });
});
