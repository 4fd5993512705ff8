import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A webhook receiver for the cluster bench and its checks: answers 200 to every POST at once and
 * keeps, of each delivery, the event's id, type and request (the signature is the webhook tests'
 * concern, not this one's). In a process of its own under `npm run bench:cluster`, so that its
 * CPU is not the service's; in the test's process in test/e2e/scale/cluster.test.ts.
 */
export interface ReceivedEvent {
  id: string;
  type: string;
  accountId: string | null;
  requestId: string | null;
}

export interface WebhookSink {
  readonly port: number;
  events(): ReceivedEvent[];
  /** Forgets what it received (between measurements). */
  reset(): void;
  close(): Promise<void>;
}

/** Listens on every one of `hosts`, on one port (0: a free one, chosen on the first). */
export async function startWebhookSink(hosts: string[], port = 0): Promise<WebhookSink> {
  const events: ReceivedEvent[] = [];
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          type?: string;
          data?: { id?: string; accountId?: string; requestId?: string | null };
        };
        events.push({
          id: String(body.data?.id),
          type: String(body.type),
          accountId: body.data?.accountId ?? null,
          requestId: body.data?.requestId ?? null,
        });
      } catch {
        events.push({ id: 'unreadable', type: 'unreadable', accountId: null, requestId: null });
      }
      res.writeHead(200).end();
    });
  };
  const servers: http.Server[] = [];
  for (const host of hosts) {
    const server = http.createServer(onRequest);
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    port = (server.address() as AddressInfo).port;
    servers.push(server);
  }
  return {
    port,
    events: () => events,
    reset: () => {
      events.length = 0;
    },
    async close() {
      for (const s of servers) s.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

/**
 * As a process (bench/cluster.ts forks it): argv[2] is `{ hosts, port? }` as JSON; it sends
 * `{ port }` once listening, answers `'events'` with what it received and `'count'` with how
 * many, forgets it on `'reset'` (answering `{ reset: true }`), and exits on `'close'`.
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { hosts, port } = JSON.parse(process.argv[2] ?? '{}') as { hosts: string[]; port?: number };
  const sink = await startWebhookSink(hosts, port);
  process.send?.({ port: sink.port });
  process.on('message', (message) => {
    if (message === 'events') process.send?.({ events: sink.events() });
    if (message === 'count') process.send?.({ count: sink.events().length });
    if (message === 'reset') {
      sink.reset();
      process.send?.({ reset: true });
    }
    if (message === 'close') void sink.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => process.exit(0));
}
