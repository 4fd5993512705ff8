import type {
  CounterPlan,
  CounterRef,
  CounterSpec,
  LimitDecision,
  PlanOutcome,
} from '../domain/ports/rate-limits.js';

/**
 * A store whose counters are decided in this process, at once: no round trip to wait for, so a
 * plan runs in one turn of the event loop (nothing else counts in between) and allocates no
 * promise per counter.
 */
export interface CountersNow {
  consumeNow(spec: CounterSpec, key: string): LimitDecision;
  refundNow(spec: CounterSpec, key: string): void;
  /** Adds a point; a write it returns is one the answer must not outlive (awaited before the outcome). */
  penalizeNow(spec: CounterSpec, key: string): Promise<void> | undefined;
  peekNow(spec: CounterSpec, key: string): LimitDecision;
  countNow(spec: CounterSpec, key: string): number;
}

/**
 * A CounterPlan run over an in-process store, in the plan's order: what the memory stores do, and
 * the reference the Redis script follows step by step.
 */
function runPlanNow(counters: CountersNow, plan: CounterPlan): Promise<PlanOutcome> {
  const writes: Array<Promise<void>> = [];
  const outcome = decide(counters, plan, writes);
  return writes.length === 0 ? Promise.resolve(outcome) : Promise.all(writes).then(() => outcome);
}

function decide(counters: CountersNow, plan: CounterPlan, writes: Array<Promise<void>>): PlanOutcome {
  for (const a of plan.addsFirst ?? []) {
    const write = counters.penalizeNow(a.spec, a.key);
    if (write) writes.push(write);
  }
  const reads: number[] = [];
  for (const r of plan.reads ?? []) reads.push(counters.countNow(r.spec, r.key));
  const outcome: PlanOutcome = { reads, rate: null, budget: null, refused: [], charged: [] };

  if (plan.rate) {
    outcome.rate = counters.consumeNow(plan.rate.spec, plan.rate.key);
    if (!outcome.rate.allowed) return outcome;
    outcome.charged.push(plan.rate);
  }

  const budgets = plan.budgets ?? [];
  for (let index = 0; index < budgets.length; index++) {
    const b = budgets[index] as CounterRef;
    const budget = counters.peekNow(b.spec, b.key);
    if (!budget.allowed) {
      outcome.budget = { index, retryAfterSeconds: budget.retryAfterSeconds };
      return outcome;
    }
  }

  const taken: CounterRef[] = [];
  const takes = plan.takes ?? [];
  for (let group = 0; group < takes.length; group++) {
    const steps = takes[group] as CounterRef[];
    for (let step = 0; step < steps.length; step++) {
      const t = steps[step] as CounterRef;
      const decision = counters.consumeNow(t.spec, t.key);
      if (!decision.allowed) {
        outcome.refused.push({ group, step, retryAfterSeconds: decision.retryAfterSeconds });
        break;
      }
      taken.push(t);
    }
  }
  if (outcome.refused.length > 0) {
    for (const t of taken) counters.refundNow(t.spec, t.key);
    return outcome;
  }
  outcome.charged.push(...taken);

  for (const a of plan.adds ?? []) {
    const write = counters.penalizeNow(a.spec, a.key);
    if (write) writes.push(write);
    outcome.charged.push(a);
  }
  return outcome;
}

/**
 * An in-process store's RateLimitStore operations, each the decision made at once (CountersNow)
 * handed back as a promise, and a plan run in one turn (runPlanNow).
 */
export abstract class InProcessCounters implements CountersNow {
  abstract consumeNow(spec: CounterSpec, key: string, points?: number): LimitDecision;
  abstract refundNow(spec: CounterSpec, key: string, points?: number): void;
  abstract penalizeNow(spec: CounterSpec, key: string, points?: number): Promise<void> | undefined;
  abstract peekNow(spec: CounterSpec, key: string): LimitDecision;
  abstract countNow(spec: CounterSpec, key: string): number;

  async consume(spec: CounterSpec, key: string, points = 1): Promise<LimitDecision> {
    return this.consumeNow(spec, key, points);
  }

  async refund(spec: CounterSpec, key: string, points = 1): Promise<void> {
    this.refundNow(spec, key, points);
  }

  async penalize(spec: CounterSpec, key: string, points = 1): Promise<void> {
    await this.penalizeNow(spec, key, points);
  }

  async peek(spec: CounterSpec, key: string): Promise<LimitDecision> {
    return this.peekNow(spec, key);
  }

  async count(spec: CounterSpec, key: string): Promise<number> {
    return this.countNow(spec, key);
  }

  run(plan: CounterPlan): Promise<PlanOutcome> {
    return runPlanNow(this, plan);
  }

  /** Gives back one point of each counter. */
  giveBack(refs: CounterRef[]): Promise<void> {
    for (const r of refs) this.refundNow(r.spec, r.key);
    return Promise.resolve();
  }
}
