import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One event as the receiver took it (answered 2xx), de-duplicated on `webhook-id`. */
export interface ReceivedEvent {
  type: string;
  requestId: string;
}

/**
 * The campaign's webhook endpoint: checks every signature with the `standardwebhooks` package (not
 * the service's code), refuses one request in `failEvery` with a 500 so that retries run too, and
 * keeps each event once by its `webhook-id`, counting the deliveries that came again.
 */
export class ChaosReceiver {
  readonly events = new Map<string, ReceivedEvent>();
  /** 2xx answers to a webhook-id already taken: at-least-once delivery, fine but reported. */
  duplicates = 0;
  badSignatures = 0;
  refused = 0;
  secret = '';
  private requests = 0;
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      let event: { type: string; data: { requestId?: string } };
      try {
        event = new Webhook(this.secret).verify(body, headers) as typeof event;
      } catch {
        this.badSignatures++;
        res.writeHead(400).end();
        return;
      }
      if (++this.requests % this.failEvery === 0) {
        this.refused++;
        res.writeHead(500).end();
        return;
      }
      const id = headers['webhook-id'] ?? '';
      if (this.events.has(id)) this.duplicates++;
      else this.events.set(id, { type: event.type, requestId: event.data.requestId ?? '' });
      res.writeHead(204).end();
    });
  });

  constructor(private readonly failEvery = 25) {}

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
