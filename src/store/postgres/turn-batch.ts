import { StoreUnavailable } from '../../domain/ports/storage-errors.js';

/**
 * The calls that arrive in one event-loop turn, handed to `run` together at the end of that turn
 * (or at once by flush(), before the pool closes): how the PostgreSQL store turns the sends, the
 * verify attempts and the consumes of one turn into one statement and one commit each.
 */
export class TurnBatch<C> {
  private calls: C[] | null = null;

  constructor(private readonly run: (calls: C[]) => Promise<void>) {}

  add(call: C): void {
    if (!this.calls) {
      this.calls = [];
      setImmediate(() => void this.flush());
    }
    this.calls.push(call);
  }

  async flush(): Promise<void> {
    const calls = this.calls;
    this.calls = null;
    if (calls) await this.run(calls);
  }
}

/**
 * How each batch is settled. More than one call goes to the database in one statement:
 * `together` settles the calls it can and returns those left to run on their own (a guess
 * deferred behind another guess of its group). An unreachable database is every call's answer;
 * any other error runs each call on its own, so that it reaches only the call it belongs to.
 * Calls run on their own go one at a time, in arrival order; `alone` settles its call. `least`:
 * the fewest calls worth running together (1 where the together form is the cheaper one).
 */
export async function settleBatch<C extends { reject: (err: unknown) => void }>(
  batch: C[],
  together: (calls: C[]) => Promise<C[]>,
  alone: (call: C) => Promise<void>,
  least = 2,
): Promise<void> {
  let left = batch;
  if (batch.length >= least) {
    try {
      left = await together(batch);
    } catch (err) {
      if (err instanceof StoreUnavailable) {
        for (const call of batch) call.reject(err);
        return;
      }
    }
  }
  for (const call of left) await alone(call);
}

/**
 * A batch split into the first call of each key and the later ones: one statement can change a
 * row only once, so a later call on the same key runs after it, on its own.
 */
export function firstPerKey<C>(calls: C[], key: (call: C) => string): { first: C[]; later: C[] } {
  const seen = new Set<string>();
  const first: C[] = [];
  const later: C[] = [];
  for (const call of calls) {
    const k = key(call);
    (seen.has(k) ? later : first).push(call);
    seen.add(k);
  }
  return { first, later };
}

/** The rows of a batch statement per call, by the call's ordinal `n` (from 1) that each row carries. */
export function rowsPerCall<R extends { n: unknown }>(calls: number, rows: R[]): R[][] {
  const perCall = Array.from({ length: calls }, (): R[] => []);
  for (const row of rows) perCall[Number(row.n) - 1]?.push(row);
  return perCall;
}
