import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

/**
 * A TCP proxy that holds every chunk for a one-way delay in each direction, so that a client on
 * this machine pays the round trips a network would make it pay (the kernel here has no netem).
 * `npm run bench:cluster` puts one in front of PostgreSQL and one in front of Redis, in a process
 * of its own (its CPU is measured apart from the servers'); tests start one in their process.
 *
 * Node's timers fire on whole milliseconds, no sooner than asked: a chunk waits at least
 * `delayMs`, a little more on a busy machine (the bench measures and prints the round trip).
 * Chunks keep their order; a direction whose queue passes HIGH_WATER bytes stops reading until
 * it drains, as a congested link would.
 *
 * It also counts what clients ask: commands (RESP arrays, for Redis) or queries (a simple Query
 * or the Sync that ends an extended-protocol query, for PostgreSQL): a round trip each, unless
 * the client pipelines.
 */
export interface DelayProxyOptions {
  /** Addresses to listen on, all on one port. */
  hosts: string[];
  /** 0 (default): a free port, chosen on the first address. */
  port?: number;
  target: { host: string; port: number };
  /** Added to every chunk in each direction, in ms (0: none). */
  delayMs: number;
  /** What to count in the client's bytes. */
  protocol?: 'resp' | 'postgres';
}

export interface ProxyCounts {
  connections: number;
  /** Commands (RESP) or queries (PostgreSQL) the clients sent. */
  requests: number;
  bytesUp: number;
  bytesDown: number;
}

export interface DelayProxy {
  readonly port: number;
  counts(): ProxyCounts;
  close(): Promise<void>;
}

const HIGH_WATER = 1 << 20;

/** Writes what `from` reads to `to`, each chunk `delayMs` later, in order. */
function delayedPipe(from: net.Socket, to: net.Socket, delayMs: number, onChunk: (c: Buffer) => void): void {
  const queue: Array<{ due: number; chunk: Buffer }> = [];
  let queued = 0;
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  const finish = () => {
    if (ended && queue.length === 0 && !to.destroyed) to.end();
  };
  const flush = () => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && (queue[0]?.due ?? 0) <= now) {
      const { chunk } = queue.shift() as { chunk: Buffer };
      queued -= chunk.length;
      if (!to.destroyed) to.write(chunk);
    }
    if (queued < HIGH_WATER && from.isPaused() && to.writableLength < HIGH_WATER) from.resume();
    const next = queue[0];
    if (next) timer = setTimeout(flush, Math.max(0, next.due - now));
    else finish();
  };
  to.on('drain', () => {
    if (queued < HIGH_WATER && from.isPaused()) from.resume();
  });
  from.on('data', (chunk: Buffer) => {
    onChunk(chunk);
    if (delayMs <= 0) {
      if (!to.write(chunk)) from.pause();
      return;
    }
    queue.push({ due: performance.now() + delayMs, chunk });
    queued += chunk.length;
    if (queued >= HIGH_WATER || to.writableLength >= HIGH_WATER) from.pause();
    timer ??= setTimeout(flush, delayMs);
  });
  from.on('end', () => {
    ended = true;
    if (timer === null) finish();
  });
}

/** Counts RESP arrays (commands) in a client's stream; inline commands count too. */
export class RespCounter {
  count = 0;
  private line: number[] = [];
  private state: 'start' | 'header' | 'skip' = 'start';
  private elements = 0;
  private skip = 0;

  feed(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.state === 'skip') {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        if (this.skip === 0) this.state = --this.elements > 0 ? 'header' : 'start';
        continue;
      }
      const byte = chunk[i++] as number;
      if (byte !== 0x0a) {
        if (byte !== 0x0d) this.line.push(byte);
        continue;
      }
      const line = String.fromCharCode(...this.line);
      this.line = [];
      if (this.state === 'start') {
        if (line.startsWith('*')) {
          this.count++;
          this.elements = Number(line.slice(1));
          if (this.elements > 0) this.state = 'header';
        } else if (line.trim() !== '') this.count++;
      } else {
        // '$<length>': the element's bytes and their CRLF follow.
        this.skip = Number(line.slice(1)) + 2;
        this.state = 'skip';
      }
    }
  }
}

/** PostgreSQL's protocol codes of the untyped first messages. */
const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const PROTOCOL_3 = 196608;

/**
 * Counts the queries in a PostgreSQL client's stream: Query messages and the Sync that ends each
 * extended-protocol query. Stops counting (opaque) once a connection turns to TLS.
 */
export class PostgresCounter {
  count = 0;
  private header: number[] = [];
  private skip = 0;
  private typed = false;
  private opaque = false;

  feed(chunk: Buffer): void {
    let i = 0;
    while (i < chunk.length && !this.opaque) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      this.header.push(chunk[i++] as number);
      const size = this.typed ? 5 : 8;
      if (this.header.length < size) continue;
      const h = Buffer.from(this.header);
      this.header = [];
      if (this.typed) {
        const type = String.fromCharCode(h[0] as number);
        if (type === 'Q' || type === 'S') this.count++;
        this.skip = h.readInt32BE(1) - 4;
      } else {
        const code = h.readInt32BE(4);
        this.skip = h.readInt32BE(0) - 8;
        if (code === PROTOCOL_3) this.typed = true;
        // An SSL or GSS request is answered with one byte; a 'S' turns the connection to TLS.
        else if (code !== SSL_REQUEST && code !== GSS_REQUEST) this.opaque = true;
      }
    }
  }

  /** The server's answer to an SSL or GSS request: the connection turns to TLS on 'S' or 'G'. */
  answered(first: number): void {
    if (!this.typed && (first === 0x53 || first === 0x47)) this.opaque = true;
  }
}

export async function startDelayProxy(options: DelayProxyOptions): Promise<DelayProxy> {
  const counts: ProxyCounts = { connections: 0, requests: 0, bytesUp: 0, bytesDown: 0 };
  const sockets = new Set<net.Socket>();
  const onConnection = (client: net.Socket) => {
    counts.connections++;
    const upstream = net.connect(options.target);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    const counter =
      options.protocol === 'resp'
        ? new RespCounter()
        : options.protocol === 'postgres'
          ? new PostgresCounter()
          : null;
    let before = 0;
    delayedPipe(client, upstream, options.delayMs, (chunk) => {
      counts.bytesUp += chunk.length;
      if (!counter) return;
      before = counter.count;
      counter.feed(chunk);
      counts.requests += counter.count - before;
    });
    let first = true;
    delayedPipe(upstream, client, options.delayMs, (chunk) => {
      counts.bytesDown += chunk.length;
      if (first && counter instanceof PostgresCounter) counter.answered(chunk[0] as number);
      first = false;
    });
  };
  const servers: net.Server[] = [];
  let port = options.port ?? 0;
  for (const host of options.hosts) {
    const server = net.createServer(onConnection);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    port = (server.address() as net.AddressInfo).port;
    servers.push(server);
  }
  return {
    port,
    counts: () => ({ ...counts }),
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

/**
 * As a process (bench/cluster.ts forks it): argv[2] is the options as JSON; it sends
 * `{ port }` once listening, answers `'counts'` with its counts, and exits on `'close'`.
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const proxy = await startDelayProxy(JSON.parse(process.argv[2] ?? '{}') as DelayProxyOptions);
  process.send?.({ port: proxy.port });
  process.on('message', (message) => {
    if (message === 'counts') process.send?.({ counts: proxy.counts() });
    if (message === 'close') void proxy.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
