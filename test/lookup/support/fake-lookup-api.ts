import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake lookup API received. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

/** How the fake answers one request. */
export interface FakeAnswer {
  status?: number;
  /** A JSON body (application/json unless `contentType` says otherwise). */
  json?: unknown;
  /** A body as it is, for garbage. */
  raw?: string;
  contentType?: string;
  /** Hold the answer this long. */
  delayMs?: number;
  /** Send the headers, then never the body. */
  stallBody?: boolean;
  /** Send the headers and the body's first byte, then close the connection. */
  cutBody?: boolean;
  /** Never answer at all. */
  hang?: boolean;
}

export interface FakeLookupApi {
  url: string;
  received: Received[];
  /** The most requests it held unanswered at once (a client that queues its requests keeps it low). */
  maxInFlight: number;
  /** The connections clients opened to it. */
  connections: number;
  answer(fn: (r: Received) => FakeAnswer): void;
  close(): Promise<void>;
}

/**
 * A small HTTP server on loopback that answers as a lookup provider's documented API does, and
 * records every request. Unlike the delivery fakes it answers GETs too (lookups are GETs), and it
 * can answer with any content type, a body that is not JSON, an empty body, a delay, headers
 * without a body, or nothing at all.
 */
export async function startFakeLookupApi(fn: (r: Received) => FakeAnswer): Promise<FakeLookupApi> {
  let answerFn = fn;
  const received: Received[] = [];
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    inFlight += 1;
    api.maxInFlight = Math.max(api.maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
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
      };
      received.push(r);
      const a = answerFn(r);
      if (a.hang) return;
      const send = () => {
        const body = a.raw ?? (a.json === undefined ? '' : JSON.stringify(a.json));
        res.writeHead(a.status ?? 200, { 'content-type': a.contentType ?? 'application/json' });
        if (a.stallBody || a.cutBody) {
          res.write(body.slice(0, 1));
          if (a.cutBody) setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.end(body);
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.on('connection', () => {
    api.connections += 1;
  });
  const { port } = server.address() as AddressInfo;
  const api: FakeLookupApi = {
    url: `http://127.0.0.1:${port}`,
    received,
    maxInFlight: 0,
    connections: 0,
    answer(next) {
      answerFn = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return api;
}

/** A port nothing listens on: connections to it are refused. */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The faults every provider must answer as a failure, never a throw, within the budget. */
export const FAULTS: Array<{ name: string; answer: FakeAnswer; retryable: boolean }> = [
  { name: '500', answer: { status: 500, json: { message: 'Internal Server Error' } }, retryable: true },
  {
    name: '503 with an HTML page',
    answer: { status: 503, raw: '<html>down</html>', contentType: 'text/html' },
    retryable: true,
  },
  { name: '429', answer: { status: 429, json: {} }, retryable: true },
  { name: '401', answer: { status: 401, json: {} }, retryable: false },
  { name: '403', answer: { status: 403, json: {} }, retryable: false },
  { name: '200 with garbage', answer: { status: 200, raw: '{"data": [unclosed' }, retryable: true },
  {
    name: '200 with a wrong content type',
    answer: { status: 200, raw: '{}', contentType: 'text/plain' },
    retryable: true,
  },
  { name: '200 with an empty body', answer: { status: 200, raw: '' }, retryable: true },
  { name: '200 with a JSON array', answer: { status: 200, json: [1, 2] }, retryable: true },
];

/** A budget's signal, as the lookup service gives a provider. */
export const budget = (ms = 1000) => AbortSignal.timeout(ms);
