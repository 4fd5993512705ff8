/**
 * Reads of requests through the partial indexes that keep a send's writes small (issue 43: each
 * index entry a send writes is WAL, and server work). A send writes a row and an entry in each
 * index whose predicate it meets; these two indexes leave most sends out, and every read that
 * needs the rows they leave out finds them through another index, in a second scan appended to
 * the first. Callers filter the rows outside; the filters reach both scans.
 */

/**
 * The rows of group `group` (an SQL expression), as a FROM item. A group's id is its first
 * request's, so that request is found by primary key; the others (a dual pair's second row, a
 * SILENT request's fallback) by verifications_group_others, which holds only the rows whose group
 * is another request's: a single-channel send, most sends, writes no entry in it (migration 184).
 */
export const GROUP_ROWS = (group: string) =>
  `(SELECT * FROM verifications grp WHERE grp.id = ${group} AND grp.group_id = ${group}
      UNION ALL SELECT * FROM verifications grp WHERE grp.group_id = ${group} AND grp.group_id <> grp.id)`;

/** The condition "this row (of an UPDATE or a lock) is of group `group`", by GROUP_ROWS. */
export const IN_GROUP = (group: string) => `id = ANY (ARRAY(SELECT g.id FROM ${GROUP_ROWS(group)} g))`;

/**
 * The requests whose destination meets `where` (a condition on the alias it is given: an
 * equality or a range), as a FROM item. The pending ones by verifications_one_live, whose first
 * column is the destination; the others by verifications_settled_destination, which holds only
 * rows that have left pending (migration 185). A send writes no entry in it: its request gets one
 * when it settles, the update that takes it out of the pending indexes, which writes an entry in
 * every index it is in anyway.
 */
export const TO_DESTINATION = (where: (alias: string) => string) =>
  `(SELECT * FROM verifications dst WHERE ${where('dst')} AND dst.status = 'pending'
      UNION ALL SELECT * FROM verifications dst WHERE ${where('dst')} AND dst.status <> 'pending')`;
