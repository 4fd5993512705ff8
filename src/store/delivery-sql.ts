import { DELIVERY_STATES } from '../domain/delivery-states.js';

/**
 * The delivery states of the domain (src/domain/delivery-states.ts) as SQL, for the statements
 * that record a delivery in one round trip (PostgreSQL); SQLite's write units read the same
 * description in TypeScript (deliveryChange, movesForward).
 */

const cases = (
  value: string,
  of: (state: (typeof DELIVERY_STATES)[keyof typeof DELIVERY_STATES]) => string | null,
) =>
  `CASE ${value}${Object.entries(DELIVERY_STATES)
    .flatMap(([name, state]) => {
      const result = of(state);
      return result === null ? [] : [` WHEN '${name}' THEN ${result}`];
    })
    .join('')} END`;

/** `delivered`, `undelivered` or NULL: whether the code reached its recipient in state `value`. */
const outcomeSql = (value: string) => cases(value, (s) => (s.outcome === null ? null : `'${s.outcome}'`));

/** How far along state `value` is (unknown states as 0). */
export const progressSql = (value: string) => `coalesce(${cases(value, (s) => String(s.progress))}, 0)`;

/** The change a move of delivery_status from `before` to `after` appends, or NULL (deliveryChange). */
export const deliveryChangeSql = (before: string, after: string) =>
  `CASE WHEN ${outcomeSql(before)} IS DISTINCT FROM ${outcomeSql(after)} THEN ${outcomeSql(after)} END`;
