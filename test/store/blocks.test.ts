import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '../../src/domain/clock.js';
import { DomainError } from '../../src/domain/errors.js';
import type { Store } from '../../src/store/factory.js';
import { KnownDestinations } from '../../src/store/known-destinations.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/app.js';
import {
  createTestDatabase,
  migratedTestDatabase,
  type TestDatabase,
  truncateAll,
} from '../support/postgres.js';
import { hasPostgres, hasRedis, REDIS_URL } from '../support/services.js';
import { waitFor } from '../support/wait.js';
import { dualPair, MINUTE, T0, verification } from './fixtures.js';

/**
 * An operator's block holds whatever the destination filter says (issue 44, item 1): the filter
 * may skip the read of a destination's history, never its refusal. A send's write refuses a
 * destination whose contact is blocked, in the statement that writes it.
 */

const dir = mkdtempSync(join(tmpdir(), 'cv-blocks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** The screen's refusal of a blocked destination, as the write gives it too. */
const refusedAsBlocked = (channel: 'EMAIL' | 'SMS') => ({
  name: 'DomainError',
  code: 'CONTACT_BLOCKED',
  message: 'An operator blocked this destination; no code was sent.',
  details: [{ field: channel === 'EMAIL' ? 'email' : 'phone', channel, message: 'blocked' }],
});

/** Blocks the contact of `destination` (folding first, as a block through the admin API does). */
async function block(store: Store, destination: string, mode: 'live' | 'test' = 'live') {
  await store.readModel.fold(10_000);
  const contact = (await store.readModel.searchContacts('acc_1', destination, 5)).find(
    (c) => c.mode === mode,
  );
  if (!contact) throw new Error(`no contact for ${destination}`);
  await store.readModel.setContactBlocked(contact.id, { reason: 'abuse' }, T0 + MINUTE);
}

/**
 * Two stores on one database: `filtered` remembers the destinations it held when it opened and
 * those it writes (an instance's filter), `other` is another instance that writes and blocks.
 */
function twoInstances(
  name: string,
  open: (known?: KnownDestinations) => Promise<Store>,
  fresh: () => Promise<void>,
) {
  describe(`a block is refused at the write, whatever the filter says: ${name}`, () => {
    async function pair() {
      await fresh();
      const other = await open();
      const known = new KnownDestinations();
      const filtered = await open(known);
      await waitFor(() => known.answering, { what: 'the filter to be loaded' });
      return { other, filtered, close: () => Promise.all([other.close(), filtered.close()]) };
    }

    it("refuses a send to a contact another instance blocked, which this instance's filter never saw", async () => {
      const { other, filtered, close } = await pair();
      try {
        const first = verification({ destination: 'victim@example.com', createdAt: T0 });
        await other.verifications.createVerifications([first]);
        await block(other, 'victim@example.com');
        // The filter never saw the address: the screen's read is skipped, so it finds no block.
        const signals = await filtered.readModel.destinationSignals(
          'acc_1',
          'live',
          'victim@example.com',
          null,
          T0 + 2 * MINUTE,
        );
        expect(signals.history.sends).toBe(0);

        const again = verification({ destination: 'victim@example.com', createdAt: T0 + 2 * MINUTE });
        const refused = await filtered.verifications.createVerifications([again]).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(DomainError);
        expect({ ...(refused as DomainError), message: (refused as Error).message }).toMatchObject(
          refusedAsBlocked('EMAIL'),
        );
        // Nothing written, nothing superseded: the earlier request is still the live one.
        expect(await filtered.verifications.getVerification('acc_1', again.id, 'live')).toBeNull();
        expect((await filtered.verifications.getVerification('acc_1', first.id, 'live'))?.status).toBe(
          'pending',
        );
        // Counted as the screen counts a blocked send.
        const hour = T0 - (T0 % HOUR_MS);
        const { refusals } = await other.readModel.analytics({
          accountId: 'acc_1',
          mode: 'live',
          from: hour,
          to: hour + 2 * HOUR_MS,
          intervalMs: HOUR_MS,
        });
        expect(refusals).toEqual([{ start: hour, group: '', reason: 'blocked', count: 1 }]);
        // The block is of this mode only, and an unblocked contact is sent to again.
        await filtered.verifications.createVerifications([
          verification({ destination: 'victim@example.com', mode: 'test', createdAt: T0 + 3 * MINUTE }),
        ]);
      } finally {
        await close();
      }
    });

    it('refuses both rows of a dual send when one destination is blocked, and only the blocked send of a turn', async () => {
      const { other, filtered, close } = await pair();
      try {
        await other.verifications.createVerifications([
          verification({ channel: 'SMS', destination: '+14155550100', country: 'US', createdAt: T0 }),
        ]);
        await block(other, '+14155550100');
        const [email, sms] = dualPair({ destination: 'dual@example.com', createdAt: T0 + 2 * MINUTE });
        const fine = verification({ destination: 'fine@example.com', createdAt: T0 + 2 * MINUTE });
        // One event-loop turn: PostgreSQL writes these sends in one statement.
        const [dual, alone] = await Promise.allSettled([
          filtered.verifications.createVerifications([email, sms]),
          filtered.verifications.createVerifications([fine]),
        ]);
        expect(dual.status).toBe('rejected');
        expect((dual as PromiseRejectedResult).reason).toMatchObject(refusedAsBlocked('SMS'));
        expect(alone.status).toBe('fulfilled');
        expect(await filtered.verifications.getVerification('acc_1', email.id, 'live')).toBeNull();
        expect(await filtered.verifications.getVerification('acc_1', sms.id, 'live')).toBeNull();
        expect((await filtered.verifications.getVerification('acc_1', fine.id, 'live'))?.status).toBe(
          'pending',
        );
      } finally {
        await close();
      }
    });
  });
}

twoInstances(
  'SQLite',
  async (known) => {
    const store = new SqliteStore(join(dir, `blocks-${files}.db`), { known });
    await store.migrate();
    return store;
  },
  async () => {
    files++;
  },
);

describe.runIf(hasPostgres)('PostgreSQL', () => {
  const url = migratedTestDatabase();
  twoInstances(
    'PostgreSQL',
    async (known) => {
      const store = new PostgresStore(url(), { known });
      await store.migrate();
      return store;
    },
    () => truncateAll(url()),
  );
});

/** The whole service: what the review did, over HTTP. */
describe('a block holds on every instance of a deployment', () => {
  const services: TestService[] = [];
  const databases: TestDatabase[] = [];
  afterAll(async () => {
    for (const s of services.splice(0)) await s.close();
    for (const d of databases.splice(0)) await d.drop();
  });
  const start = async (env: Record<string, string>) => {
    const svc = await startTestService({ RESEND_COOLDOWN_SECONDS: '0', ...env });
    services.push(svc);
    return svc;
  };
  const sendEmail = (svc: TestService, key: string, email: string) =>
    svc.post('/v1/contact/send-code', { channel: 'EMAIL', email }, key);
  async function blockThrough(svc: TestService, address: string) {
    const accountId = (await svc.get('/v1/admin/accounts', ADMIN_TOKEN)).body.data[0].id;
    const found = await svc.get(
      `/v1/admin/contacts?accountId=${accountId}&q=${encodeURIComponent(address)}`,
      ADMIN_TOKEN,
    );
    const contact = found.body.data[0];
    const res = await svc.post(`/v1/admin/contacts/${contact.id}/block`, { reason: 'abuse' }, ADMIN_TOKEN);
    expect(res.body.data.blocked).toBe(true);
  }

  /** Two instances on one database, without Redis: B sends to what A sent to and blocked. */
  async function twoInstancesWithoutRedis(databaseUrl: string) {
    const a = await start({ DATABASE_URL: databaseUrl });
    const b = await start({ DATABASE_URL: databaseUrl });
    const key = await a.createKey({ channels: ['EMAIL'] });
    expect((await sendEmail(a, key, 'Victim+1@example.com')).status).toBe(200);
    await blockThrough(a, 'victim@example.com');
    const res = await sendEmail(b, key, 'Victim+1@example.com');
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('CONTACT_BLOCKED');
  }

  it('SQLite: two instances on one file without Redis', async () => {
    await twoInstancesWithoutRedis(`sqlite:${join(dir, `service-${files++}.db`)}`);
  });

  it.runIf(hasPostgres)('PostgreSQL: two instances on one database without Redis', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    await twoInstancesWithoutRedis(db.url);
  });

  it.runIf(hasPostgres && hasRedis)(
    'PostgreSQL with Redis: zeros written over whatever Redis holds of the destinations lift no block',
    async () => {
      const db = await createTestDatabase();
      databases.push(db);
      const prefix = `test-${randomUUID()}`;
      const redis = new Redis(REDIS_URL);
      try {
        const svc = await start({ DATABASE_URL: db.url, REDIS_URL, REDIS_KEY_PREFIX: prefix });
        const key = await svc.createKey({ channels: ['EMAIL'] });
        expect((await sendEmail(svc, key, 'jane@gmail.com')).status).toBe(200);
        await blockThrough(svc, 'jane@gmail.com');
        // The review's tamper: the filter's bits zeroed, its READY bit (the key's first) kept.
        const keys = (await redis.keys(`${prefix}:destinations:*`)).filter((k) => !k.endsWith(':loader'));
        for (const k of keys) {
          await waitFor(async () => (await redis.getbit(k, 0)) === 1, { what: 'the filter to be loaded' });
          await redis.setrange(k, 8, Buffer.alloc((await redis.strlen(k)) - 8));
        }
        const res = await sendEmail(svc, key, 'jane@gmail.com');
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('CONTACT_BLOCKED');
        // Redis holds nothing of the addresses sent to (docs/security.md).
        expect(await redis.keys(`${prefix}:destinations*`)).toEqual([]);
      } finally {
        const left = await redis.keys(`${prefix}:*`);
        if (left.length > 0) await redis.del(...left);
        redis.disconnect();
      }
    },
    60_000,
  );
});
