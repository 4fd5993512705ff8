import type { FastifyInstance } from 'fastify';
import { type ErrorDetail, validationError } from './errors.js';

/**
 * C0 controls, DEL, C1 controls and the bidirectional overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069), which can disguise text in a dashboard or a message. A NUL also cannot be stored
 * by PostgreSQL at all.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** The same, except tab, line feed and carriage return: for fields that hold free text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const CALLBACKS = '/v1/callbacks/';
/** A magic link's token is checked by its shape (anything else is the 404 page) and its body ignored. */
const LINKS = '/v1/links/';

/**
 * Fields whose value is free text shown as paragraphs: line breaks and tabs are allowed there (an
 * account's email footer and message templates too: `text`, `SMS`, `WHATSAPP` of branding.templates).
 */
const TEXT_FIELDS = new Set(['customMessage', 'emailFooter', 'text', 'SMS', 'WHATSAPP']);

function checkString(value: string, path: string, out: ErrorDetail[]): void {
  // Nearly every string is clean: one scan answers for them, before the field's name is worked out.
  if (!CONTROL.test(value)) return;
  const leaf =
    path
      .replace(/\[\d+\]$/, '')
      .split('.')
      .pop() ?? path;
  const text = TEXT_FIELDS.has(leaf);
  if ((text ? CONTROL_IN_TEXT : CONTROL).test(value)) {
    out.push({
      field: path,
      message: `${path} must not contain control characters (${text ? 'except tab and newline' : 'or bidirectional overrides'})`,
    });
  }
}

/**
 * Every string in `root`, in document order, through an explicit stack: request data is never
 * walked by recursion, whose depth the sender would choose (JSON bodies are also held to
 * MAX_JSON_DEPTH by the parser).
 */
export function findControls(root: unknown, out: ErrorDetail[]): void {
  const values: unknown[] = [root];
  const paths: string[] = [''];
  while (values.length > 0) {
    const value = values.pop();
    const path = paths.pop() as string;
    if (typeof value === 'string') {
      checkString(value, path, out);
    } else if (Buffer.isBuffer(value)) {
      // A raw upload (the logo) is bytes, not text.
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        values.push(value[i]);
        paths.push(`${path}[${i}]`);
      }
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        values.push(item);
        paths.push(path ? `${path}.${key}` : key);
      }
    }
  }
}

/**
 * Refuses control characters in every string of a request's body, query and path parameters with
 * 400 VALIDATION_ERROR naming each field. A preValidation hook: it runs after authentication and
 * before the handler, so a refused request reaches neither the limits nor the store.
 */
export function refuseControlCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    // A provider's callback is the provider's text (an error detail may span lines), checked by
    // its signature: refusing it would lose a delivery report, and nothing of it is shown as is.
    if (request.url.startsWith(CALLBACKS) || request.url.startsWith(LINKS)) return done();
    const details: ErrorDetail[] = [];
    findControls(request.params, details);
    findControls(request.query, details);
    findControls(request.body, details);
    done(details.length > 0 ? validationError(details) : undefined);
  });
}
