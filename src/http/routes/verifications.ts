import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { apiKeyAuth } from '../auth.js';
import { ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { answer, errorResponses, NoFields, noFieldsBody } from '../schemas.js';
import { RequestIdParams, VerificationResponse } from '../verification-schemas.js';

const SCOPE =
  "NOT_FOUND: unknown requestId, another account's, one of the key's other mode (test/live), or one on a channel the key is not enabled for";

const errors = (more: Record<number, string> = {}) =>
  errorResponses({
    400: 'VALIDATION_ERROR (the requestId is not a UUID; a cancel with a body that has fields) or INVALID_JSON',
    401: 'UNAUTHORIZED',
    404: SCOPE,
    ...more,
    429: "RATE_LIMITED: reads and cancels count toward the key's verify-code rate, with Retry-After",
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  });

/** GET /v1/contact/verifications/{requestId} and POST …/cancel: a verification as a resource. */
export const verificationRoutes = (deps: AppDeps) => async (app: FastifyInstance) => {
  // Ids are lower case; an id typed in upper case names the same request on every store.
  app.addHook('preValidation', (request, _reply, done) => {
    const params = request.params as { requestId?: unknown } | undefined;
    if (typeof params?.requestId === 'string') params.requestId = params.requestId.toLowerCase();
    done();
  });
  const auth = apiKeyAuth(deps.keys, deps.keyUses);

  app.get<{ Params: Static<typeof RequestIdParams> }>(
    '/v1/contact/verifications/:requestId',
    {
      onRequest: auth,
      schema: {
        tags: ['verification'],
        operationId: 'getVerification',
        summary: 'Read a verification request: its status, how it was verified, its delivery',
        description:
          'Scoped as verify-code: a request of another account, of the other mode or of a channel the key is not enabled for is 404, exactly as an unknown one. A read changes nothing. Of a verified dual pair, the request whose code matched is `verified` (with `verifiedAt` and `method`) and the other `canceled`; each names the other in `siblingRequestId`.',
        security: [{ apiKey: [] }],
        params: RequestIdParams,
        response: { 200: answer(VerificationResponse, 'The request as it is now.'), ...errors() },
      },
    },
    async (request) => ({ data: await deps.service.get(request.apiKey, request.params.requestId) }),
  );

  app.post<{ Params: Static<typeof RequestIdParams> }>(
    '/v1/contact/verifications/:requestId/cancel',
    {
      onRequest: auth,
      schema: {
        tags: ['verification'],
        operationId: 'cancelVerification',
        summary: 'Cancel a pending verification request and its dual sibling',
        description:
          'A pending request and its dual sibling become `canceled` together (a `verification.canceled` event each): their codes no longer verify. A request that already settled (verified, expired, failed, canceled) is left as it is. Either way the answer is the resource as it is now, so a retried cancel is safe. Scoped as a read.',
        security: [{ apiKey: [] }],
        params: RequestIdParams,
        body: ref(NoFields),
        response: {
          200: answer(VerificationResponse, 'The request after the cancel (or as it was, when settled).'),
          ...errors({ 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' }),
        },
      },
      ...noFieldsBody,
    },
    async (request) => ({ data: await deps.service.cancel(request.apiKey, request.params.requestId) }),
  );
};
