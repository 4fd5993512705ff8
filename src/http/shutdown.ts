import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ApiError, renderError } from './errors.js';

/** How long a client refused during a shutdown is told to wait: another instance, or this one restarted. */
const RETRY_AFTER_SECONDS = 1;

/**
 * A graceful close: requests already started finish; every request that arrives meanwhile on a
 * connection the server still holds is refused with the contract's `503 UNAVAILABLE` and
 * `Retry-After` (Fastify's own closing answer has neither), each with `Connection: close`.
 * Connections that would otherwise hold the close open until a timeout are closed at once and as
 * they appear: idle keep-alive ones, and ones that have not sent a byte (a connection opened just
 * before the signal, or a balancer's TCP probe; Node counts those as busy until the headers
 * timeout, past the process's forced exit). Register it after the security headers, so that the
 * refusal carries them.
 */
export function drainOnShutdown(app: FastifyInstance): void {
  let closing = false;
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  const sweep = () => {
    app.server.closeIdleConnections();
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  };
  let sweeper: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    closing = true;
    sweep();
    sweeper = setInterval(sweep, 50);
    sweeper.unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweeper);
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) return done();
    const refusal = new ApiError(
      'UNAVAILABLE',
      'The service is shutting down; retry shortly (another instance, or this one once restarted).',
      undefined,
      RETRY_AFTER_SECONDS,
    );
    // Serialised here: the route's schema for 503 may describe another body (/health's "down").
    reply
      .code(refusal.status)
      .header('retry-after', String(RETRY_AFTER_SECONDS))
      .header('connection', 'close')
      .type('application/json')
      .send(JSON.stringify(renderError(refusal)));
  });
}
