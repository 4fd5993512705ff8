import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const FILES = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
} as const;

/**
 * The operator dashboard: three static files over the admin API. The page itself holds no data;
 * it asks for the admin token and calls the same API as everyone else.
 */
export const dashboardRoutes = () => async (app: FastifyInstance) => {
  // src/http/routes and dist/http/routes sit at the same depth below the package root.
  const dir = new URL('../../../public/dashboard/', import.meta.url);
  const files = new Map(
    Object.entries(FILES).map(([name, type]) => [name, { type, body: readFileSync(new URL(name, dir)) }]),
  );
  const csp =
    "default-src 'self'; frame-src 'self' data:; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'";
  const serve =
    (name: keyof typeof FILES) => async (_request: unknown, reply: import('fastify').FastifyReply) => {
      const file = files.get(name)!;
      reply.header('content-security-policy', csp).header('x-frame-options', 'DENY').type(file.type);
      return file.body;
    };
  app.get('/dashboard', { schema: { hide: true } }, serve('index.html'));
  app.get('/dashboard/', { schema: { hide: true } }, serve('index.html'));
  app.get('/dashboard/app.js', { schema: { hide: true } }, serve('app.js'));
  app.get('/dashboard/style.css', { schema: { hide: true } }, serve('style.css'));
};
