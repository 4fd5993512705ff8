import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LINK_TOKEN_LENGTH } from '../../domain/links.js';
import type { AppDeps } from '../deps.js';
import { methodNotAllowedPage, pageLocale, type RenderedPage, renderLinkPage } from '../link-pages.js';
import { openToAnyone } from '../openapi.js';

/** The largest body a link's POST reads (and ignores): the confirmation page's form sends none. */
const BODY_LIMIT_BYTES = 16 * 1024;

/** Where a magic link points: `<PUBLIC_BASE_URL>/v1/links/<token>`. */
export const LINKS_PREFIX = '/v1/links/';

const send = (reply: FastifyReply, page: RenderedPage) =>
  reply.code(page.status).headers(page.headers).send(page.html);

const tokenParam = {
  type: 'object',
  properties: {
    token: {
      type: 'string',
      description: `The link's token: ${LINK_TOKEN_LENGTH} characters of base64url. Anything else answers the 404 page.`,
    },
  },
  required: ['token'],
} as const;

const htmlAnswer = (description: string) => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/**
 * GET and POST /v1/links/{token}: a magic link's confirmation page, and its use (docs/links.md).
 * Routes are thin: one domain call each, then the page. A POST's body, of any type, is read and
 * ignored (the page's form sends an empty one; a scanner may send anything).
 */
export const linkRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (_request, _body, done) =>
    done(null, undefined),
  );
  const publicBaseUrl = deps.renderOptions?.publicBaseUrl ?? null;
  const token = (request: FastifyRequest) => (request.params as { token: string }).token;
  const locale = (request: FastifyRequest) => pageLocale(request.headers['accept-language']);

  app.get(
    `${LINKS_PREFIX}:token`,
    {
      schema: {
        tags: ['links'],
        operationId: 'openLink',
        summary: "A magic link's confirmation page (changes nothing)",
        ...openToAnyone(
          "The link's token is the credential (only its keyed hash is stored; a token of the wrong shape is not looked up). The page the email's link opens: the account's branding, the masked address and one button, a form that POSTs to the same URL. Opening it consumes nothing, so a mail scanner that follows links (Microsoft Safe Links, Proofpoint, Gmail's prefetch) cannot use it up. Answered with `Cache-Control: no-store`, `Referrer-Policy: no-referrer`, `X-Robots-Tag: noindex` and a Content-Security-Policy that allows no script.",
        ),
        params: tokenParam,
        response: {
          200: htmlAnswer('The confirmation page: the masked address and a Confirm button.'),
          404: htmlAnswer(
            "No request has this link (unknown, malformed or over-long token, or another deployment's).",
          ),
          410: htmlAnswer(
            'The link expired, was used (or its code was), or its request was canceled; the page names no address.',
          ),
        },
      },
    },
    async (request, reply) => {
      const outcome = await deps.service.openLink(token(request));
      return send(reply, renderLinkPage(outcome, locale(request), publicBaseUrl));
    },
  );

  app.post(
    `${LINKS_PREFIX}:token`,
    {
      schema: {
        tags: ['links'],
        operationId: 'useLink',
        summary: 'Use a magic link: verifies its request',
        ...openToAnyone(
          `The link's token is the credential, POSTed by the confirmation page's button. Consumes the request atomically (no attempt counted; of parallel POSTs exactly one verifies), and its dual sibling and code with it: verify-code then answers \`verified: false\`, \`status: "verified"\`. Any body and content type is accepted and ignored. The resource and the \`verification.verified\` webhook event then carry \`method: "link"\`.`,
        ),
        params: tokenParam,
        response: {
          200: htmlAnswer('Verified, and the send gave no `link.redirectUrl`: the "verified" page.'),
          303: {
            ...htmlAnswer(
              "Verified: `Location` is the send's `link.redirectUrl` with `requestId` and `status=verified` added to its query (the body, a short page, is what a browser shows if it does not follow).",
            ),
            headers: { Location: { type: 'string', format: 'uri', description: 'Where the browser goes.' } },
          },
          404: htmlAnswer('No request has this link.'),
          410: htmlAnswer('Already used (by the link or its code), expired or canceled: nothing changed.'),
        },
      },
    },
    async (request, reply) => {
      const outcome = await deps.service.useLink(token(request));
      if (outcome.kind === 'verified' && outcome.redirect !== null) {
        const page = renderLinkPage(outcome, locale(request), publicBaseUrl);
        return reply
          .code(303)
          .headers({ ...page.headers, location: outcome.redirect })
          .send(page.html);
      }
      return send(reply, renderLinkPage(outcome, locale(request), publicBaseUrl));
    },
  );

  // OPTIONS on a link: 405 with the methods it takes (HEAD is answered as a GET without its body,
  // by Fastify's HEAD route; other methods find no route: 404).
  app.route({
    method: 'OPTIONS',
    url: `${LINKS_PREFIX}:token`,
    schema: { hide: true },
    handler: (request, reply) => send(reply, methodNotAllowedPage(locale(request))),
  });
};
