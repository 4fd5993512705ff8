import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import Fastify from 'fastify';
import type {
  generateCode as GenerateCode,
  hashCode as HashCode,
  matchingCodeId as MatchingCodeId,
} from '../src/domain/codes.js';
import type { timeOrderedUuid as TimeOrderedUuid } from '../src/domain/ids.js';
import type { maskEmail as MaskEmail } from '../src/domain/masking.js';
import type { createLogger as CreateLogger } from '../src/logging.js';
import type { GroupCommit as GroupCommitClass } from '../src/store/sqlite/group-commit.js';
import type { SqliteStore as SqliteStoreClass } from '../src/store/sqlite/sqlite-store.js';

/**
 * The floor: the least a durable send-code can do, built from the service's own parts (dist/), so
 * the bench can tell what the service adds on this machine. Both variants parse the JSON body,
 * draw a code from the CSPRNG, key-hash it bound to a UUIDv7 id, write one row through group
 * commit (the answer waits for its batch's COMMIT), log one line through the service's logger and
 * answer the send-code JSON. No API key, no validation beyond the body's shape, no rate limits,
 * no metrics, no outbox rendering.
 *
 *   minimal  a table with a primary key only: what durability itself costs
 *   store    the service's SqliteStore.createVerifications on its own schema: the supersede
 *            trigger, the destination, group and pending-expiry indexes, the outbox column (with
 *            the code in it, as the outbox keeps it, which is where the bench reads its verify
 *            pool from); and verify-code through the service's SqliteStore.attempt
 *
 * Usage: floor-server.ts <port> <minimal|store> <sqlite file> <root of the built service>
 */
const [port, variant, file, root] = process.argv.slice(2) as [string, string, string, string];
const dist = (path: string) => import(`${root}/dist/${path}`);
const { generateCode, hashCode, matchingCodeId } = (await dist('domain/codes.js')) as {
  generateCode: typeof GenerateCode;
  hashCode: typeof HashCode;
  matchingCodeId: typeof MatchingCodeId;
};
const { maskEmail } = (await dist('domain/masking.js')) as { maskEmail: typeof MaskEmail };
const { timeOrderedUuid } = (await dist('domain/ids.js')) as { timeOrderedUuid: typeof TimeOrderedUuid };
const { createLogger } = (await dist('logging.js')) as { createLogger: typeof CreateLogger };

const TTL_MS = 600_000;
const secret = randomBytes(32);
const logger = createLogger('info');

const ACCOUNT = 'acc_floor';

/** Writes one row and resolves once its batch has committed. */
type WriteRow = (id: string, email: string, code: string, createdAt: number) => Promise<unknown>;

async function minimalWriter(): Promise<WriteRow> {
  const { GroupCommit } = (await dist('store/sqlite/group-commit.js')) as {
    GroupCommit: typeof GroupCommitClass;
  };
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE IF NOT EXISTS floor (
    id TEXT PRIMARY KEY, destination TEXT NOT NULL, code_hash BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending', expires_at INTEGER NOT NULL) WITHOUT ROWID`);
  const insert = db.prepare('INSERT INTO floor (id, destination, code_hash, expires_at) VALUES (?, ?, ?, ?)');
  const tx = new GroupCommit(db);
  return (id, email, code, createdAt) =>
    tx.write(() => insert.run(id, email, hashCode(secret, id, code), createdAt + TTL_MS), false);
}

async function openStore(): Promise<SqliteStoreClass> {
  const { SqliteStore } = (await dist('store/sqlite/sqlite-store.js')) as {
    SqliteStore: typeof SqliteStoreClass;
  };
  return new SqliteStore(file);
}

function storeWriter(store: SqliteStoreClass): WriteRow {
  return (id, email, code, createdAt) =>
    store.createVerifications([
      {
        id,
        accountId: ACCOUNT,
        groupId: id,
        channel: 'EMAIL',
        destination: email,
        deliveryType: null,
        country: null,
        purpose: null,
        codeHash: hashCode(secret, id, code),
        maxAttempts: 5,
        createdAt,
        expiresAt: createdAt + TTL_MS,
        deliveryStatus: 'outbox',
        // What the outbox keeps for an email, in size and shape: the renderer's inputs.
        outbox: JSON.stringify({ request: { code, channel: 'EMAIL', to: email, ttl: 600 } }),
        test: false,
      },
    ]);
}

const store = variant === 'store' ? await openStore() : null;
const writeRow = store ? storeWriter(store) : await minimalWriter();
const app = Fastify({ logger: false });
app.get('/health', async () => ({ ok: true }));
app.post('/v1/contact/send-code', async (request, reply) => {
  const email = (request.body as { email?: unknown } | null)?.email;
  if (typeof email !== 'string') return reply.code(400).send({ error: { code: 'VALIDATION_ERROR' } });
  const createdAt = Date.now();
  const id = timeOrderedUuid(createdAt);
  await writeRow(id, email, generateCode(6), createdAt);
  const to = maskEmail(email);
  logger.info({ requestIds: [id], channels: ['EMAIL'], to: [to] }, 'code sent');
  return {
    data: {
      requestId: id,
      channel: 'EMAIL',
      status: 'pending',
      expiresAt: new Date(createdAt + TTL_MS).toISOString(),
      to,
    },
  };
});
if (store?.attempt) {
  const attempt = store.attempt.bind(store);
  app.post('/v1/contact/verify-code', async (request, reply) => {
    const { requestId, otpCode } = (request.body ?? {}) as { requestId?: unknown; otpCode?: unknown };
    if (typeof requestId !== 'string' || typeof otpCode !== 'string')
      return reply.code(400).send({ error: { code: 'VALIDATION_ERROR' } });
    // As the service does: counted first, then every code of the group compared.
    const outcome = await attempt(ACCOUNT, requestId, Date.now(), (rows) =>
      matchingCodeId(secret, rows, otpCode),
    );
    if (!outcome.request) return reply.code(404).send({ error: { code: 'NOT_FOUND' } });
    const attempts = outcome.counted?.attempts ?? outcome.request.attempts;
    if (outcome.consumed) logger.info({ requestId, channel: 'EMAIL', attempts }, 'code verified');
    return {
      data: {
        verified: outcome.consumed,
        channel: 'EMAIL',
        requestId,
        status: outcome.consumed ? 'verified' : outcome.counted ? 'pending' : outcome.request.status,
        attemptsRemaining: Math.max(0, outcome.request.maxAttempts - attempts),
      },
    };
  });
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
const stop = () =>
  void app
    .close()
    .then(() => store?.close())
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
