import { setTimeout as sleep } from 'node:timers/promises';
import type { Ledger } from './ledger.js';

export interface LoadOptions {
  url: string;
  apiKey: string;
  adminToken: string;
  /** Makes this campaign's destinations its own. */
  tag: string;
  clients: number;
  /** Wrong codes that use up a request (the service's MAX_ATTEMPTS). */
  maxAttempts: number;
}

interface Answer<T> {
  status: number;
  /** Idempotent-Replayed: true. */
  replayed: boolean;
  body: { data: T; error?: { code?: string } };
}

type SendData = { requestId: string } | Array<{ requestId: string }>;

/**
 * Concurrent clients sending and verifying as integrators do, each step chosen by a counter (no
 * randomness: a run can be replayed): single and dual sends, resends that supersede a pending
 * code, right codes, two verifies of one code at once, wrong codes until the request fails, a
 * replay of a used code, and codes checked a while later (often across a kill). Every answer is
 * recorded in the ledger; `stop()` ends the clients after their current step.
 */
export class Load {
  private running = true;
  private readonly clients: Array<Promise<void>>;
  /** Sends whose code is checked some steps later, across faults. */
  private readonly later: Array<{ requestId: string; to: string }> = [];

  constructor(
    private readonly options: LoadOptions,
    private readonly ledger: Ledger,
  ) {
    this.clients = Array.from({ length: options.clients }, (_, c) => this.client(c));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }

  /** One send of the campaign's own (a canary after a fault), recorded like any other. */
  async canary(n: number): Promise<number> {
    const res = await this.send({ channel: 'EMAIL', email: `canary-${n}.${this.options.tag}@example.com` });
    return res?.status ?? 0;
  }

  private async client(c: number): Promise<void> {
    for (let i = 1; this.running; i++) {
      try {
        await this.step(c, i);
      } catch (err) {
        // A step never throws by design (every call is caught); a bug in the campaign must show.
        console.error(`chaos client ${c}: ${(err as Error).stack}`);
        await sleep(100);
      }
    }
  }

  private async step(c: number, i: number): Promise<void> {
    const { tag } = this.options;
    const action = i % 10;
    // Three destinations per client, taken in turn, so a code left pending is superseded by the
    // next send to its destination; a new set every 150 steps keeps under the hourly caps.
    const gen = Math.floor(i / 150);
    // A destination of its own for a code checked later and for a send with an Idempotency-Key.
    const slot = action === 9 ? `u${i}` : action === 2 ? `k${i}` : `s${i % 3}`;
    const email = `c${c}g${gen}${slot}.${tag}@example.com`;
    const phone = `+1415555${String(1000 + ((gen * 97 + c * 10 + (i % 3)) % 9000)).padStart(4, '0')}`;
    const dual = i % 5 === 0 && action !== 9;
    const body = dual
      ? { channels: ['EMAIL', 'SMS'], email, phone, country: 'US' }
      : { channel: 'EMAIL', email };

    await this.checkOneLater();
    const sent =
      action === 2 ? await this.sendIdempotent(body, email, `${tag}-${c}-${i}`) : await this.send(body);
    if (sent?.status !== 200) {
      // Down, or refusing: do not spin while a fault lasts.
      await sleep(sent === null || sent.status === 503 ? 100 : 10);
      return;
    }
    const [first, second] = requestIds(sent.body.data);
    if (!first) return;
    if (action === 6 || action === 7) return; // left pending: superseded later, or expired
    if (action === 9) {
      this.later.push({ requestId: first, to: email });
      return;
    }
    const code = await this.codeOf(email, first);
    if (code === null) return;
    const wrong = code.slice(0, -1) + ((Number(code.at(-1)) + 1) % 10);
    switch (action) {
      case 3: {
        // Two verifies of one code at once; a dual pair's two requests, each with its own code.
        const otherCode = second ? await this.codeOf(phone, second) : null;
        await Promise.all([
          this.verify(first, code),
          second && otherCode ? this.verify(second, otherCode) : this.verify(first, code),
        ]);
        return;
      }
      case 4:
        await this.verify(first, wrong);
        await this.verify(first, code);
        return;
      case 5:
        for (let k = 0; k < this.options.maxAttempts; k++) await this.verify(first, wrong);
        await this.verify(first, code); // used up: must not verify
        return;
      case 8:
        await this.verify(first, code);
        await this.verify(second ?? first, code); // a used code, replayed
        return;
      default:
        await this.verify(first, code);
    }
  }

