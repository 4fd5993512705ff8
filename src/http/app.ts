import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
  type onResponseHookHandler,
} from 'fastify';
import { isMailAddress } from '../domain/mailbox.js';
import { LimitStoreUnavailable } from '../domain/ports/rate-limits.js';
import { isStorageFull, StoreUnavailable } from '../domain/ports/storage-errors.js';
import { components } from './components.js';
import { refuseControlCharacters } from './control-characters.js';
import type { AppDeps } from './deps.js';
import { ApiError, DomainError, fromDomainError, renderError } from './errors.js';
import {
  addSecurityHeaders,
  hardenedServerOptions,
  jsonParserNamingPoisonedKeys,
  securityHeaders,
} from './hardening.js';
import { keyCacheOf } from './key-cache.js';
import { notFoundPage, pageLocale } from './link-pages.js';
import { docsPageOptions, openApiOptions } from './openapi.js';
import { adminRoutes } from './routes/admin.js';
import { analyticsRoutes } from './routes/analytics.js';
import { publicLogoRoute } from './routes/branding.js';
import { DASHBOARD_DIR, dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { LINKS_PREFIX, linkRoutes } from './routes/links.js';
import { sendCodeRoute } from './routes/send-code.js';
import { verificationRoutes } from './routes/verifications.js';
import { verifyCodeRoute } from './routes/verify-code.js';
import { sharedSerializerCompiler } from './serializers.js';
import { drainOnShutdown } from './shutdown.js';
import { schemaErrorFormatter } from './validation.js';

/** 16 KiB: a send-code body is a few hundred bytes; anything larger is refused with 413. */
export const BODY_LIMIT = 16 * 1024;

export type { AppDeps } from './deps.js';

/** Builds the Fastify application; it does not listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const headers = securityHeaders(deps.hstsMaxAgeSeconds ?? null);
  const app = Fastify({
    ...hardenedServerOptions(deps.timeouts, headers),
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One line per request costs a quarter of the throughput; the domain logs what matters.
    logController: new LogController({ disableRequestLogging: true }),
    // No child logger per request: with request logging off its only binding (reqId) would
    // appear on nothing but error lines, and building it is a measurable share of a request.
    childLoggerFactory: (logger) => logger,
    bodyLimit: BODY_LIMIT,
    trustProxy: deps.trustProxy ?? false,
    // Refused in the contract's shape by drainOnShutdown instead.
    return503OnClosing: false,
    // Every schema refusal is the contract's VALIDATION_ERROR, one detail per problem.
    schemaErrorFormatter,
    ajv: {
      customOptions: {
        allErrors: true,
        coerceTypes: false,
        removeAdditional: false,
        useDefaults: false,
        // Addresses with an internationalised domain; ajv-formats knows only ASCII `email`.
        formats: { 'idn-email': isMailAddress },
      },
    },
  });

  // JSON only: Fastify's default text/plain parser would let other bodies reach validation.
  app.removeContentTypeParser('text/plain');
  jsonParserNamingPoisonedKeys(app, BODY_LIMIT);
  // Every named schema, before any route refers to one (plugins' routes included).
  for (const schema of components()) app.addSchema(schema);
  app.setSerializerCompiler(sharedSerializerCompiler());
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const apiError = toApiError(err, request.routeOptions.bodyLimit);
    if (apiError.code === 'INTERNAL' || apiError.code === 'UNAVAILABLE') {
      request.log.error(
        { err: { type: err.name, message: err.message, stack: err.stack }, url: request.routeOptions.url },
        'request failed',
      );
    }
    if (apiError.retryAfterSeconds !== undefined)
      reply.header('retry-after', String(apiError.retryAfterSeconds));
    reply.code(apiError.status).type('application/json').send(renderError(apiError));
  });
  app.setNotFoundHandler((request, reply) => {
    // A magic link's URL that matches no route (no token, a path under it): the link's 404 page.
    if (request.url.startsWith(LINKS_PREFIX)) {
      const page = notFoundPage(pageLocale(request.headers['accept-language']));
      return reply.code(page.status).headers(page.headers).send(page.html);
    }
    reply
      .code(404)
      .send(
        renderError(new ApiError('NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}.`)),
      );
  });
  addSecurityHeaders(app, headers);
  drainOnShutdown(app);
  refuseControlCharacters(app);
  app.addHook('onRequest', (request, _reply, done) => {
    // A DELETE has no body: a JSON content type with nothing after it must not fail as bad JSON.
    if (request.method === 'DELETE' && !hasBody(request)) delete request.headers['content-type'];
    done();
  });
  const observeRoute = deps.observeRoute;
  if (observeRoute) {
    // Added to each route as it is registered (plugins included, since this hook is inherited):
    // a hook of the route's own knows its pattern without building request.routeOptions.
    app.addHook('onRoute', (route) => {
      const observe = observeRoute(route.url);
      const hook: onResponseHookHandler = (request, reply, done) => {
        observe(request, reply);
        done();
      };
      route.onResponse = route.onResponse ? [route.onResponse, hook].flat() : hook;
    });
    const unmatched = observeRoute('unmatched');
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) unmatched(request, reply);
      done();
    });
  }

  await app.register(swagger, openApiOptions(deps.version, deps.renderOptions?.publicBaseUrl));
  await app.register(swaggerUi, docsPageOptions(deps.renderOptions?.publicBaseUrl));
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());

  await app.register(healthRoutes(deps));
  await app.register(sendCodeRoute(deps));
  await app.register(verifyCodeRoute(deps));
  await app.register(verificationRoutes(deps));
  await app.register(linkRoutes(deps));
  await app.register(
    async (admin) => {
      // A change to keys or accounts takes effect at once in this process's key cache.
      admin.addHook('onSend', (request, _reply, payload, done) => {
        if (request.method !== 'GET') keyCacheOf(deps.keys).clear();
        done(null, payload);
      });
      await admin.register(adminRoutes(deps));
      await admin.register(analyticsRoutes(deps));
    },
    { prefix: '/v1/admin' },
  );
  await app.register(publicLogoRoute(deps));
  await app.register(
    dashboardRoutes({
      gate: deps.adminGate,
      dir: deps.dashboardDir ?? DASHBOARD_DIR,
      // HSTS is on exactly when the deployment says clients reach it over TLS.
      secureCookies: deps.hstsMaxAgeSeconds !== null && deps.hstsMaxAgeSeconds !== undefined,
    }),
  );
  for (const plugin of deps.plugins ?? []) await app.register(async (instance) => plugin(instance));
  return app;
}

const hasBody = (request: FastifyRequest) =>
  request.headers['transfer-encoding'] !== undefined ||
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0');

/** Maps anything thrown in a request to the contract's errors; unknown failures become INTERNAL. */
const unavailable = () =>
  new ApiError(
    'UNAVAILABLE',
    'A service the request depends on is unavailable; retry shortly.',
    undefined,
    1,
  );

/** `bodyLimit`: the route's own bound, when it has one (the logo upload's is not the app's). */
function toApiError(err: FastifyError, bodyLimit = BODY_LIMIT): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof DomainError) return fromDomainError(err);
  if (err instanceof StoreUnavailable || err instanceof LimitStoreUnavailable || isStorageFull(err))
    return unavailable();
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body as JSON with "Content-Type: application/json".',
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('PAYLOAD_TOO_LARGE', `The body must be at most ${bodyLimit} bytes.`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('INVALID_JSON', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('INVALID_JSON', 'The body is not valid JSON.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('VALIDATION_ERROR', 'The Content-Length header does not match the body.');
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON|proto/i.test(err.message))) {
    return new ApiError('INVALID_JSON', 'The body is not valid JSON.');
  }
  if (err.statusCode === 503) return unavailable();
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new ApiError('VALIDATION_ERROR', err.message);
  }
  return new ApiError('INTERNAL', 'An unexpected error occurred; the call may be retried.');
}
