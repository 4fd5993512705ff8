import type { UploadedLogo } from '../domain/types.js';

/**
 * Where an account's uploaded logo is served (GET /v1/branding/{accountId}/logo). Its upload time
 * is in the query, so that a cached copy of an older logo is never shown. Absolute when the
 * deployment knows its public URL (PUBLIC_BASE_URL); an email needs that form.
 */
export function uploadedLogoUrl(
  accountId: string,
  logo: UploadedLogo,
  publicBaseUrl?: string | null,
): string {
  return `${publicBaseUrl ?? ''}/v1/branding/${encodeURIComponent(accountId)}/logo?v=${logo.version}`;
}
