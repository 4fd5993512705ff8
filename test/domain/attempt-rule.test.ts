import { describe, expect, it } from 'vitest';
import { type AttemptRow, applyAttempt } from '../../src/domain/attempt-rule.js';

const row = (id: string, overrides: Partial<AttemptRow> = {}): AttemptRow => ({
  id,
  status: 'pending',
  attempts: 0,
  max_attempts: 3,
  expires_at: 1000,
  wrong_codes: 0,
  verified_at: null,
  method: null,
  outbox_code: `code-${id}`,
  ...overrides,
});

describe('the attempt rule', () => {
  it('counts a wrong guess on every row of the group, and as a wrong code on the request it was made on', () => {
    const [a, b] = applyAttempt([row('a'), row('b')], { now: 10, winner: null, guessedOn: 'b' });
    expect(a).toEqual({ counted: true, row: row('a', { attempts: 1 }) });
    expect(b).toEqual({ counted: true, row: row('b', { attempts: 1, wrong_codes: 1 }) });
  });

  it('fails the group on its last wrong guess and erases the outbox codes', () => {
    const [a] = applyAttempt([row('a', { attempts: 2 })], { now: 10, winner: null, guessedOn: 'a' });
    expect(a?.row).toMatchObject({ status: 'failed', attempts: 3, wrong_codes: 1, outbox_code: null });
  });

  it('consumes the group on a match: the winner verified, its sibling canceled, no wrong code', () => {
    const [a, b] = applyAttempt([row('a'), row('b')], { now: 10, winner: 'b', guessedOn: 'a' });
    expect(a?.row).toMatchObject({ status: 'canceled', attempts: 1, wrong_codes: 0, verified_at: 10 });
    expect(b?.row).toMatchObject({ status: 'verified', attempts: 1, outbox_code: null, verified_at: 10 });
    // Only the request whose code matched was verified, and by its code.
    expect(b?.row.method).toBe('code');
    expect(a?.row.method).toBeNull();
  });

  it('counts nothing on a row that is settled, used up or expired', () => {
    for (const settled of [
      row('a', { status: 'verified' }),
      row('a', { attempts: 3 }),
      row('a', { expires_at: 10 }),
    ])
      expect(applyAttempt([settled], { now: 10, winner: 'a', guessedOn: 'a' })).toEqual([
        { counted: false, row: settled },
      ]);
  });
});
