import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';

/**
 * Pre-fills the verifications table with `rows` historical requests in one SQL statement, spread
 * over the last 23 days (inside the default retention, so the sweeper leaves them alone): mostly
 * verified or expired, the newest few hundred still pending. Ids are random UUIDs as the service
 * makes them, so new rows land all over the primary-key index as they would in production.
 */
export function fillSqlite(path: string, rows: number, now: number): void {
  const db = new BetterSqlite3(path);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @rows - 1),
     r(i, h) AS (SELECT i, lower(hex(randomblob(16))) FROM n)
     INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country,
       purpose, code_hash, status, attempts, max_attempts, created_at, expires_at, verified_at,
       delivery_status, provider, provider_message_id)
     SELECT u, 'acc_default', u, 'EMAIL', 'fill-' || i || '@example.com', NULL, NULL, 'login',
       randomblob(32), ${statusSql('i')}, i % 3, 5, @now - (@rows - i) * 2000,
       @now - (@rows - i) * 2000 + 600000, NULL, 'outbox', 'outbox', NULL
     FROM (SELECT i, substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-a'
       || substr(h, 18, 3) || '-' || substr(h, 21, 12) AS u FROM r)`,
  ).run({ rows, now });
  // The server should not start with a huge write-ahead log to replay.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

const statusSql = (i: string) =>
  `CASE WHEN ${i} >= @rows - 300 THEN 'pending' WHEN ${i} % 4 = 0 THEN 'expired'
   WHEN ${i} % 20 = 1 THEN 'canceled' ELSE 'verified' END`;

/** The same fill for PostgreSQL with generate_series, adapting to the column types it finds. */
export async function fillPostgres(url: string, rows: number, now: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const types = new Map(
      (
        await client.query<{ column_name: string; data_type: string }>(
          `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'verifications'`,
        )
      ).rows.map((r) => [r.column_name, r.data_type]),
    );
    const time = (ms: string) =>
      types.get('created_at')?.startsWith('timestamp') ? `to_timestamp((${ms}) / 1000.0)` : `(${ms})::bigint`;
    const id = types.get('id') === 'uuid' ? 'gen_random_uuid()' : 'gen_random_uuid()::text';
    const status = statusSql('i').replaceAll('@rows', '$1');
    await client.query(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country,
         purpose, code_hash, status, attempts, max_attempts, created_at, expires_at, verified_at,
         delivery_status, provider, provider_message_id)
       SELECT u, 'acc_default', u, 'EMAIL', 'fill-' || i || '@example.com', NULL, NULL, 'login',
         ${types.get('code_hash') === 'bytea' ? "decode(md5(i::text) || md5(u::text), 'hex')" : 'md5(i::text)'},
         ${status}, i % 3, 5, ${time('$2::bigint - ($1 - i) * 2000')},
         ${time('$2::bigint - ($1 - i) * 2000 + 600000')}, NULL, 'outbox', 'outbox', NULL
       FROM (SELECT i, ${id} AS u FROM generate_series(0, $1 - 1) AS i) AS g`,
      [rows, now],
    );
    // A table this size in production has long been vacuumed; autovacuum must not run mid-measurement.
    await client.query('VACUUM (ANALYZE) verifications');
  } finally {
    await client.end();
  }
}
