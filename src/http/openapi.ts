import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { CHANNELS, listed } from '../domain/channels/registry.js';
import { ERROR_STATUS } from './errors.js';
import { docsCsp } from './hardening.js';
import { SEND_CODE_EXAMPLES, VERIFY_CODE_EXAMPLES } from './schemas.js';
import { openApiWebhooks } from './webhooks-openapi.js';

/**
 * An operation anyone may call: `security: []` (every operation declares its security; Redocly's
 * `security-defined` rule, `npm run lint:openapi`), and a description that says what it checks
 * instead of credentials (a provider's signature, a token in the body) or that it needs none.
 */
export function openToAnyone(checks: string): { security: []; description: string } {
  return { security: [], description: `Open to anyone: no credentials. ${checks}` };
}

/** Who may call an admin route: the admin token, or the dashboard's session cookie. */
export const ADMIN_SECURITY: Array<Record<string, string[]>> = [{ adminToken: [] }, { dashboardSession: [] }];

/** The 403 every admin route can answer (documented once). */
export const SESSION_FORBIDDEN =
  'FORBIDDEN: a change made with the dashboard session cookie lacks its X-CSRF-Token or comes from another site';

const errorTable = Object.entries(ERROR_STATUS)
  .map(([code, status]) => `| ${status} | \`${code}\` |`)
  .join('\n');

/**
 * Where clients reach the service: PUBLIC_BASE_URL when the deployment names it, else `/`, which
 * OpenAPI reads relative to where the document was fetched (this service's own origin).
 */
export function openApiServers(
  publicBaseUrl: string | null | undefined,
): Array<{ url: string; description: string }> {
  return publicBaseUrl
    ? [{ url: publicBaseUrl, description: 'This deployment (PUBLIC_BASE_URL).' }]
    : [
        {
          url: '/',
          description:
            'The origin this document was fetched from, e.g. http://127.0.0.1:8080 (a deployment that sets PUBLIC_BASE_URL names it here).',
        },
      ];
}

/** The OpenAPI 3.1 document's frame; the paths and named schemas come from the route schemas. */
export function openApiOptions(version: string, publicBaseUrl?: string | null): SwaggerOptions {
  return {
    // The paths are documented as routed: a PUBLIC_BASE_URL with a path prefix (a proxy's) must
    // not be cut from them.
    stripBasePath: false,
    // A named schema keeps its name (`$id`) under components.schemas instead of `def-<n>`.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      openapi: '3.1.0',
      servers: openApiServers(publicBaseUrl),
      info: {
        title: 'Contact Verification Service',
        version,
        // package.json's license.
        license: { name: 'MIT', identifier: 'MIT' },
        description: `One-time codes by ${listed(CHANNELS)}: send, verify, and operate.

Every error body is \`{"error": {"code", "message", "details"?}}\`. Codes and statuses:

| Status | Code |
|---|---|
${errorTable}

Request bodies are JSON (\`application/json\`, at most 16 KiB), held to I-JSON (RFC 7493): a body that is not JSON is \`400 INVALID_JSON\`; a JSON body that names a member twice in one object (\`{"channel":"SMS","channel":"EMAIL"}\`), holds a lone surrogate in a string or a name (\`"\\ud800"\` without its pair), nests deeper than 32 levels, or has a \`__proto__\` or \`constructor\` key is \`400 VALIDATION_ERROR\` with one \`details\` entry naming each such field (\`branding.brandName\`, \`allowedCountries[1]\`).

Rate limits answer \`429 RATE_LIMITED\` with \`Retry-After\` (seconds); \`429 TOO_MANY_ATTEMPTS\` has none, since that request never succeeds again (send a new code). send-code takes an optional \`Idempotency-Key\`
header: a retry with the same key and body within 24 h answers the first answer again (\`Idempotent-Replayed: true\`). Every response carries \`Cache-Control: no-store\`, except the public logo image (\`GET /v1/branding/{accountId}/logo\`).
Verification requests move \`pending\` → \`verified\` | \`expired\` | \`failed\` (attempts used up) | \`canceled\`
(superseded by a newer send to the same destination and channel, canceled through the API, or its dual sibling was verified: of a verified dual pair, the request whose code matched is \`verified\` and the other \`canceled\`). \`GET /v1/contact/verifications/{requestId}\` reads one (docs/verifications.md).`,
      },
      // OpenAPI 3.1's outbound requests: the events POSTed to registered webhook endpoints.
      ...({ webhooks: openApiWebhooks() } as object),
      components: {
        securitySchemes: {
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key (`cvk_live_…` or `cvk_test_…`).',
          },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment.' },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'cv_session',
            description:
              "The session cookie set by `POST /dashboard/api/session`. Every request other than GET/HEAD made with it must carry `X-CSRF-Token` (from the sign-in answer) and, when the browser sends an `Origin`, this service's own; otherwise 403 `FORBIDDEN`.",
          },
        },
      },
      tags: [
        { name: 'verification', description: 'Send and verify codes.' },
        {
          name: 'admin',
          description:
            'Accounts (settings, branding, logo, message preview), API keys and the outbox (ADMIN_TOKEN).',
        },
        {
          name: 'links',
          description:
            "Magic links (send-code's `link`): HTML pages the email's recipient opens in a browser, public (the token is the credential); see docs/links.md.",
        },
        { name: 'branding', description: "An account's uploaded logo, public: emails link to it." },
        { name: 'operations', description: 'Health and metrics.' },
        {
          name: 'dashboard',
          description: 'Sign-in of the operator dashboard at /dashboard (see docs/dashboard.md).',
        },
        {
          name: 'analytics',
          description:
            'Analytics, contact profiles (block, unblock) and SMS-pumping breakers (ADMIN_TOKEN); see docs/analytics.md.',
        },
        {
          name: 'webhooks',
          description: 'Webhook endpoints and their deliveries (ADMIN_TOKEN); see `webhooks` for the events.',
        },
      ],
    },
    transformObject: (documents) =>
      referencesWithAnnotations(
        optionalNoFieldsBodies(nameExamples((documents as { openapiObject: OpenApiDocument }).openapiObject)),
      ),
  };
}

