import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { KnownDestinations } from '../src/store/known-destinations.js';
import { startTestService, type TestService } from './support/app.js';
import { createTestDatabase, type TestDatabase } from './support/postgres.js';
import { hasPostgres } from './support/services.js';
import { waitFor } from './support/wait.js';

/**
 * Several instances on one database without Redis (issue 44): each registers on the database,
 * says so in a warning at its start (or at the heartbeat that finds the other) and in GET /health,
 * and suspends its destination filter, which would miss the other's sends, until it is alone.
 */
// The instances of a test share one event loop: one's start holds up the other's heartbeat.
const HEARTBEAT_MS = 1000;
const dir = mkdtempSync(join(tmpdir(), 'cv-compose-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The filter compose gave the store, if any (null once there is none). */
const filterOf = (svc: TestService) => (svc.store as unknown as { known: KnownDestinations | null }).known;

function warningsTo(lines: string[]) {
  return pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line).msg) });
}

describe('instances on one database', () => {
  const services: TestService[] = [];
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
    for (const d of databases.splice(0)) await d.drop();
  });
  const start = async (env: Record<string, string>, warnings: string[] = []) => {
    const svc = await startTestService(env, {
      instanceHeartbeatMs: HEARTBEAT_MS,
      logger: warningsTo(warnings),
    });
    services.push(svc);
    return svc;
  };

  async function withoutRedis(databaseUrl: string) {
    const aWarnings: string[] = [];
    const a = await start({ DATABASE_URL: databaseUrl }, aWarnings);
    const alone = await a.get('/health');
    expect(alone.body.instances).toEqual({ live: 1, withoutRedis: 1 });
    expect(alone.body.status).toBe('ok');
    expect(aWarnings.filter((w) => /instances serve on this database/.test(w))).toEqual([]);
    await waitFor(() => filterOf(a)?.answering, { what: "a's filter to be loaded" });

    const bWarnings: string[] = [];
    const b = await start({ DATABASE_URL: databaseUrl }, bWarnings);
    // b says so at its start, before it serves a request.
    expect(
      bWarnings.filter((w) => /2 instances serve on this database and 2 of them without REDIS_URL/.test(w)),
    ).toHaveLength(1);
    const health = await b.get('/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', instances: { live: 2, withoutRedis: 2 } });

    // a at its next heartbeat: the warning, /health, and its filter stopped.
    await waitFor(async () => (await a.get('/health')).body.instances.live === 2, { what: 'a to see b' });
    expect((await a.get('/health')).body.status).toBe('degraded');
    expect(aWarnings.filter((w) => /instances serve on this database/.test(w))).toHaveLength(1);
    // Neither filter answers: each would miss the other's sends (b's never loaded, a's suspended).
    expect(filterOf(a)?.answering).toBe(false);
    expect(filterOf(b)?.answering).toBe(false);

    // b stops (a blue-green switch): a, alone again, reads the destinations again, b's included.
    await services.splice(services.indexOf(b), 1)[0]?.close();
    await waitFor(() => filterOf(a)?.answering, { what: "a's filter to be loaded again", timeoutMs: 30_000 });
    expect((await a.get('/health')).body).toMatchObject({
      status: 'ok',
      instances: { live: 1, withoutRedis: 1 },
    });
  }

  it('SQLite: two instances on one file without Redis', async () => {
    await withoutRedis(`sqlite:${join(dir, 'two.db')}`);
  });

  it.runIf(hasPostgres)('PostgreSQL: two instances on one database without Redis', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    await withoutRedis(db.url);
  });

  it('an instance that stops leaves the registry at once', async () => {
    const url = `sqlite:${join(dir, 'leave.db')}`;
    const a = await start({ DATABASE_URL: url });
    const b = await start({ DATABASE_URL: url });
    expect((await b.get('/health')).body.instances.live).toBe(2);
    await services.splice(services.indexOf(a), 1)[0]?.close();
    await waitFor(async () => (await b.get('/health')).body.instances.live === 1, {
      what: 'b to see a gone',
    });
    expect((await b.get('/health')).body.status).toBe('ok');
  });
});
