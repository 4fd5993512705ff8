/**
 * The calls that arrive in one event-loop turn, handed to `run` together at the end of that turn
 * (or at once by flush(), before the pool closes): how the PostgreSQL store turns the sends, and
 * the verify attempts, of one turn into one statement and one commit each.
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