/**
 * `{allOf: [{$ref}], description}`, which `ref()` writes so that a field keeps its own description
 * through @fastify/swagger, becomes `{$ref, description}` (OpenAPI 3.1 allows annotations beside a
 * reference): generated clients then see the named type itself.
 */
export function referencesWithAnnotations<T>(node: T): T {
  if (Array.isArray(node)) return node.map(referencesWithAnnotations) as T;
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([k, v]) => [
    k,
    referencesWithAnnotations(v),
  ]);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  const { allOf, ...rest } = object;
  const only = Array.isArray(allOf) && allOf.length === 1 ? (allOf[0] as Record<string, unknown>) : null;
  const annotationsOnly = Object.keys(rest).every((k) => ANNOTATIONS.has(k));
  if (only && Object.keys(only).length === 1 && typeof only.$ref === 'string' && annotationsOnly)
    return { $ref: only.$ref, ...rest } as T;
  return object as T;
}

const ANNOTATIONS = new Set(['description', 'default', 'examples', 'title', 'deprecated']);

type OpenApiDocument = {
  paths?: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          required?: boolean;
          content?: Record<string, { examples?: unknown; schema?: unknown }>;
        };
      }
    >
  >;
};

/**
 * @fastify/swagger marks every body it documents as required; a `NoFields` body is not (its
 * route reads a missing one as `{}`, schemas.ts).
 */
function optionalNoFieldsBodies(doc: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema as
        | { $ref?: string }
        | undefined;
      if (operation.requestBody && schema?.$ref === '#/components/schemas/NoFields')
        operation.requestBody.required = false;
    }
  }
  return doc;
}

const NAMED_EXAMPLES: Record<string, ReadonlyArray<{ name: string; summary: string; value: unknown }>> = {
  '/v1/contact/send-code': SEND_CODE_EXAMPLES,
  '/v1/contact/verify-code': VERIFY_CODE_EXAMPLES,
};

/**
 * Gives the request examples of send-code and verify-code their names and summaries (the
 * generator numbers them), so the reference page offers "One channel: SMS" rather than "example2".
 */
function nameExamples(doc: OpenApiDocument): OpenApiDocument {
  for (const [path, examples] of Object.entries(NAMED_EXAMPLES)) {
    const media = doc.paths?.[path]?.post?.requestBody?.content?.['application/json'];
    if (media) {
      media.examples = Object.fromEntries(
        examples.map((e) => [e.name, { summary: e.summary, value: e.value }]),
      );
    }
  }
  return doc;
}

/**
 * Starts swagger-ui on the one document, `/openapi.json` (found from the page's own path, so a
 * proxy's prefix is kept), without the top bar: its logo is an inline style the page's policy
 * refuses. It replaces the initializer of @fastify/swagger-ui, which always reads `/docs/json`:
 * theme scripts run after it, before the page's load event.
 */
const REFERENCE_PAGE_SCRIPT = `window.onload = function () {
  var documentUrl = new URL(location.pathname.replace(/\\/docs(\\/.*)?$/, '/openapi.json'), location.href).href;
  window.ui = SwaggerUIBundle({
    url: documentUrl,
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    validatorUrl: null,
  });
};
`;

/** The reference page at /docs: swagger-ui reading /openapi.json under a strict policy. */
export function docsPageOptions(publicBaseUrl?: string | null): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    staticCSP: docsCsp(publicBaseUrl),
    theme: {
      title: 'Contact Verification Service: API reference',
      js: [{ filename: 'reference.js', content: REFERENCE_PAGE_SCRIPT }],
    },
    uiHooks: {
      // @fastify/swagger-ui serves the document at /docs/json too: one address for it (relative,
      // so a proxy's prefix stays).
      onRequest: (request, reply, done) => {
        if (/^\/docs\/json(\?|$)/.test(request.url)) return void reply.redirect('../openapi.json', 308);
        reply.headers({ 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' });
        done();
      },
    },
  };
}
