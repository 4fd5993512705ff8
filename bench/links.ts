/**
 * A magic link's POST beside a verify-code, through the whole service in one process (HTTP by
 * app.inject, the store, the change log): requests made beforehand through the store with known
 * codes and tokens, then the same number of each used in rounds of `--concurrency` at once, in
 * alternating order. Reports process CPU µs and wall time per request for each.
 *
 *   node --import tsx bench/links.ts [--postgres=postgres://host:port/postgres] [--requests=2000]
 *     [--concurrency=20]
 *
 * On SQLite (in memory) by default; `--postgres` runs on a fresh database of that server, dropped
 * at the end (the URL names a database to connect to for creating it, never the one used).
 */
import pino from 'pino';
import { compose } from '../src/compose.js';
import { loadConfig } from '../src/config/schema.js';
import { hashCode } from '../src/domain/codes.js';
import { timeOrderedUuid } from '../src/domain/ids.js';
import { generateLinkToken, hashLinkToken } from '../src/domain/links.js';
import type { NewVerification } from '../src/domain/types.js';
import { arg } from './args.js';
import { PostgresAdmin } from './postgres-admin.js';

const REQUESTS = Number(arg('requests', '2000'));
const CONCURRENCY = Number(arg('concurrency', '20'));
const SECRET = 'bench-links-code-secret';
const ADMIN = 'bench-links-admin-token-of-32-characters';

const POSTGRES = arg('postgres', '');
const admin = POSTGRES ? new PostgresAdmin(POSTGRES, 'cv_bench_links') : null;
const database = admin ? admin.url(await admin.create()) : 'sqlite::memory:';

const service = await compose(
  loadConfig({
    DATABASE_URL: database,
    ADMIN_TOKEN: ADMIN,
    CODE_SECRET: SECRET,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'https://verify.example.test',
    KEY_VERIFY_PER_SECOND: '100000',
  }),
  { logger: pino({ level: 'silent' }) },
).catch(async (err: unknown) => {
  await admin?.dropAll();
  throw err;
});
// The database goes at the end, also when the run fails.
try {
  const created = await service.app.inject({
    method: 'POST',
    url: '/v1/admin/api-keys',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    payload: { name: 'bench', channels: ['EMAIL'] },
  });
  const key = created.json().data.key as string;
  const secret = Buffer.from(SECRET);
  const now = Date.now();

  /** A pending EMAIL request with code 123456 and, when `token` is given, a link. */
  function request(token: string | null): NewVerification {
    const id = timeOrderedUuid(now);
    return {
      id,
      accountId: 'acc_default',
      groupId: id,
      channel: 'EMAIL',
      destination: `bench-${id}@example.com`,
      deliveryType: null,
      country: null,
      purpose: null,
      codeHash: hashCode(secret, id, '123456'),
      maxAttempts: 5,
      createdAt: now,
      expiresAt: now + 600_000,
      deliveryStatus: 'queued',
      outbox: null,
      mode: 'live',
      ...(token ? { linkHash: hashLinkToken(secret, token), linkRedirect: null } : {}),
    };
  }

  const tokens = Array.from({ length: REQUESTS }, generateLinkToken);
  const codeRequests = Array.from({ length: REQUESTS }, () => request(null));
  for (let i = 0; i < REQUESTS; i += 50) {
    await service.store.verifications.createVerifications(tokens.slice(i, i + 50).map((t) => request(t)));
    await service.store.verifications.createVerifications(codeRequests.slice(i, i + 50));
  }

  const cpu = () => {
    const u = process.cpuUsage();
    return u.user + u.system;
  };
  const totals = { link: { cpu: 0, wall: 0 }, code: { cpu: 0, wall: 0 } };
  async function round(kind: 'link' | 'code', from: number) {
    const c0 = cpu();
    const t0 = performance.now();
    const answers = await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, REQUESTS - from) }, (_, j) =>
        kind === 'link'
          ? service.app.inject({ method: 'POST', url: `/v1/links/${tokens[from + j]}` })
          : service.app.inject({
              method: 'POST',
              url: '/v1/contact/verify-code',
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              payload: { requestId: codeRequests[from + j]?.id, code: '123456' },
            }),
      ),
    );
    totals[kind].cpu += cpu() - c0;
    totals[kind].wall += performance.now() - t0;
    for (const a of answers)
      if (a.statusCode !== 200 || (kind === 'code' && a.json().data.verified !== true))
        throw new Error(`${kind}: ${a.statusCode} ${a.body.slice(0, 200)}`);
  }
  for (let i = 0; i < REQUESTS; i += CONCURRENCY) {
    // Alternating which goes first, so neither always meets a warmer cache.
    const order: Array<'link' | 'code'> = (i / CONCURRENCY) % 2 === 0 ? ['link', 'code'] : ['code', 'link'];
    for (const kind of order) await round(kind, i);
  }
  const per = (n: number) => (n / REQUESTS).toFixed(1);
  console.log(
    JSON.stringify({
      database: admin ? 'postgres' : 'sqlite',
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      linkPost: { cpuMicros: per(totals.link.cpu), wallMicros: per(totals.link.wall * 1000) },
      verifyCode: { cpuMicros: per(totals.code.cpu), wallMicros: per(totals.code.wall * 1000) },
    }),
  );
} finally {
  await service.close();
  await admin?.dropAll();
}
