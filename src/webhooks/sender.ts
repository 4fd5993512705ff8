import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { parseWebhookUrl, resolveTarget, UrlRefused } from './url-guard.js';

export interface WebhookPost {
  url: string;
  /** The event id: the same on every attempt, so receivers can de-duplicate. */
  eventId: string;
  payload: string;
  /** The endpoint's `whsec_…` secret, in clear for the time of the call. */
  secret: string;
  /** The signing time (webhook-timestamp); receivers refuse times far from their clock. */
  at: Date;
  timeoutMs: number;
  allowPrivate: boolean;
  /** Connections to reuse; without, each attempt opens and closes its own. */
  agents?: WebhookAgents;
}

export interface PostResult {
  ok: boolean;
  /** The receiver's HTTP status, when it answered. */
  status: number | null;
  /** Why the attempt failed, for the deliveries listing (never the payload). */
  error: string | null;
  /** No answer within `timeoutMs`: the attempt held its slot for the whole timeout. */
  timedOut?: boolean;
}

/**
 * Keep-alive connections for webhook attempts, pooled per origin: an endpoint's attempts reuse
 * its connections instead of a TCP (and TLS) handshake each. A pooled connection goes to an
 * address that was checked when it was opened; every attempt still checks the URL's address
 * first. An idle connection is closed after 4 s, before the 5 s many servers keep one (and
 * sooner when the server's Keep-Alive header says so), so that a reused one is rarely found
 * closed; one that is counts as a failed attempt and is retried on the schedule.
 */
export class WebhookAgents {
  private readonly plain = new http.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 64 });
  private readonly tls = new https.Agent({ keepAlive: true, timeout: 4000, maxFreeSockets: 64 });

  for(url: URL): http.Agent {
    return url.protocol === 'https:' ? this.tls : this.plain;
  }

  /** Closes the pooled connections (at stop). */
  destroy(): void {
    this.plain.destroy();
    this.tls.destroy();
  }
}

/** The headers of a signed webhook (Standard Webhooks), signed with the `standardwebhooks` package. */
export function signedHeaders(post: Pick<WebhookPost, 'eventId' | 'payload' | 'secret' | 'at'>) {
  return {
    'content-type': 'application/json',
    'webhook-id': post.eventId,
    'webhook-timestamp': String(Math.floor(post.at.getTime() / 1000)),
    'webhook-signature': new Webhook(post.secret).sign(post.eventId, post.at, post.payload),
  };
}

/**
 * POSTs one webhook: resolves and checks the host first, then connects to exactly the checked
 * address (the lookup handed to the socket returns it), so a DNS answer that changes between the
 * check and the connection cannot steer the request inside; a pooled connection (`agents`) goes
 * to the address checked when it was opened. 2xx is success; redirects are not followed (a 3xx
 * counts as a failure). The whole attempt, connection included, is bounded by `timeoutMs`; an
 * attempt that runs out of time destroys its connection.
 */
export async function postWebhook(post: WebhookPost): Promise<PostResult> {
  let url: URL;
  let pinned: LookupFunction;
  try {
    url = parseWebhookUrl(post.url);
    const target = await resolveTarget(url, post.allowPrivate);
    pinned = (_host, options, callback) => {
      const cb = callback as (...args: unknown[]) => void;
      if ((options as { all?: boolean }).all) cb(null, [target]);
      else cb(null, target.address, target.family);
    };
  } catch (err) {
    return {
      ok: false,
      status: null,
      error: err instanceof UrlRefused ? err.message : 'address lookup failed',
    };
  }
  const body = Buffer.from(post.payload);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    const finish = (result: PostResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: post.agents?.for(url) ?? false,
        headers: {
          ...signedHeaders(post),
          'content-length': String(body.length),
          'user-agent': 'contact-verify-webhooks',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The body is not used; reading it lets the connection finish cleanly.
        response.resume();
        response.on('end', () =>
          finish({
            ok: status >= 200 && status < 300,
            status,
            error: status >= 200 && status < 300 ? null : `receiver answered ${status}`,
          }),
        );
        response.on('error', () => finish({ ok: false, status, error: 'response interrupted' }));
      },
    );
    const timer = setTimeout(() => {
      finish({ ok: false, status: null, error: `no answer within ${post.timeoutMs} ms`, timedOut: true });
      request.destroy();
    }, post.timeoutMs);
    request.on('error', (err) =>
      finish({
        ok: false,
        status: null,
        error: `request failed: ${(err as NodeJS.ErrnoException).code ?? err.message}`,
      }),
    );
    request.end(body);
  });
}
