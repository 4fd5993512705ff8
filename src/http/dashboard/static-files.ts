import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, renderError } from '../errors.js';

/** Vite's content-hashed files: a new build gives them new names, so they may be kept for ever. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The built front end in `dir` (index.html and assets/): a path that names a file gets that file,
 * any other path gets index.html, so the page's own routes work on reload. Paths under assets/
 * and api/ never fall back to the page: a missing script must not come back as HTML.
 */
export const staticFiles = (dir: string) => async (app: FastifyInstance) => {
  const built = existsSync(dir) && statSync(dir).isDirectory();
  // send (behind @fastify/static) sets the content type and refuses paths outside the root too.
  if (built)
    await app.register(fastifyStatic, { root: dir, serve: false, cacheControl: false, dotfiles: 'ignore' });
  const notBuilt = (reply: FastifyReply) =>
    reply
      .code(503)
      .type('application/json')
      .send(
        renderError(
          new ApiError(
            'UNAVAILABLE',
            'The dashboard is not built: run `npm run build` and restart the service.',
          ),
        ),
      );
  const page = (reply: FastifyReply) => {
    if (!built || !existsSync(resolve(dir, 'index.html'))) return notBuilt(reply);
    // no-store (every answer's default): a new build's page must name its new assets at once.
    return reply.sendFile('index.html');
  };

  app.get('/', { schema: { hide: true } }, (_request, reply) => page(reply));
  app.get<{ Params: { '*': string } }>('/*', { schema: { hide: true } }, (request, reply) => {
    const path = request.params['*'];
    const target = resolve(dir, path);
    const inside = relative(dir, target);
    if (path.includes('\0') || inside.startsWith('..') || isAbsolute(inside)) {
      throw new ApiError('NOT_FOUND', 'No such file.');
    }
    if (built && inside !== '' && isFile(target)) {
      if (inside.startsWith('assets/')) reply.header('cache-control', IMMUTABLE);
      return reply.sendFile(inside);
    }
    if (path.startsWith('assets/') || path.startsWith('api/'))
      throw new ApiError('NOT_FOUND', 'No such file.');
    return page(reply);
  });
};

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
