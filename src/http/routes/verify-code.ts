import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { verifyCodeProblems } from '../../domain/verify-request.js';
import { apiKeyAuth } from '../auth.js';
import { ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { answer, errorResponses, VerifyCodeBody, VerifyCodeResponse } from '../schemas.js';
import { validatedBody } from '../validation.js';

/** POST /v1/contact/verify-code. */
export const verifyCodeRoute = (deps: AppDeps) => async (app: FastifyInstance) => {
  app.post<{ Body: Static<typeof VerifyCodeBody> }>(
    '/v1/contact/verify-code',
    {
      onRequest: apiKeyAuth(deps.keys, deps.keyUses),
      attachValidation: true,
      schema: {
        tags: ['verification'],
        operationId: 'verifyCode',
        summary: 'Check a code against a requestId (either id of a dual pair accepts either code)',
        description:
          'A wrong code answers 200 with `verified: false` and `status: "pending"` (or `"failed"` on the last attempt). ' +
          'Expired, canceled or already verified requests answer `verified: false` with that status and count no attempt. ' +
          'A right code answers with the request it verified: in a dual pair, the one whose code matched (`requestId`, `channel`), the other being `canceled`. ' +
          'A SILENT request is verified by its provider: send its requestId alone, or with the `code` the device received from `silent.url` when its provider hands one out (docs/silent.md); `silent.outcome` says what the provider concluded, and a failed check counts as a wrong attempt. DELIVERY_FAILED (502): the silent provider could not be asked and the request has no fallback.',
        security: [{ apiKey: [] }],
        body: ref(VerifyCodeBody),
        response: {
          200: answer(
            VerifyCodeResponse,
            'Checked: `verified` says whether this call consumed the code; a wrong code is not an error.',
          ),
          ...errorResponses({
            400: 'VALIDATION_ERROR or INVALID_JSON',
            401: 'UNAUTHORIZED',
            404: "NOT_FOUND: unknown requestId, another account's, or one on a channel the key is not enabled for",
            413: 'PAYLOAD_TOO_LARGE',
            415: 'UNSUPPORTED_MEDIA_TYPE',
            429: 'TOO_MANY_ATTEMPTS (attempts used up) or RATE_LIMITED (per-key rate), with Retry-After',
            500: 'INTERNAL',
            502: 'DELIVERY_FAILED: the silent provider of a SILENT request could not be asked (and it has no fallback); retry',
            503: 'UNAVAILABLE',
          }),
        },
      },
    },
    async (request) => {
      const body = validatedBody<Static<typeof VerifyCodeBody>>(request, verifyCodeProblems);
      // Past this point the schema accepted requestId and at most one code; none is for SILENT.
      const requestId = body.requestId.toLowerCase();
      const data = await deps.service.verify(request.apiKey, requestId, body.otpCode ?? body.code ?? null);
      return { data };
    },
  );
};
