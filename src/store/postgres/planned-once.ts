/**
 * How a statement is planned once per connection and that plan kept: a generic plan, made
 * without sequential scans, so that a plan made while the tables were nearly empty still reads by
 * index once they have grown; and no JIT, whose cost only pays off on long analytical queries.
 */
const PLANNED_ONCE: ReadonlyArray<readonly [string, string]> = [
  ['plan_cache_mode', 'force_generic_plan'],
  ['enable_seqscan', 'off'],
  ['jit', 'off'],
];

/** The settings for a whole session: the planned-once pool's connections (postgres-store.ts). */
export const PLANNED_ONCE_SETTINGS = PLANNED_ONCE.map(([name, value]) => `SET ${name} = ${value}`).join('; ');

/**
 * The settings for the current transaction only, as an SQL expression (`set_config(…, true)`):
 * safe behind a pooler in transaction mode, where session settings would reach other clients.
 */
export const PLANNED_ONCE_IN_TRANSACTION = PLANNED_ONCE.map(
  ([name, value]) => `set_config('${name}', '${value}', true)`,
).join(' || ');
