import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stub saw of one language's requests. */
export interface StubLog {
  /** Requests per service path (`/health`, `/v1/contact/send-code`, …). */
  requests: Map<string, number>;
  /** The `Idempotency-Key` of each send-code request, in order ('' when absent). */
  sendKeys: string[];
  /** The service's `Idempotent-Replayed` header on each send-code answer, in order. */
  sendReplayed: boolean[];
}

export interface LossyStub {
  server: Server;
  url: string;
  log(prefix: string): StubLog;
}

const FORWARDED = ['authorization', 'content-type', 'accept', 'user-agent', 'idempotency-key'];

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * A proxy in front of the service that loses answers: each request under `/<prefix>/<path>` is
 * forwarded to `<target>/<path>`, but the answer to the FIRST request of each path per prefix is
 * replaced by `503` with `Retry-After: 0` and the contract's error body. The request did reach the
 * service: this is the worst case for a client's retry (a send whose answer was lost), which only
 * an `Idempotency-Key` kept across retries turns into a replay instead of a second code.
 */
export function startLossyStub(target: string): Promise<LossyStub> {
  const logs = new Map<string, StubLog>();
  const logOf = (prefix: string) => {
    let log = logs.get(prefix);
    if (!log) {
      log = { requests: new Map(), sendKeys: [], sendReplayed: [] };
      logs.set(prefix, log);
    }
    return log;
  };
  const server = createServer(async (req, res) => {
    const [, prefix = '', ...rest] = (req.url ?? '/').split('/');
    const path = `/${rest.join('/')}`;
    const pathname = path.split('?')[0] ?? path;
    const log = logOf(prefix);
    const seen = (log.requests.get(pathname) ?? 0) + 1;
    log.requests.set(pathname, seen);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const isSend = pathname === '/v1/contact/send-code';
    if (isSend) log.sendKeys.push(headers['idempotency-key'] ?? '');
    try {
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readBody(req);
      const answer = await fetch(target + path, { method: req.method, headers, body });
      const text = await answer.text();
      if (isSend) log.sendReplayed.push(answer.headers.get('idempotent-replayed') === 'true');
      if (seen === 1) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        res.end(JSON.stringify({ error: { code: 'UNAVAILABLE', message: 'The stub lost this answer.' } }));
        return;
      }
      const retryAfter = answer.headers.get('retry-after');
      res.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
        ...(retryAfter ? { 'retry-after': retryAfter } : {}),
      });
      res.end(text);
    } catch (err) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: `Stub: ${(err as Error).message}` } }));
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        log: logOf,
      }),
    ),
  );
}
