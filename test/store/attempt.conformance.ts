import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AttemptRow, applyAttempt } from '../../src/domain/attempt-rule.js';
import type { Store } from '../../src/store/factory.js';
import type { StoreHarness } from './conformance.js';
import { dualPair, guessOf, MINUTE, outboxContent, T0, verification } from './fixtures.js';

/** A small deterministic generator (mulberry32): a failure names its scenario, and replays. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { below: (n: number) => Math.floor(next() * n), chance: (p: number) => next() < p };
}

/**
 * Each store's verify attempts held to the attempt rule of the domain (src/domain/attempt-rule.ts):
 * random groups (one request, or a dual pair) take random attempts (right or wrong, on either row,
 * before or after expiry), and after each one the stored rows and the attempt's outcome are what
 * `applyAttempt` says. SQLite's statement and PostgreSQL's (one request alone: tryAttempts; a
 * pair: readGroups then countOrConsumeMany) are rendered from the same rule; this holds them to it.
 */
export function attemptRuleConformance(name: string, harness: StoreHarness): void {
  describe(`Attempt rule conformance: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await harness.open();
    });
    afterEach(() => harness.close(store));

    it('counts, compares and settles every attempt as the domain rule says', async () => {
      for (let scenario = 0; scenario < 30; scenario++) {
        const rnd = random(scenario + 1);
        const maxAttempts = 1 + rnd.below(4);
        const base = { maxAttempts, expiresAt: T0 + 10 * MINUTE, outbox: outboxContent() };
        const rows = rnd.chance(0.5)
          ? dualPair(base).map((r, i) => ({ ...r, outboxCode: `code-${i}` }))
          : [{ ...verification(base), outboxCode: 'code-0' }];
        await store.verifications.createVerifications(rows);
        let model: AttemptRow[] = rows.map((r) => ({
          id: r.id,
          status: 'pending',
          attempts: 0,
          max_attempts: r.maxAttempts,
          expires_at: r.expiresAt,
          wrong_codes: 0,
          verified_at: null,
          method: null,
          outbox_code: r.outboxCode ?? null,
        }));

        for (let step = 0; step < 6; step++) {
          const on = model[rnd.below(model.length)] as AttemptRow;
          const right = rnd.chance(0.3) ? (model[rnd.below(model.length)]?.id as string) : null;
          const now = T0 + (rnd.chance(0.85) ? rnd.below(10 * MINUTE) : 10 * MINUTE + rnd.below(MINUTE));
          const where = `scenario ${scenario}, step ${step}: ${right ? 'right' : 'wrong'} guess on ${on.id} at +${now - T0} ms`;

          // What the port does (Verifications.attempt): nothing is counted on a request that is
          // settled or expired; else the guess is compared with the group's live rows, and the rule
          // decides every row of the group.
          const live = model.filter((r) => r.status === 'pending' && Number(r.expires_at) > now);
          const readable = on.status === 'pending' && Number(on.expires_at) > now;
          const winner = readable && right && live.some((r) => r.id === right) ? right : null;
          const decided = readable ? applyAttempt(model, { now, winner, guessedOn: on.id }) : null;
          const counted = decided?.filter((d) => d.counted) ?? [];

          const outcome = await store.verifications.attempt('acc_1', String(on.id), now, guessOf(right));
          expect(outcome.counted?.attempts ?? null, where).toBe(counted[0]?.row.attempts ?? null);
          expect(outcome.winnerId, where).toBe(counted.length > 0 ? winner : null);
          expect(outcome.consumed, where).toBe(counted.some((d) => d.row.status === 'verified'));

          if (decided) model = decided.map((d) => d.row);
          for (const row of model) {
            const stored = await store.verifications.getVerification('acc_1', String(row.id));
            expect(
              {
                status: stored?.status,
                attempts: stored?.attempts,
                verifiedAt: stored?.verifiedAt,
                method: stored?.method,
              },
              where,
            ).toEqual({
              status: row.status,
              attempts: row.attempts,
              verifiedAt: row.verified_at,
              method: row.method,
            });
          }
          const codes = await store.verifications.listOutbox({ accountId: 'acc_1', limit: 1000 });
          for (const row of model)
            expect(codes.find((c) => c.verificationId === row.id)?.code, where).toBe(row.outbox_code);
        }
      }
    });
  });
}
