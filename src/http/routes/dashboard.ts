import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { AdminGate } from '../auth.js';
import { sessionRoutes } from '../dashboard/session-routes.js';
import { staticFiles } from '../dashboard/static-files.js';
import { PAGE_HEADERS } from '../hardening.js';

/** Where `npm run build` puts the front end: src/http/routes and dist/http/routes sit at the same depth. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

export interface DashboardOptions {
  gate: AdminGate;
  /** The built front end (DASHBOARD_DIR; tests give a fixture directory). */
  dir: string;
  /** The deployment is reached over TLS: the session cookie is Secure even on plain HTTP hops. */
  secureCookies: boolean;
}

/** The operator dashboard under /dashboard: its sign-in API and the built front end. */
export const dashboardRoutes = (options: DashboardOptions) => async (app: FastifyInstance) => {
  await app.register(
    async (dashboard) => {
      // Every answer under /dashboard, errors included, carries the page's policy.
      dashboard.addHook('onRequest', (_request, reply, done) => {
        reply.headers(PAGE_HEADERS);
        done();
      });
      // Cookies only here (the admin hook parses its one cookie itself): the API's hot path
      // pays nothing for them.
      await dashboard.register(fastifyCookie, { hook: 'onRequest' });
      await dashboard.register(sessionRoutes({ gate: options.gate, secureCookies: options.secureCookies }));
      await dashboard.register(staticFiles(options.dir));
    },
    { prefix: '/dashboard' },
  );
};