  private async checkOneLater(): Promise<void> {
    if (this.later.length < 8) return;
    const item = this.later.shift();
    if (!item) return;
    const code = await this.codeOf(item.to, item.requestId);
    if (code !== null) await this.verify(item.requestId, code);
  }

  private async send(body: unknown, idempotencyKey?: string): Promise<Answer<SendData> | null> {
    const headers: Record<string, string> = idempotencyKey ? { 'idempotency-key': idempotencyKey } : {};
    const res = await this.call<SendData>(
      'send',
      '/v1/contact/send-code',
      body,
      this.options.apiKey,
      headers,
    );
    if (res?.status === 200) this.ledger.ack(requestIds(res.body.data));
    return res;
  }

  /**
   * A send as the official clients make it: one Idempotency-Key, retried while nothing answers
   * (a kill), the service is unavailable, or the key's first request is still held (409).
   */
  private async sendIdempotent(body: unknown, to: string, key: string): Promise<Answer<SendData> | null> {
    let res: Answer<SendData> | null = null;
    let tries = 0;
    while (this.running && tries < 60) {
      tries++;
      res = await this.send(body, key);
      if (res !== null && res.status !== 503 && res.status !== 409) break;
      await sleep(500);
    }
    this.ledger.idempotent.push({
      to,
      tries,
      requestIds: res?.status === 200 ? requestIds(res.body.data) : null,
      replayed: res?.replayed ?? false,
    });
    return res;
  }

  private async verify(requestId: string, otpCode: string): Promise<void> {
    const res = await this.call<{ verified?: boolean }>(
      'verify',
      '/v1/contact/verify-code',
      { requestId, otpCode },
      this.options.apiKey,
    );
    if (res?.status === 200 && res.body.data.verified === true) this.ledger.verified(requestId);
    if (res?.status === 404 && this.ledger.acked.has(requestId)) this.ledger.missingOnVerify.push(requestId);
  }

  /** The code of `requestId`, read from the outbox as the recipient would see it. */
  private async codeOf(to: string, requestId: string): Promise<string | null> {
    const res = await this.call<Array<{ requestId: string; text: string }>>(
      'outbox',
      `/v1/admin/outbox?to=${encodeURIComponent(to)}&limit=20`,
      undefined,
      this.options.adminToken,
    );
    if (res?.status !== 200) return null;
    const item = (res.body.data as Array<{ requestId: string; text: string }>).find(
      (m) => m.requestId === requestId,
    );
    return /\b(\d{6})\b/.exec(item?.text ?? '')?.[1] ?? null;
  }

  private async call<T>(
    kind: string,
    path: string,
    body: unknown,
    token: string,
    extraHeaders: Record<string, string> = {},
  ): Promise<Answer<T> | null> {
    let res: Response;
    try {
      res = await fetch(`${this.options.url}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extraHeaders,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
    } catch {
      this.ledger.count(kind, 'none');
      return null;
    }
    let parsed: Answer<T>['body'];
    try {
      parsed = (await res.json()) as Answer<T>['body'];
    } catch {
      // The process died mid-answer: the status came, the body did not.
      this.ledger.count(kind, 'none');
      return null;
    }
    this.ledger.count(kind, res.status, parsed.error?.code);
    return { status: res.status, body: parsed, replayed: res.headers.get('idempotent-replayed') === 'true' };
  }
}

const requestIds = (data: SendData): string[] =>
  (Array.isArray(data) ? data : [data]).map((e) => e.requestId);
