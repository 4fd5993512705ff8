import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
  /** The body as verified by the `standardwebhooks` package with the endpoint's secret. */
  verified: { type: string; timestamp: string; data: Record<string, unknown> } | null;
  verifyError: string | null;
  answered: number;
  /** When the request arrived (Date.now()). */
  at: number;
}

/**
 * A webhook receiver on loopback: a plain node:http server that records every request, checks
 * its signature with the `standardwebhooks` npm package (not the service's code), and answers
 * with the statuses queued in `answers` (200 once the queue is empty).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  /** Statuses to answer with, in order; 200 after. 0: never answer (the request hangs). */
  answers: number[] = [];
  /** Leave every request unanswered (a hanging endpoint), whatever `answers` holds. */
  hang = false;
  /** Wait this long before answering (a slow receiver). */
  delayMs = 0;
  /** Requests not answered yet whose connection is still open: hanging, or waiting for `delayMs`. */
  open = 0;
  /** For each request, in order, how many were open when it arrived (itself included). */
  readonly openAtArrival: number[] = [];
  secret = '';
  private readonly server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      // Checked when a test reads it, with the secret of the time of arrival: a receiver in the
      // test's process should not slow the service it measures (the package hashes in JavaScript).
      const secret = this.secret;
      let checked: Pick<ReceivedWebhook, 'verified' | 'verifyError'> | undefined;
      const check = () => {
        if (checked) return checked;
        try {
          checked = {
            verified: new Webhook(secret).verify(body, headers) as ReceivedWebhook['verified'],
            verifyError: null,
          };
        } catch (err) {
          checked = { verified: null, verifyError: (err as Error).message };
        }
        return checked;
      };
      const answered = this.hang ? 0 : (this.answers.shift() ?? 200);
      this.received.push({
        headers,
        body,
        get verified() {
          return check().verified;
        },
        get verifyError() {
          return check().verifyError;
        },
        answered,
        at,
      });
      this.open++;
      this.openAtArrival.push(this.open);
      let closed = false;
      const close = () => {
        if (!closed) this.open--;
        closed = true;
      };
      // Answered, or its connection closed (the sender's timeout, or close()): open no more.
      res.once('close', close);
      if (answered === 0) return;
      const answer = () => res.writeHead(answered, { 'content-type': 'text/plain' }).end('ok');
      if (this.delayMs > 0) setTimeout(answer, this.delayMs);
      else answer();
    });
  });

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Resolves once `count` requests arrived (or rejects after `timeoutMs`). */
  async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} webhooks, got ${this.received.length}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.received;
  }
}
