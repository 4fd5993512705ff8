import net from 'node:net';
import { recordSkip } from './skips.js';

/**
 * PostgreSQL and Redis are real peers on loopback. Under CI=true a missing service fails the
 * suite; elsewhere the suite is skipped, so `npm test` passes on a bare machine, and the run ends
 * with a line per skipped suite that names the service (test/support/skip-reporter.ts).
 */
export const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Resolves true when the service is there; throws under CI=true when it is not. */
export async function serviceAvailable(name: 'PostgreSQL' | 'Redis'): Promise<boolean> {
  const ok = name === 'PostgreSQL' ? await reachable(POSTGRES_URL, 5432) : await reachable(REDIS_URL, 6379);
  if (ok) return true;
  if (process.env.CI === 'true') throw new Error(`${name} is required under CI=true but is not reachable`);
  const { host } = new URL(name === 'PostgreSQL' ? POSTGRES_URL : REDIS_URL);
  recordSkip(
    `${name} is not reachable at ${host || 'its default port'} (set CI=true to require it)`,
    name === 'PostgreSQL' ? 'hasPostgres' : 'hasRedis',
  );
  return false;
}

export const hasPostgres = await serviceAvailable('PostgreSQL');
export const hasRedis = await serviceAvailable('Redis');
