import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { encodeOutboxContent } from '../src/delivery/outbox/outbox-content.js';
import { DEFAULT_BRANDING } from '../src/domain/settings.js';

/**
 * Pre-fills the verifications table with `rows` historical requests in one SQL statement, spread
 * over the last 23 days (inside the default retention, so the sweeper leaves them alone): mostly
 * verified or expired, the newest few hundred still pending, each with its outbox message. Ids
 * are UUIDv7 made from the row's time, as the service makes them; destinations are all distinct,
 * so the destination index is as large as the table.
 */
export function fillSqlite(path: string, rows: number, now: number): void {
  const db = new BetterSqlite3(path);
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @rows - 1),
     r(i, h, t) AS (SELECT i, lower(hex(randomblob(16))), printf('%012x', @now - (@rows - i) * 2000) FROM n)
     INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country,
       purpose, code_hash, status, attempts, max_attempts, created_at, expires_at, verified_at,
       delivery_status, provider, provider_message_id, outbox)
     SELECT u, 'acc_default', u, 'EMAIL', 'fill-' || i || '@example.com', NULL, NULL, 'login',
       randomblob(32), ${statusSql('i')}, i % 3, 5, @now - (@rows - i) * 2000,
       @now - (@rows - i) * 2000 + 600000, NULL, 'outbox', 'outbox', NULL,
       replace(@outbox, '@', 'fill-' || i || '@example.com')
     FROM (SELECT i, substr(t, 1, 8) || '-' || substr(t, 9, 4) || '-7' || substr(h, 14, 3) || '-a'
       || substr(h, 18, 3) || '-' || substr(h, 21, 12) AS u FROM r)`,
  ).run({ rows, now, outbox: FILL_OUTBOX });
  // The server should not start with a huge write-ahead log to replay.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

/** The outbox content of a filled row, written by the service's own encoder (`@`: the destination). */
const FILL_OUTBOX = encodeOutboxContent({
  verificationId: '',
  accountId: 'acc_default',
  channel: 'EMAIL',
  to: '@',
  code: '000000',
  codeTtlSeconds: 600,
  deliveryType: 'TEXT',
  country: null,
  purpose: 'login',
  locale: 'en',
  customMessage: null,
  branding: DEFAULT_BRANDING,
});

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
    // UUIDv7 from the row's time, as the service makes them.
    const v7 = `overlay(overlay(gen_random_uuid()::text placing
      substr(lpad(to_hex($2::bigint - ($1 - i) * 2000), 12, '0'), 1, 8) || '-' ||
      substr(lpad(to_hex($2::bigint - ($1 - i) * 2000), 12, '0'), 9, 4) from 1 for 13) placing '7' from 15 for 1)`;
    const id = types.get('id') === 'uuid' ? `(${v7})::uuid` : v7;
    const status = statusSql('i').replaceAll('@rows', '$1');
    await client.query(
      `INSERT INTO verifications (id, account_id, group_id, channel, destination, delivery_type, country,
         purpose, code_hash, status, attempts, max_attempts, created_at, expires_at, verified_at,
         delivery_status, provider, provider_message_id, outbox)
       SELECT u, 'acc_default', u, 'EMAIL', 'fill-' || i || '@example.com', NULL, NULL, 'login',
         ${types.get('code_hash') === 'bytea' ? "decode(md5(i::text) || md5(u::text), 'hex')" : 'md5(i::text)'},
         ${status}, i % 3, 5, ${time('$2::bigint - ($1 - i) * 2000')},
         ${time('$2::bigint - ($1 - i) * 2000 + 600000')}, NULL, 'outbox', 'outbox', NULL,
         replace($3, '@', 'fill-' || i || '@example.com')
       FROM (SELECT i, ${id} AS u FROM generate_series(0, $1 - 1) AS i) AS g`,
      [rows, now, FILL_OUTBOX],
    );
    // A table this size in production has long been vacuumed; autovacuum must not run mid-measurement.
    await client.query('VACUUM (ANALYZE) verifications');
  } finally {
    await client.end();
  }
}
