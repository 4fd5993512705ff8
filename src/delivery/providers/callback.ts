import { timingSafeEqual } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { component, envelope, ref } from '../../http/components.js';
import { ApiError } from '../../http/errors.js';
import { nestsDeeperThan, tooDeep } from '../../http/json-depth.js';
import { answer, errorResponses } from '../../http/schemas.js';

/** A final delivery state a provider reported for one message it accepted earlier. */
export interface StatusUpdate {
  /** The provider name the message was recorded under (see DeliveryResult.provider). */
  provider: string;
  providerMessageId: string;
  status: 'delivered' | 'failed';
  /** Why it failed, for the record; provider codes only, never the message text. */
  error: string | null;
}

const CallbackReceipt = envelope(
  'CallbackReceiptResponse',
  ref(component('CallbackReceipt', Type.Object({ received: Type.Boolean({ const: true }) }))),
);

const CALLBACK_ERRORS = errorResponses({
  400: 'INVALID_JSON or VALIDATION_ERROR',
  401: "UNAUTHORIZED: the provider's signature (or token) does not match",
  404: "NOT_FOUND: this provider's callbacks are not enabled on this deployment",
});

/** What the callback routes of every provider share: raw bodies, headers, and their refusals. */
export const callbackKit = {
  done: (reply: FastifyReply) => reply.code(200).send({ data: { received: true } }),
  rawBody: (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : ''),
  header(request: FastifyRequest, name: string): string | undefined {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  },
  isJson: (request: FastifyRequest) => (request.headers['content-type'] ?? '').includes('json'),
  parseJson(body: string): unknown {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      throw new ApiError('INVALID_JSON', 'The body is not valid JSON.');
    }
    // Read before the signature is checked (Vonage signs the parsed values), so bounded here.
    if (nestsDeeperThan(value)) throw tooDeep();
    return value;
  },
  formValues: (body: string) => Object.fromEntries(new URLSearchParams(body).entries()),
  stringValues(json: unknown): Record<string, string> {
    if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
    return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
  },
  sameSecret(given: string, expected: string): boolean {
    const a = Buffer.from(given);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b);
  },
  notConfigured: (what: string) =>
    new ApiError('NOT_FOUND', `Delivery callbacks of ${what} are not enabled on this deployment.`),
  badSignature: (header: string) =>
    new ApiError('UNAUTHORIZED', `The ${header} signature does not match this request.`),
  /** The route's OpenAPI entry; `text`: it answers a plain-text echo instead of a receipt. */
  doc: (operationId: string, summary: string, text?: string) => ({
    schema: {
      tags: ['callbacks'],
      operationId,
      summary,
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
};
