import { Type } from '@sinclair/typebox';
import type { CallbackHttp } from '../delivery/providers/module.js';
import { component, envelope, ref } from './components.js';
import { ApiError } from './errors.js';
import { jsonBodyProblem } from './json-body.js';
import { openToAnyone } from './openapi.js';
import { answer, errorResponses } from './schemas.js';

const CallbackReceipt = envelope(
  'CallbackReceiptResponse',
  ref(component('CallbackReceipt', Type.Object({ received: Type.Boolean({ const: true }) }))),
);

const CALLBACK_ERRORS = errorResponses({
  400: 'INVALID_JSON or VALIDATION_ERROR',
  401: "UNAUTHORIZED: the provider's signature (or token) does not match",
  404: "NOT_FOUND: this provider's callbacks are not enabled on this deployment",
  503: "UNAVAILABLE: what the callback asks of the provider's API failed for now; the provider delivers it again",
});

/** The documentation, answers and refusals of every provider's delivery-status callback routes. */
export const callbackHttp: CallbackHttp = {
  doc: ({ operationId, summary, checks, text }) => ({
    schema: {
      tags: ['callbacks'],
      operationId,
      summary,
      ...openToAnyone(`The provider calls it; ${checks}`),
      response: {
        200: text
          ? { description: text, content: { 'text/plain': { schema: { type: 'string' } } } }
          : answer(
              CallbackReceipt,
              'Recorded; a status for a message the service does not know is acknowledged too.',
            ),
        ...CALLBACK_ERRORS,
      },
    },
  }),
  received: (reply) => reply.code(200).send({ data: { received: true } }),
  parseJson(body) {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new ApiError('INVALID_JSON', 'The body is not valid JSON.');
    }
    // Read before the signature is checked (some providers sign the parsed values), so held here.
    const problem = jsonBodyProblem(body, value);
    if (problem) throw problem;
    return value;
  },
  notConfigured: (what) =>
    new ApiError('NOT_FOUND', `Delivery callbacks of ${what} are not enabled on this deployment.`),
  badSignature: (header) =>
    new ApiError('UNAUTHORIZED', `The ${header} signature does not match this request.`),
  unauthorized: (message) => new ApiError('UNAUTHORIZED', message),
  invalid: (message) => new ApiError('VALIDATION_ERROR', message),
  retryLater: (message) => new ApiError('UNAVAILABLE', message, undefined, 5),
};
