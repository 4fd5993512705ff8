/**
 * What the clients saw: every acknowledged (2xx) send with its request ids, every verify that
 * answered `verified: true`, and every answer's status by phase of the campaign. The campaign's
 * invariants are checked against this record and the store.
 */
export class Ledger {
  /** The fault under way; answers are counted under it. */
  phase = 'steady';
  /** Acknowledged request id → its group (the ids of one send, sorted and joined). */
  readonly acked = new Map<string, string>();
  /** Group → `verified: true` answers it got. More than one is a code verified twice. */
  readonly verifiedAnswers = new Map<string, number>();
  /** `phase` → `kind status` → count (`none` when nothing answered). */
  readonly answers = new Map<string, Map<string, number>>();
  /** verify-code answered 404 for a request whose send was acknowledged: it was lost. */
  readonly missingOnVerify: string[] = [];
  /** 5xx answers other than 503, with the error code: a fault that did not fail cleanly. */
  readonly unclean: Array<{ phase: string; kind: string; status: number; code: string }> = [];
  /** Sends made with an Idempotency-Key: the requests of the answer that ended their retries. */
  readonly idempotent: Array<{ to: string; tries: number; requestIds: string[] | null; replayed: boolean }> =
    [];
  /** Send calls answered 2xx (a dual send is one call, two requests). */
  sendsAcked = 0;

  count(kind: string, status: number | 'none', errorCode?: string): void {
    const phase = this.answers.get(this.phase) ?? new Map<string, number>();
    this.answers.set(this.phase, phase);
    const key = `${kind} ${status}`;
    phase.set(key, (phase.get(key) ?? 0) + 1);
    if (typeof status === 'number' && status >= 500 && status !== 503)
      this.unclean.push({ phase: this.phase, kind, status, code: errorCode ?? '' });
  }

  ack(requestIds: string[]): void {
    const group = [...requestIds].sort().join('+');
    for (const id of requestIds) this.acked.set(id, group);
    this.sendsAcked++;
  }

  verified(requestId: string): void {
    const group = this.acked.get(requestId) ?? requestId;
    this.verifiedAnswers.set(group, (this.verifiedAnswers.get(group) ?? 0) + 1);
  }

  /** Answers of one phase, `kind status` → count. */
  statuses(phase: string): Record<string, number> {
    return Object.fromEntries([...(this.answers.get(phase) ?? new Map())].sort());
  }
}
