import net from 'node:net';

/**
 * PostgreSQL and Redis are real peers on loopback. Under CI=true a missing service fails the
 * suite; elsewhere the suite is skipped with one line, so `npm test` passes on a bare machine.
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
  console.log(`skipping ${name} tests: ${name} is not reachable on loopback (set CI=true to require it)`);
  return false;
}

export const hasPostgres = await serviceAvailable('PostgreSQL');
export const hasRedis = await serviceAvailable('Redis');
