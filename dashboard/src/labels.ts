import type { Health, VerificationMethod } from './types';

// The words the dashboard shows for the keys the API answers with, kept here once. Typed over the
// API's own keys: a service /health adds (in the OpenAPI document) fails `npm run typecheck` until
// it has its words here.

/** The dependencies GET /health reports under `services`. */
export const SERVICE_LABELS: Record<keyof Health['services'], string> = {
  database: 'Database',
  rateLimitStore: 'Rate-limit store',
};

/** The words for a service key; an unknown key (a newer service) as it is. */
export const serviceLabel = (key: string): string =>
  (SERVICE_LABELS as Record<string, string | undefined>)[key] ?? key;

/** How a request was verified, as a sentence ends "Verified by …". */
export const METHOD_LABELS: Record<VerificationMethod, string> = {
  code: 'code',
  link: 'magic link',
  silent: 'the mobile network (silent)',
};

/** The words for a method; an unknown one (a newer service) as it is. */
export const methodLabel = (method: string): string =>
  (METHOD_LABELS as Record<string, string | undefined>)[method] ?? method;
