import type { CounterPlan, CounterRef, PlanOutcome, RateLimitStore } from '../domain/ports/rate-limits.js';

type Counters = Pick<RateLimitStore, 'consume' | 'refund' | 'penalize' | 'peek' | 'count'>;

/**
 * A CounterPlan run over a store's single operations, in the plan's order: what an in-process
 * store does (no round trip to save), and the reference the Redis script follows step by step.
 */
export async function runPlanStepByStep(counters: Counters, plan: CounterPlan): Promise<PlanOutcome> {
  const reads: number[] = [];
  for (const r of plan.reads ?? []) reads.push(await counters.count(r.spec, r.key));
  const outcome: PlanOutcome = { reads, rate: null, budget: null, refused: [], charged: [] };

  if (plan.rate) {
    outcome.rate = await counters.consume(plan.rate.spec, plan.rate.key);
    if (!outcome.rate.allowed) return outcome;
    outcome.charged.push(plan.rate);
  }

  for (const [index, b] of (plan.budgets ?? []).entries()) {
    const budget = await counters.peek(b.spec, b.key);
    if (!budget.allowed) {
      outcome.budget = { index, retryAfterSeconds: budget.retryAfterSeconds };
      return outcome;
    }
  }

  const taken: CounterRef[] = [];
  for (const [group, counters_] of (plan.takes ?? []).entries()) {
    for (const [step, t] of counters_.entries()) {
      const decision = await counters.consume(t.spec, t.key);
      if (!decision.allowed) {
        outcome.refused.push({ group, step, retryAfterSeconds: decision.retryAfterSeconds });
        break;
      }
      taken.push(t);
    }
  }
  if (outcome.refused.length > 0) {
    await Promise.all(taken.map((t) => counters.refund(t.spec, t.key)));
    return outcome;
  }
  outcome.charged.push(...taken);

  for (const a of plan.adds ?? []) {
    await counters.penalize(a.spec, a.key);
    outcome.charged.push(a);
  }
  return outcome;
}

/** Gives back one point of each counter, over a store's single operations. */
export async function giveBackEach(counters: Counters, refs: CounterRef[]): Promise<void> {
  await Promise.all(refs.map((r) => counters.refund(r.spec, r.key)));
}
