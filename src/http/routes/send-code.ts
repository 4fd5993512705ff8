import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { validateSendRequest } from '../../domain/send-request.js';
import { apiKeyAuth } from '../auth.js';
import { ref } from '../components.js';
import type { AppDeps } from '../deps.js';
import { ApiError, validationError } from '../errors.js';
import { idempotency } from '../idempotency.js';
import { answer, errorResponses, SendCodeBody, SendCodeHeaders, SendCodeResponse } from '../schemas.js';
import { readValidated } from '../validation.js';

/** POST /v1/contact/send-code: thin; the rules live in the domain. */
export const sendCodeRoute = (deps: AppDeps) => async (app: FastifyInstance) => {
  const idempotent = idempotency(deps.idempotency, deps.clock, (deps.idempotencyLeaseSeconds ?? 60) * 1000);
  app.post<{ Body: Static<typeof SendCodeBody> }>(
    '/v1/contact/send-code',
    {
      onRequest: apiKeyAuth(deps.keys, deps.keyUses),
      attachValidation: true,
      preHandler: idempotent.checkHeader,
      onSend: idempotent.onSend,
      schema: {
        tags: ['verification'],
        operationId: 'sendCode',
        summary: 'Send a one-time code by one channel, or by two at once',
        security: [{ apiKey: [] }],
        headers: SendCodeHeaders,
        body: ref(SendCodeBody),
        response: {
          200: answer(
            SendCodeResponse,
            'Sent: `data` is an entry for one channel, an array of two in the order of `channels` for two. A replay of an Idempotency-Key carries `Idempotent-Replayed: true`.',
          ),
          ...errorResponses({
            400: 'VALIDATION_ERROR, INVALID_JSON, INVALID_DESTINATION or UNSUPPORTED_NUMBER (a premium-rate or shared-cost number; or a line type the account refuses after a carrier lookup: `details[].field` is `lineType`, docs/lookup.md)',
            401: 'UNAUTHORIZED: missing, malformed, unknown or revoked key',
            403: "CHANNEL_NOT_ENABLED: the key may not use a requested channel; CONTACT_BLOCKED: an operator blocked the destination; RISK_TOO_HIGH: the send's risk reached the account's riskThreshold (details name the signals), or a carrier lookup found a SIM change within the account's simSwapHours under simSwapAction refuse (details[].field `sim_swap`), or the lookup failed under lookupFailClosed (`lookup_unavailable`)",
            413: 'PAYLOAD_TOO_LARGE: body over 16 KiB',
            409: 'IDEMPOTENCY_KEY_IN_USE: a request with this Idempotency-Key is still running (Retry-After: 1)',
            415: 'UNSUPPORTED_MEDIA_TYPE: body is not application/json',
            422: 'IDEMPOTENCY_KEY_REUSED: this Idempotency-Key was used with another body',
            429: 'RATE_LIMITED, with Retry-After; details name the limited channel',
            500: 'INTERNAL',
            502: 'DELIVERY_FAILED: no channel could be delivered',
            503: 'UNAVAILABLE: the database or rate-limit store is unreachable; or CHANNEL_UNAVAILABLE: no requested channel can be delivered (nothing was sent or charged): no provider and LIVE_OUTBOX=refuse (a live key)',
          }),
        },
      },
    },
    async (request, reply) => {
      const schema = readValidated<Static<typeof SendCodeBody>>(request);
      const result = validateSendRequest(schema.body, schema.refused);
      const details = result.ok ? schema.details : [...schema.details, ...result.details];
      if (details.length > 0) throw validationError(details);
      if (!result.ok) {
        // The only failure left without details is a number that cannot receive codes.
        const unsupported = result.unsupportedNumber ?? {
          field: 'phone',
          message: 'phone cannot receive codes',
        };
        throw new ApiError('UNSUPPORTED_NUMBER', `The ${unsupported.message}.`, [unsupported]);
      }
      if (await idempotent.claim(request, reply)) return reply;
      const entries = await deps.service.send(request.apiKey, result.request, () =>
        idempotent.started(request),
      );
      return { data: result.request.dual ? entries : entries[0] };
    },
  );
};
