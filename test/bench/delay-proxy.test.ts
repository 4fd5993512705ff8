import { randomBytes, randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresCounter, RespCounter, startDelayProxy } from '../../bench/delay-proxy.js';
import { hasPostgres, hasRedis, POSTGRES_URL, REDIS_URL } from '../support/services.js';

/** An echo server on loopback. */
async function echoServer(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer((s) => s.pipe(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Writes `data` through `port` and resolves what comes back, and when its first byte came. */
function roundTrip(port: number, data: Buffer): Promise<{ back: Buffer; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs = -1;
    const chunks: Buffer[] = [];
    let got = 0;
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(data));
    socket.on('data', (c: Buffer) => {
      if (firstByteMs < 0) firstByteMs = performance.now() - started;
      chunks.push(c);
      got += c.length;
      if (got >= data.length) {
        socket.end();
        resolve({ back: Buffer.concat(chunks), firstByteMs });
      }
    });
    socket.on('error', reject);
  });
}

describe('the delay proxy', () => {
  let echo: Awaited<ReturnType<typeof echoServer>>;
  beforeAll(async () => {
    echo = await echoServer();
  });
  afterAll(() => echo.close());

  it('adds its delay in each direction and keeps every byte in order', async () => {
    const proxy = await startDelayProxy({
      hosts: ['127.0.0.1'],
      target: { host: '127.0.0.1', port: echo.port },
      delayMs: 20,
    });
    try {
      const small = await roundTrip(proxy.port, Buffer.from('ping'));
      expect(small.back.toString()).toBe('ping');
      // Two trips of 20 ms at least; a loaded machine adds, so only the floor is exact.
      expect(small.firstByteMs).toBeGreaterThanOrEqual(39);
      const big = randomBytes(3 << 20);
      const back = await roundTrip(proxy.port, big);
      expect(back.back.equals(big)).toBe(true);
      expect(proxy.counts()).toMatchObject({
        connections: 2,
        bytesUp: 4 + big.length,
        bytesDown: 4 + big.length,
      });
    } finally {
      await proxy.close();
    }
  });

  it('passes bytes straight through with no delay', async () => {
    const proxy = await startDelayProxy({
      hosts: ['127.0.0.1'],
      target: { host: '127.0.0.1', port: echo.port },
      delayMs: 0,
    });
    try {
      const big = randomBytes(1 << 20);
      expect((await roundTrip(proxy.port, big)).back.equals(big)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('counts RESP commands split anywhere across chunks', () => {
    const stream = Buffer.from(
      '*2\r\n$3\r\nGET\r\n$5\r\nk\r\nxy\r\n*3\r\n$3\r\nSET\r\n$1\r\na\r\n$0\r\n\r\nPING\r\n*1\r\n$4\r\nPING\r\n',
    );
    for (const size of [1, 2, 3, 7, stream.length]) {
      const counter = new RespCounter();
      for (let i = 0; i < stream.length; i += size) counter.feed(stream.subarray(i, i + size));
      expect(counter.count, `chunks of ${size}`).toBe(4);
    }
  });

  it('counts PostgreSQL queries: a Query, or the Sync that ends an extended one', () => {
    const message = (type: string, body: Buffer) => {
      const h = Buffer.alloc(5);
      h.write(type, 0);
      h.writeInt32BE(body.length + 4, 1);
      return Buffer.concat([h, body]);
    };
    const startup = Buffer.alloc(8 + 5);
    startup.writeInt32BE(13, 0);
    startup.writeInt32BE(196608, 4);
    const stream = Buffer.concat([
      startup,
      message('Q', Buffer.from('SELECT 1\0')),
      message('P', Buffer.from('\0SELECT $1\0\0\0')),
      message('B', Buffer.alloc(12)),
      message('E', Buffer.alloc(5)),
      message('S', Buffer.alloc(0)),
      message('X', Buffer.alloc(0)),
    ]);
    for (const size of [1, 4, 9, stream.length]) {
      const counter = new PostgresCounter();
      for (let i = 0; i < stream.length; i += size) counter.feed(stream.subarray(i, i + size));
      expect(counter.count, `chunks of ${size}`).toBe(2);
    }
  });

  it.runIf(hasRedis)('counts the commands ioredis sends to Redis', async () => {
    const { hostname, port } = new URL(REDIS_URL);
    const proxy = await startDelayProxy({
      hosts: ['127.0.0.1'],
      target: { host: hostname, port: Number(port || 6379) },
      delayMs: 1,
      protocol: 'resp',
    });
    const redis = new Redis({ host: '127.0.0.1', port: proxy.port, lazyConnect: true });
    try {
      await redis.connect();
      const before = proxy.counts().requests;
      const key = `test-${randomUUID()}`;
      await redis.set(key, 'x'.repeat(100_000), 'EX', 10);
      await redis.get(key);
      await redis.eval("return redis.call('del', KEYS[1])", 1, key);
      await redis.multi().incr(key).expire(key, 10).exec();
      await redis.del(key);
      // set, get, eval, multi, incr, expire, exec, del.
      expect(proxy.counts().requests - before).toBe(8);
    } finally {
      redis.disconnect();
      await proxy.close();
    }
  });

  it.runIf(hasPostgres)('counts the queries node-postgres sends', async () => {
    const url = new URL(POSTGRES_URL);
    const proxy = await startDelayProxy({
      hosts: ['127.0.0.1'],
      target: { host: url.hostname, port: Number(url.port || 5432) },
      delayMs: 1,
      protocol: 'postgres',
    });
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const client = new pg.Client({ connectionString: url.toString() });
    try {
      await client.connect();
      const before = proxy.counts().requests;
      await client.query('SELECT 1');
      await client.query({ name: 'p1', text: 'SELECT $1::int AS n', values: [1] });
      await client.query({ name: 'p1', text: 'SELECT $1::int AS n', values: [2] });
      await client.query('BEGIN');
      await client.query('COMMIT');
      expect(proxy.counts().requests - before).toBe(5);
    } finally {
      await client.end();
      await proxy.close();
    }
  });
});
