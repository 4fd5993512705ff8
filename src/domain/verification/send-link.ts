import { DomainError } from '../errors.js';
import { checkRedirectUrl } from '../links.js';
import type { SendRequest } from '../send-request.js';
import type { EffectiveSettings } from '../settings.js';

/** A send's `link` once checked: where the link points, and where its POST redirects. */
export interface CheckedLink {
  /** PUBLIC_BASE_URL, without a trailing slash. */
  baseUrl: string;
  /** Normalised (what was checked is what is sent); null: the service's "verified" page. */
  redirectUrl: string | null;
}

const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `Invalid request: ${message}`, [{ field, message }]);

/**
 * The checks of send-code's `link` that need the deployment and the account: a link needs
 * PUBLIC_BASE_URL, and its redirect an origin the account lists. Null when the send has no link
 * (nothing is computed for it: a send without a link pays for none of this).
 */
export function checkSendLink(
  request: SendRequest,
  baseUrl: string | null | undefined,
  s: EffectiveSettings,
): CheckedLink | null {
  if (request.link === null) return null;
  if (!baseUrl)
    throw invalid(
      'link',
      'link needs the deployment setting PUBLIC_BASE_URL (the public URL links point to), which is not set',
    );
  const given = request.link.redirectUrl;
  if (given === null) return { baseUrl: baseUrl.replace(/\/+$/, ''), redirectUrl: null };
  const checked = checkRedirectUrl(given, s.linkRedirectOrigins);
  if ('problem' in checked) throw invalid('link.redirectUrl', `link.redirectUrl ${checked.problem}`);
  return { baseUrl: baseUrl.replace(/\/+$/, ''), redirectUrl: checked.url };
}
