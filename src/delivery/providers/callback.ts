import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { DeliveryStatus } from '../../domain/types.js';

/** A delivery state a provider reported for one message (or call) it accepted earlier. */
export interface StatusUpdate {
  /** The provider name the message was recorded under (see DeliveryResult.provider). */
  provider: string;
  providerMessageId: string;
  /** A message's final state, or a call's progress: answered, then completed (or failed). */
  status: Extract<DeliveryStatus, 'delivered' | 'failed' | 'answered' | 'completed'>;
  /** Why it failed, for the record; provider codes only, never the message text. */
  error: string | null;
}

/** The raw body: the callback plugin keeps bodies as the exact bytes signatures are computed over. */
export const rawBody = (request: FastifyRequest) => (typeof request.body === 'string' ? request.body : '');

/** One request header (the first, when it was sent twice). */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const isJson = (request: FastifyRequest) => (request.headers['content-type'] ?? '').includes('json');

export const formValues = (body: string) => Object.fromEntries(new URLSearchParams(body).entries());

/** The fields of a JSON object as strings (signatures over parsed values compare strings). */
export function stringValues(json: unknown): Record<string, string> {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return {};
  return Object.fromEntries(Object.entries(json).map(([k, v]) => [k, String(v)]));
}

/** Compares a presented token with the configured one in constant time. */
export function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
