/**
 * The rule of one verify attempt, described once: which rows of the request's group an attempt
 * counts on, and what it does to each of them. The guess was compared before (CodeGuess: the
 * row whose code it matched, the `winner`, or none); the rule then counts the attempt on every
 * row it applies to, consumes the group on a match (the winner verified, its siblings
 * canceled), fails it on the last wrong guess, counts a wrong guess on the request it was made
 * on (`guessedOn`), and erases the outbox code of a row it settles. The winner is verified by
 * the `code` method: an attempt is how a typed code is checked. A row it moved out of
 * `pending` is settled: its store appends a change of its new status.
 *
 * The stores persist it in their own dialect, each in one statement so that parallel attempts
 * are decided under the rows' locks: they render their statements from this description
 * (src/store/attempt-sql.ts), and the conformance suite holds both to `applyAttempt`, which
 * evaluates it here.
 */

import type { VerificationMethod } from './verification/method.js';

/** The columns of a request row the rule reads or writes. */
export type AttemptColumn =
  | 'id'
  | 'status'
  | 'attempts'
  | 'max_attempts'
  | 'expires_at'
  | 'wrong_codes'
  | 'verified_at'
  | 'method'
  | 'outbox_code';

/** What an attempt brings: its time, the row its guess matched (or null), the request it was made on. */
export type AttemptParam = 'now' | 'winner' | 'guessedOn';

type Value = string | number | null;

/** An expression over one row and the attempt's parameters, with SQL's meaning of null. */
export type RuleExpr =
  | { column: AttemptColumn }
  | { param: AttemptParam }
  | { literal: Value }
  /** The row is pending (a store may write this test to suit its planner). */
  | { pending: true }
  | { op: '+' | '=' | '<' | '>' | '>='; left: RuleExpr; right: RuleExpr }
  | { all: RuleExpr[] }
  | { any: RuleExpr[] }
  | { isNull: RuleExpr }
  | { notNull: RuleExpr }
  | { when: RuleExpr; then: RuleExpr; else: RuleExpr };

const column = (name: AttemptColumn): RuleExpr => ({ column: name });
const param = (name: AttemptParam): RuleExpr => ({ param: name });
const literal = (value: Value): RuleExpr => ({ literal: value });
const op = (o: '+' | '=' | '<' | '>' | '>=', left: RuleExpr, right: RuleExpr): RuleExpr => ({
  op: o,
  left,
  right,
});
const when = (condition: RuleExpr, then: RuleExpr, otherwise: RuleExpr): RuleExpr => ({
  when: condition,
  then,
  else: otherwise,
});

const attemptsAfter = op('+', column('attempts'), literal(1));
const lastAttempt = op('>=', attemptsAfter, column('max_attempts'));
/** The guess matched a row of the group (the winner), or none. */
const isMatched: RuleExpr = { notNull: param('winner') };
const isWrong: RuleExpr = { isNull: param('winner') };
const isWinner = op('=', column('id'), param('winner'));
/** How the winner of an attempt was verified. */
const BY_CODE: VerificationMethod = 'code';

export const ATTEMPT_RULE = {
  /** The rows of the group an attempt counts on: pending, attempts left, unexpired when it is made. */
  counts: {
    all: [
      { pending: true },
      op('<', column('attempts'), column('max_attempts')),
      op('>', column('expires_at'), param('now')),
    ],
  } as RuleExpr,
  /** Each counted row's new values, every one computed from the row as it was. */
  set: {
    attempts: attemptsAfter,
    wrong_codes: op(
      '+',
      column('wrong_codes'),
      when({ all: [isWrong, op('=', column('id'), param('guessedOn'))] }, literal(1), literal(0)),
    ),
    status: when(
      isMatched,
      when(isWinner, literal('verified'), literal('canceled')),
      when(lastAttempt, literal('failed'), column('status')),
    ),
    verified_at: when(isMatched, param('now'), column('verified_at')),
    method: when({ all: [isMatched, isWinner] }, literal(BY_CODE), column('method')),
    outbox_code: when({ any: [isMatched, lastAttempt] }, literal(null), column('outbox_code')),
  } satisfies Partial<Record<AttemptColumn, RuleExpr>>,
} as const;

/** A row as the rule sees it. */
export type AttemptRow = Record<AttemptColumn, Value>;

/** The parameters of one attempt. */
export type AttemptParams = Record<AttemptParam, Value>;

/** The value of `e` on `row`, with SQL's meaning of null (a comparison with null is not true). */
export function evaluate(e: RuleExpr, row: AttemptRow, params: AttemptParams): Value | boolean {
  if ('column' in e) return row[e.column];
  if ('param' in e) return params[e.param];
  if ('literal' in e) return e.literal;
  if ('pending' in e) return row.status === 'pending';
  if ('all' in e) return e.all.every((x) => evaluate(x, row, params) === true);
  if ('any' in e) return e.any.some((x) => evaluate(x, row, params) === true);
  if ('isNull' in e) return evaluate(e.isNull, row, params) === null;
  if ('notNull' in e) return evaluate(e.notNull, row, params) !== null;
  if ('when' in e)
    return evaluate(e.when, row, params) === true
      ? evaluate(e.then, row, params)
      : evaluate(e.else, row, params);
  const left = evaluate(e.left, row, params);
  const right = evaluate(e.right, row, params);
  if (left === null || right === null) return null;
  switch (e.op) {
    case '+':
      return Number(left) + Number(right);
    case '=':
      return left === right;
    case '<':
      return Number(left) < Number(right);
    case '>':
      return Number(left) > Number(right);
    case '>=':
      return Number(left) >= Number(right);
  }
}

/** An attempt on the rows of one group: each row as the rule leaves it, and which it counted on. */
export function applyAttempt(
  rows: readonly AttemptRow[],
  params: AttemptParams,
): Array<{ row: AttemptRow; counted: boolean }> {
  return rows.map((row) => {
    if (evaluate(ATTEMPT_RULE.counts, row, params) !== true) return { row, counted: false };
    const next = { ...row };
    for (const [name, expr] of Object.entries(ATTEMPT_RULE.set))
      next[name as AttemptColumn] = evaluate(expr, row, params) as Value;
    return { row: next, counted: true };
  });
}
