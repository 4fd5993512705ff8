import net from 'node:net';

/**
 * A loopback TCP proxy that tests put between the service and a shared peer (Redis, PostgreSQL),
 * so an outage can be simulated without stopping the machine's real server that other suites are
 * using. It can also hang: connections stay open but no byte moves, as a stalled server.
 */
export interface FlakyProxy {
  /** `host:port` to point a client at. */
  readonly port: number;
  /** Drops every open connection and refuses new ones, as a crashed server would. */
  cut(): void;
  /** Stops forwarding bytes on open connections without closing them, as a hung server would. */
  hang(): void;
  /** Accepts and forwards again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startFlakyProxy(target: { host: string; port: number }): Promise<FlakyProxy> {
  let mode: 'open' | 'cut' | 'hang' = 'open';
  const pairs = new Set<[net.Socket, net.Socket]>();

  const server = net.createServer((client) => {
    if (mode === 'cut') {
      client.destroy();
      return;
    }
    const upstream = net.connect(target);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
    if (mode === 'hang') pause(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;

  function pause([client, upstream]: [net.Socket, net.Socket]) {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }

  return {
    port,
    cut() {
      mode = 'cut';
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    hang() {
      mode = 'hang';
      for (const pair of pairs) pause(pair);
    },
    restore() {
      if (mode === 'hang') {
        for (const [client, upstream] of pairs) {
          client.pipe(upstream);
          upstream.pipe(client);
        }
      }
      mode = 'open';
    },
    async close() {
      mode = 'cut';
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
