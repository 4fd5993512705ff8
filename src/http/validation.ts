import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { LOCALE_TAG_PROBLEM, LOCALES } from '../domain/locales.js';
import { type ApiError, type ErrorDetail, validationError } from './errors.js';

/**
 * Fastify's schemaErrorFormatter (set once in app.ts): a request the schema refuses answers the
 * contract's VALIDATION_ERROR with one detail per problem, before any handler runs.
 */
export const schemaErrorFormatter = (errors: FastifySchemaValidationError[]): ApiError =>
  validationError(schemaDetails(errors).details);

/**
 * Turns the schema validator's findings into one `details` entry per problem, phrased for a
 * developer, and reports which top-level fields were refused.
 */
export function schemaDetails(errors: FastifySchemaValidationError[]): {
  details: ErrorDetail[];
  refused: Set<string>;
} {
  const details: ErrorDetail[] = [];
  const refused = new Set<string>();
  const seen = new Set<string>();
  // A nullable field is a union (value or null): its failure also yields "must be null" and
  // "must match a schema in anyOf". One problem, one detail: those two are dropped.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword === 'anyOf') continue;
    const inUnion = unions.has(e.instancePath);
    if (inUnion && e.keyword === 'type' && (e.params as { type?: string }).type === 'null') continue;
    const path = e.instancePath
      .split('/')
      .filter(Boolean)
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    const params = e.params as Record<string, unknown>;
    const field =
      e.keyword === 'required'
        ? String(params.missingProperty)
        : e.keyword === 'additionalProperties'
          ? [path, String(params.additionalProperty)].filter(Boolean).join('.')
          : path === ''
            ? 'body'
            : path.replace(/\[\d+\]$/, '');
    const top = field.split(/[.[]/)[0] ?? field;
    const message = describe(e, field, path) + (inUnion && e.keyword === 'type' ? ' or null' : '');
    const key = `${field}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refused.add(top);
    details.push({ field: e.keyword === 'additionalProperties' ? field : path || field, message });
  }
  return { details, refused };
}

/**
 * For the routes whose cross-field rules (the domain's request parsing) answer in the same
 * VALIDATION_ERROR as the schema (`attachValidation`): the schema's findings, and the body as an
 * object even when the schema refused it, so those rules still look at the fields that were fine.
 */
export function readValidated<Body>(request: FastifyRequest): {
  body: Partial<Body>;
  details: ErrorDetail[];
  refused: Set<string>;
} {
  const findings = request.validationError
    ? schemaDetails(request.validationError.validation)
    : { details: [], refused: new Set<string>() };
  const raw = request.body;
  const body = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Partial<Body>;
  return { body, ...findings };
}

function describe(e: FastifySchemaValidationError, field: string, path: string): string {
  const params = e.params as Record<string, unknown>;
  const name = path || field;
  switch (e.keyword) {
    case 'required':
      return `${field} is required`;
    case 'additionalProperties':
      // A template keyed by a tag that is no locale of ours names the supported ones.
      if (/(^|\.)templates$/.test(path))
        return `${field}: templates are keyed by a supported locale (${LOCALES.join(', ')})`;
      return `${field} is not a field of this request`;
    case 'type':
      if (path === '' || field === 'body') return 'the body must be a JSON object';
      if ((field === 'otpCode' || field === 'code') && params.type === 'string') {
        return `${field} must be a string of digits, e.g. "012345": a JSON number loses leading zeros`;
      }
      return `${name} must be ${article(String(params.type))}`;
    case 'enum':
      return `${name} must be one of ${(params.allowedValues as string[]).join(', ')}`;
    case 'format':
      return params.format === 'email' || params.format === 'idn-email'
        ? `${name} must be a valid email address`
        : params.format === 'uuid'
          ? `${name} must be a UUID as returned by send-code`
          : `${name} must be a valid ${String(params.format)}`;
    case 'maxLength':
      return `${name} must be at most ${String(params.limit)} characters`;
    case 'minLength':
      return `${name} must be at least ${String(params.limit)} characters`;
    case 'minItems':
    case 'maxItems': {
      const limit = Number(params.limit);
      // send-code's dual mode: exactly two; elsewhere (an API key's channels) a bound of its own.
      if (field === 'channels' && limit === 2) return `${name} must hold exactly 2 different channels`;
      const noun = field === 'channels' ? 'channel' : 'item';
      const bound = e.keyword === 'minItems' ? 'at least' : 'at most';
      return `${name} must name ${bound} ${limit} ${noun}${limit === 1 ? '' : 's'}`;
    }
    case 'uniqueItems':
      return `${name} must hold two different channels`;
    case 'pattern':
      if (field === 'country') return 'country must be an ISO 3166-1 alpha-2 code such as US';
      if (field === 'otpCode' || field === 'code') return `${field} must be 4 to 10 digits`;
      if (field === 'locale') return `locale ${LOCALE_TAG_PROBLEM}`;
      if (field === 'webOtpHost')
        return 'webOtpHost must be a host name in lower case, such as example.com (no scheme, port or path)';
      if (field === 'appHash')
        return "appHash must be the app's 11-character SMS Retriever hash (letters, digits, + and /)";
      return `${name} has an invalid format`;
    default:
      return `${name} ${e.message ?? 'is invalid'}`;
  }
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/**
 * The body of an `attachValidation` route once the schema and `check` (the domain's rules over
 * the fields the schema accepted) found nothing; otherwise one VALIDATION_ERROR naming both.
 */
export function validatedBody<Body>(
  request: FastifyRequest,
  check: (body: Partial<Body>, refused: ReadonlySet<string>) => ErrorDetail[],
): Body {
  const { body, details, refused } = readValidated<Body>(request);
  details.push(...check(body, refused));
  if (details.length > 0) throw validationError(details);
  return body as Body;
}
