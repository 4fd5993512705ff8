import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake provider API received, with the time window it was open. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** performance.now() when the request arrived and when the answer was sent. */
  startedAt: number;
  endedAt: number;
}

export interface Answer {
  status: number;
  json?: unknown;
  /** A body that is not JSON (a proxy's error page, garbage), sent instead of `json`. */
  text?: string;
  /** Hold the answer this long: makes parallel deliveries measurable. */
  delayMs?: number;
  /** Never answer (the client's timeout has to end it). */
  hang?: boolean;
}

export interface FakeApi {
  url: string;
  received: Received[];
  /** Requests other than health probes (GET). */
  sends(): Received[];
  /** Replaces the answering function. */
  answer(fn: (r: Received) => Answer): void;
  close(): Promise<void>;
}

/**
 * A small HTTP server on loopback that answers as a provider's API does and records every
 * request. The default answer is 200 `{}` for GET (health probes) and what `fn` says otherwise.
 */
export async function startFakeApi(fn: (r: Received) => Answer): Promise<FakeApi> {
  let answerFn = fn;
  const received: Received[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const r: Received = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        startedAt,
        endedAt: startedAt,
      };
      received.push(r);
      const a = req.method === 'GET' ? { status: 200, json: {} } : answerFn(r);
      if (a.hang) {
        hanging.add(() => res.destroy());
        return;
      }
      const send = () => {
        r.endedAt = performance.now();
        res.writeHead(a.status, { 'content-type': 'application/json' });
        res.end(a.text ?? (a.json === undefined ? '' : JSON.stringify(a.json)));
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    sends: () => received.filter((r) => r.method !== 'GET'),
    answer(next) {
      answerFn = next;
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released): connections to it are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** True when the two time windows overlap. */
export const overlaps = (
  a: { startedAt: number; endedAt: number },
  b: { startedAt: number; endedAt: number },
) => a.startedAt < b.endedAt && b.startedAt < a.endedAt;
