import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/clock.js';
import type { Store } from '../../src/store/factory.js';
import { InstanceRegistry } from '../../src/store/instances/registry.js';
import { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { migratedTestDatabase, truncateAll } from '../support/postgres.js';
import { hasPostgres } from '../support/services.js';
import { waitFor } from '../support/wait.js';

const HEARTBEAT_MS = 400;

/** A logger whose lines the test reads. */
function logged() {
  const lines: Array<{ level: number; msg: string; instances?: number; withoutRedis?: number }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const warnings = () => lines.filter((l) => l.level === 40);
  return { logger, lines, warnings };
}

function registrySuite(name: string, open: () => Promise<Store>, fresh: () => Promise<void>) {
  describe(`InstanceRegistry: ${name}`, () => {
    const stores: Store[] = [];
    const registries: InstanceRegistry[] = [];
    afterEach(async () => {
      for (const r of registries.splice(0)) await r.stop();
      for (const s of stores.splice(0)) await s.close();
    });

    /** An instance on the database: its own store (connection), registry and log. */
    async function instance(redis: boolean) {
      if (stores.length === 0) await fresh();
      const store = await open();
      stores.push(store);
      const log = logged();
      const notAlone = { calls: 0, alone: 0 };
      const registry = new InstanceRegistry({
        instances: store.instances,
        clock: systemClock,
        logger: log.logger,
        self: { host: 'test-host', pid: process.pid, version: 'test', redis },
        heartbeatMs: HEARTBEAT_MS,
        onNotAlone: () => notAlone.calls++,
        onAlone: () => notAlone.alone++,
      });
      registries.push(registry);
      await registry.start();
      return { store, registry, log, notAlone };
    }

    it('an instance alone counts itself and says nothing', async () => {
      const a = await instance(false);
      expect(a.registry.report()).toEqual({ live: 1, withoutRedis: 1 });
      await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS));
      expect(a.log.warnings()).toEqual([]);
      expect([a.notAlone.calls, a.notAlone.alone]).toEqual([0, 0]);
    });

    it('two instances without Redis: the second warns at its start, the first at its next heartbeat', async () => {
      const a = await instance(false);
      const b = await instance(false);
      // Said before b serves anything: start() resolved after its first heartbeat.
      expect(b.registry.report()).toEqual({ live: 2, withoutRedis: 2 });
      expect(b.notAlone.calls).toBe(1);
      expect(b.log.warnings()).toHaveLength(1);
      expect(b.log.warnings()[0]).toMatchObject({ instances: 2, withoutRedis: 2 });
      expect(b.log.warnings()[0]?.msg).toMatch(
        /2 instances serve on this database and 2 of them without REDIS_URL/,
      );

      await waitFor(() => a.registry.report().live === 2, { what: 'a to see b' });
      expect(a.registry.report()).toEqual({ live: 2, withoutRedis: 2 });
      expect(a.notAlone.calls).toBe(1);
      // Said once, not at every heartbeat.
      await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS));
      expect(a.log.warnings()).toHaveLength(1);
      expect(b.log.warnings()).toHaveLength(1);
      expect(a.notAlone.calls).toBe(1);

      // b stops: it leaves the registry, and a says the deployment is whole again.
      const stopping = registries.splice(registries.indexOf(b.registry), 1)[0] as InstanceRegistry;
      await stopping.stop();
      await waitFor(() => a.registry.report().live === 1, { what: 'a to see b gone' });
      expect(a.log.lines.at(-1)?.msg).toMatch(/no instance without REDIS_URL shares this database any more/);
      // Alone again: its filter may read the database again.
      expect([a.notAlone.calls, a.notAlone.alone]).toEqual([1, 1]);
    });

    it('instances that all run with Redis do not warn, and still know they are not alone', async () => {
      const a = await instance(true);
      const b = await instance(true);
      expect(b.registry.report()).toEqual({ live: 2, withoutRedis: 0 });
      await waitFor(() => a.registry.report().live === 2, { what: 'a to see b' });
      expect([...a.log.warnings(), ...b.log.warnings()]).toEqual([]);
      expect([a.notAlone.calls, b.notAlone.calls]).toEqual([1, 1]);
      // One with Redis next to one without: both are told.
      const c = await instance(false);
      expect(c.registry.report()).toEqual({ live: 3, withoutRedis: 1 });
      await waitFor(() => a.log.warnings().length === 1, { what: 'a to warn' });
      expect(c.log.warnings()).toHaveLength(1);
    });

    it('counts an instance gone once it missed three heartbeats (it died without leaving)', async () => {
      const a = await instance(false);
      await a.store.instances.heartbeat({
        id: 'died',
        host: 'elsewhere',
        pid: 1,
        version: 'test',
        redis: false,
        startedAt: Date.now(),
        seenAt: Date.now(),
      });
      await waitFor(() => a.registry.report().live === 2, { what: 'a to see the other' });
      await waitFor(() => a.registry.report().live === 1, { what: 'the silent one to be counted gone' });
      expect([a.notAlone.calls, a.notAlone.alone]).toEqual([1, 1]);
    });

    it('keeps its last report while the database does not answer, and warns once', async () => {
      const a = await instance(false);
      await a.store.close();
      stores.splice(stores.indexOf(a.store), 1);
      await waitFor(() => a.log.warnings().length > 0, { what: 'the failed heartbeat to be logged' });
      await new Promise((resolve) => setTimeout(resolve, 3 * HEARTBEAT_MS));
      expect(a.log.warnings().map((w) => w.msg)).toEqual(['instance heartbeat failed']);
      expect(a.registry.report()).toEqual({ live: 1, withoutRedis: 1 });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cv-instances-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
registrySuite(
  'SQLite, instances on one file',
  async () => new SqliteStore(join(dir, `instances-${files}.db`)),
  async () => {
    files++;
  },
);

describe.runIf(hasPostgres)('PostgreSQL', () => {
  const url = migratedTestDatabase();
  registrySuite(
    'PostgreSQL, instances on one database',
    async () => new PostgresStore(url()),
    () => truncateAll(url()),
  );
});
