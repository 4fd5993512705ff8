import type pg from 'pg';

/**
 * Has the one connection of `connections` (a pool of max 1) report the plan of each statement it
 * runs from now on (auto_explain, as a notice) into `plans`.
 */
export async function explainInto(plans: string[], connections: pg.Pool): Promise<void> {
  const client = await connections.connect();
  try {
    await client.query(`LOAD 'auto_explain'`);
    await client.query('SET auto_explain.log_min_duration = 0');
    await client.query('SET auto_explain.log_level = notice');
    client.on('notice', (n) => plans.push(n.message ?? ''));
  } finally {
    client.release();
  }
}

/**
 * How often each statement prepared on the one connection of `connections` ran on its kept
 * (generic) plan and how often it was planned for the run (custom), by statement name.
 */
export async function preparedRuns(
  connections: pg.Pool,
): Promise<Map<string, { kept: number; planned: number }>> {
  const { rows } = await connections.query<{ name: string; generic_plans: string; custom_plans: string }>(
    'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements',
  );
  return new Map(
    rows.map((r) => [r.name, { kept: Number(r.generic_plans), planned: Number(r.custom_plans) }]),
  );
}

/**
 * The index scans of `plan` on `tables` that read a whole index (no Index Cond): what a plan made
 * for empty tables may choose where sequential scans are off, and whose cost grows with the table.
 */
export function wholeIndexScans(plan: string, tables: string[]): string[] {
  const lines = plan.split('\n');
  const indent = (line: string) => line.length - line.trimStart().length;
  const scan = new RegExp(`Index (Only )?Scan( Backward)? using \\w+ on (${tables.join('|')})\\b`);
  return lines.filter((line, i) => {
    if (!scan.test(line)) return false;
    for (const next of lines.slice(i + 1)) {
      if (indent(next) <= indent(line) || next.trimStart().startsWith('->')) break;
      if (next.includes('Index Cond:')) return false;
    }
    return true;
  });
}
