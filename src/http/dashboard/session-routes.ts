import { type Static, Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  type AdminGate,
  adminAuthFailed,
  isAdminToken,
  refuseCrossSite,
  sameOrigin,
  sessionCookie,
} from '../auth.js';
import { component, envelope, ref } from '../components.js';
import { ApiError } from '../errors.js';
import { openToAnyone } from '../openapi.js';
import { answer, errorResponses } from '../schemas.js';
import { type DashboardSession, SESSION_COOKIE } from './sessions.js';

const LoginBody = component(
  'DashboardSignInRequest',
  Type.Object(
    {
      token: Type.String({ minLength: 1, maxLength: 512, description: 'The ADMIN_TOKEN of the deployment.' }),
    },
    { additionalProperties: false },
  ),
);

const Session = component(
  'DashboardSession',
  Type.Object({
    csrfToken: Type.String({
      description: 'Send it as `X-CSRF-Token` on every write made with the session.',
    }),
    expiresAt: Type.String({ format: 'date-time' }),
  }),
);
const SessionView = envelope('DashboardSessionResponse', ref(Session));

const view = (session: DashboardSession) => ({
  data: { csrfToken: session.csrfToken, expiresAt: new Date(session.expiresAt).toISOString() },
});

export interface SessionRouteOptions {
  gate: AdminGate;
  /** Secure cookies even over plain HTTP: the deployment says clients reach it over TLS. */
  secureCookies: boolean;
}

/**
 * Sign-in, sign-out and the current session of the operator dashboard, under /dashboard/api.
 * Signing in takes the admin token once; the browser then holds only an HttpOnly, SameSite=Strict
 * cookie that scripts cannot read, and the CSRF token the page keeps in memory.
 */
export const sessionRoutes = (options: SessionRouteOptions) => async (app: FastifyInstance) => {
  const { gate } = options;
  const sessions = gate.sessions;
  const doc = (operationId: string, summary: string, extra: Record<string, unknown>) => ({
    tags: ['dashboard'],
    operationId,
    summary,
    ...extra,
  });
  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    secure: options.secureCookies || request.protocol === 'https',
  });
  const current = async (request: FastifyRequest) => {
    const session = await sessions.find(sessionCookie(request));
    if (!session) throw new ApiError('UNAUTHORIZED', 'No dashboard session; sign in with the admin token.');
    return session;
  };

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/api/session',
    {
      schema: doc(
        'createDashboardSession',
        'Sign in to the dashboard with the admin token; sets the `cv_session` cookie',
        {
          ...openToAnyone(
            'It checks the admin token in the body instead (failures count towards the admin throttle), and refuses a request from another site.',
          ),
          body: ref(LoginBody),
          response: {
            200: answer(SessionView, 'Signed in: the `cv_session` cookie is set.'),
            ...errorResponses({
              400: 'VALIDATION_ERROR or INVALID_JSON',
              401: 'UNAUTHORIZED: wrong admin token',
              403: 'FORBIDDEN: the request came from another site',
              429: 'RATE_LIMITED: too many failed admin authentications',
            }),
          },
        },
      ),
    },
    async (request, reply: FastifyReply) => {
      await gate.throttle?.check(request.ip);
      if (!sameOrigin(request))
        throw new ApiError('FORBIDDEN', 'Sign in from the dashboard of this service.');
      if (!isAdminToken(gate, request.body.token)) {
        await adminAuthFailed(gate, request, true);
        throw new ApiError('UNAUTHORIZED', 'The admin token is not right.');
      }
      // A sign-in replaces the session the browser had, if any.
      const previous = await sessions.find(sessionCookie(request));
      if (previous) await sessions.close(previous);
      const session = await sessions.open();
      reply.setCookie(SESSION_COOKIE, session.id, {
        ...cookieOptions(request),
        maxAge: sessions.lifetimeSeconds,
      });
      return view(session);
    },
  );

  app.get(
    '/api/session',
    {
      schema: doc('getDashboardSession', 'The current dashboard session and its CSRF token', {
        security: [{ dashboardSession: [] }],
        response: {
          200: answer(SessionView, 'The session of the cookie.'),
          ...errorResponses({ 401: 'UNAUTHORIZED: no live session' }),
        },
      }),
    },
    async (request) => view(await current(request)),
  );

  app.delete(
    '/api/session',
    {
      schema: doc(
        'deleteDashboardSession',
        'Sign out: ends the session and clears the cookie (needs `X-CSRF-Token`)',
        {
          security: [{ dashboardSession: [] }],
          response: {
            204: Type.Null({ description: 'Signed out.' }),
            ...errorResponses({
              401: 'UNAUTHORIZED: no live session',
              403: 'FORBIDDEN: missing or wrong X-CSRF-Token, or another site',
            }),
          },
        },
      ),
    },
    async (request, reply) => {
      const session = await current(request);
      refuseCrossSite(request, sessions, session);
      await sessions.close(session);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
      reply.code(204);
    },
  );
};
