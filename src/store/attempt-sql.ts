import {
  ATTEMPT_RULE,
  type AttemptColumn,
  type AttemptParam,
  type RuleExpr,
} from '../domain/attempt-rule.js';

/**
 * The attempt rule (src/domain/attempt-rule.ts) as SQL: each store writes its counting statement
 * with these fragments, so SQLite's and PostgreSQL's statements mean the same thing by
 * construction. A dialect says how it names a row's columns and the attempt's parameters (bound
 * parameters, or the columns of a batch's CTE), and how it tests that a row is pending.
 */
export interface AttemptDialect {
  column(name: AttemptColumn): string;
  param(name: AttemptParam): string;
  /** `status = 'pending'`, as the dialect's planner wants it written. */
  pending(): string;
}

const sqlLiteral = (value: string | number | null) =>
  value === null ? 'NULL' : typeof value === 'number' ? String(value) : `'${value.replace(/'/g, "''")}'`;

/** One expression of the rule in SQL. */
export function ruleSql(e: RuleExpr, d: AttemptDialect): string {
  if ('column' in e) return d.column(e.column);
  if ('param' in e) return d.param(e.param);
  if ('literal' in e) return sqlLiteral(e.literal);
  if ('pending' in e) return d.pending();
  if ('all' in e) return `(${e.all.map((x) => ruleSql(x, d)).join(' AND ')})`;
  if ('any' in e) return `(${e.any.map((x) => ruleSql(x, d)).join(' OR ')})`;
  if ('isNull' in e) return `${ruleSql(e.isNull, d)} IS NULL`;
  if ('notNull' in e) return `${ruleSql(e.notNull, d)} IS NOT NULL`;
  if ('when' in e)
    return `CASE WHEN ${ruleSql(e.when, d)} THEN ${ruleSql(e.then, d)} ELSE ${ruleSql(e.else, d)} END`;
  return `(${ruleSql(e.left, d)} ${e.op} ${ruleSql(e.right, d)})`;
}

/** The condition of the rows an attempt counts on (ATTEMPT_RULE.counts). */
export const attemptCountsSql = (d: AttemptDialect): string => ruleSql(ATTEMPT_RULE.counts, d);

/** The SET list of a counted row (ATTEMPT_RULE.set), every value computed from the row as it was. */
export const attemptSetSql = (d: AttemptDialect): string =>
  Object.entries(ATTEMPT_RULE.set)
    .map(([name, expr]) => `${name} = ${ruleSql(expr, d)}`)
    .join(',\n        ');

/** The columns of a table (or alias), unqualified when `alias` is empty. */
export const columnsOf =
  (alias: string) =>
  (name: AttemptColumn): string =>
    alias ? `${alias}.${name}` : name;
