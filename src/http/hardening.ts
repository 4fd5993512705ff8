import { type ServerOptions, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import { ApiError, renderError } from './errors.js';
import { jsonBodyProblem } from './json-body.js';
import { notFoundPage, pageLocale } from './link-pages.js';

/** Timeouts against slow clients (a socket trickling its headers or body holds memory and a slot). */
export interface HttpTimeouts {
  requestTimeoutSeconds: number;
  headersTimeoutSeconds: number;
  keepAliveTimeoutSeconds: number;
  connectionTimeoutSeconds: number;
}

/** Headers every answer carries, whoever produced it. */
export function securityHeaders(hstsMaxAgeSeconds: number | null): Record<string, string> {
  const headers: Record<string, string> = {
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  };
  // Only when the service is reached over HTTPS: HSTS over plain HTTP would be ignored at best.
  if (hstsMaxAgeSeconds !== null)
    headers['strict-transport-security'] = `max-age=${hstsMaxAgeSeconds}; includeSubDomains`;
  return headers;
}

/**
 * The dashboard's pages may load only their own scripts, styles and images (no inline script, so
 * an injected string cannot run), may not be framed, and their forms may post only here. Frames
 * of blob:/data: are for the email preview, which the page renders in a sandboxed frame.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "frame-src 'self' blob: data:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/**
 * The API reference page at /docs (swagger-ui): its own scripts and styles only, images of its own
 * or inline SVG icons (data:), requests ("Try it out") to this service or to PUBLIC_BASE_URL.
 */
export function docsCsp(publicBaseUrl?: string | null): string {
  const api = publicBaseUrl ? ` ${new URL(publicBaseUrl).origin}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${api}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Headers of every answer under /dashboard, on top of securityHeaders. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': DASHBOARD_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * The server options that keep Fastify's own answers (bad URL, over-long path parameter, socket
 * errors before a request exists) in the contract's shape, and slow clients from holding sockets.
 */
export function hardenedServerOptions(
  timeouts: HttpTimeouts | undefined,
  headers: Record<string, string>,
): Partial<FastifyServerOptions> & { http?: ServerOptions } {
  const send = (reply: FastifyReply, error: ApiError) =>
    reply.code(error.status).headers(headers).type('application/json').send(renderError(error));
  const options: Partial<FastifyServerOptions> = {
    frameworkErrors: (error: FastifyError, request, reply) => {
      // A magic link's URL that cannot be routed (an over-long or badly encoded token) is a link
      // no request has: its page, not an API error.
      if (request.url.startsWith('/v1/links/')) {
        const page = notFoundPage(pageLocale(request.headers['accept-language']));
        return (reply as FastifyReply)
          .code(page.status)
          .headers({ ...headers, ...page.headers })
          .send(page.html);
      }
      if (error.code === 'FST_ERR_BAD_URL') {
        return send(
          reply,
          new ApiError('VALIDATION_ERROR', 'The URL path is not valid (bad percent-encoding).'),
        );
      }
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
        return send(reply, new ApiError('VALIDATION_ERROR', 'A path parameter of the URL is too long.'));
      }
      return send(reply, new ApiError('VALIDATION_ERROR', 'The request could not be routed.'));
    },
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) =>
      writeClientError(err, socket, headers),
  };
  if (!timeouts) return options;
  const headersMs = timeouts.headersTimeoutSeconds * 1000;
  return {
    ...options,
    requestTimeout: timeouts.requestTimeoutSeconds * 1000,
    keepAliveTimeout: timeouts.keepAliveTimeoutSeconds * 1000,
    connectionTimeout: timeouts.connectionTimeoutSeconds * 1000,
    // Node checks the headers and request timeouts on this interval (30 s by default), so a
    // shorter timeout would otherwise be enforced up to 30 s late.
    http: {
      headersTimeout: Math.min(headersMs, timeouts.requestTimeoutSeconds * 1000),
      connectionsCheckingInterval: Math.max(250, Math.min(headersMs, 5000) / 2),
    },
  };
}

/**
 * Fastify's JSON parser, except that a body refused for a `__proto__` or `constructor` key is said
 * to be refused for that key (Fastify reports it as invalid JSON, which it is not), and a body
 * jsonBodyProblem refuses (a name repeated, a lone surrogate, nesting deeper than MAX_JSON_DEPTH)
 * is refused before any hook, schema or handler reads it.
 */
export function jsonParserNamingPoisonedKeys(app: FastifyInstance, bodyLimit: number): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    parse(request, body as string, (err, value) => {
      if (!err) {
        const problem = jsonBodyProblem(body as string, value);
        return problem ? done(problem, undefined) : done(null, value);
      }
      // Only on the error path: is it JSON after all? Then it held a refused key.
      try {
        JSON.parse(body as string);
      } catch {
        return done(err, undefined);
      }
      const field = /"__proto__"\s*:/.test(body as string) ? '__proto__' : 'constructor';
      done(
        new ApiError('VALIDATION_ERROR', `The body has a "${field}" key, which is refused.`, [
          { field, message: `a "${field}" key is refused: it could change the prototype of objects` },
        ]),
        undefined,
      );
    });
  });
}

/** Sets the headers of `securityHeaders` on every routed answer, errors included. */
export function addSecurityHeaders(app: FastifyInstance, headers: Record<string, string>): void {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * A socket error before any request exists (timeout, header overflow, unparsable request): Node
 * would answer in its own shape; the contract's is written instead, then the socket is closed.
 */
function writeClientError(err: NodeJS.ErrnoException, socket: Socket, headers: Record<string, string>) {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new ApiError('REQUEST_TIMEOUT', 'The request was not received in time; send it faster.')
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('HEADERS_TOO_LARGE', 'The request headers (or the URL) are too large.')
        : new ApiError('VALIDATION_ERROR', 'The request is not valid HTTP.');
  const body = JSON.stringify(renderError(error));
  if (socket.writable) {
    const lines = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\ncontent-type: application/json\r\n${lines}` +
        `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
