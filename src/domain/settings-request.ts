import type { ErrorDetail } from './errors.js';
import { linkOriginProblems } from './link-settings.js';
import { isKnownCountry } from './phone.js';
import { templatesProblems } from './templates.js';

/** The checks of a branding change that a schema cannot make: the templates' placeholders. */
export function brandingProblems(branding: unknown, path: string): ErrorDetail[] {
  if (branding === null || typeof branding !== 'object') return [];
  return templatesProblems((branding as { templates?: unknown }).templates, `${path}.templates`);
}

/**
 * The checks of an account settings change that a schema cannot make: the branding's templates
 * and that every allowed country is one. `refused`: the top-level fields the schema refused
 * already (not checked again); `path`: where the settings sit in the body (`settings.`).
 */
export function settingsProblems(
  settings:
    | { allowedCountries?: unknown; branding?: unknown; linkRedirectOrigins?: unknown }
    | null
    | undefined,
  refused: ReadonlySet<string>,
  path = '',
): ErrorDetail[] {
  const problems = brandingProblems(settings?.branding, `${path}branding`);
  if (!refused.has('linkRedirectOrigins'))
    problems.push(...linkOriginProblems(settings?.linkRedirectOrigins, `${path}linkRedirectOrigins`));
  const countries = settings?.allowedCountries;
  if (Array.isArray(countries) && !refused.has('allowedCountries')) {
    const unknown = countries.filter(
      (c) => typeof c === 'string' && c !== '*' && !isKnownCountry(c.toUpperCase()),
    );
    if (unknown.length > 0) {
      problems.push({
        field: 'allowedCountries',
        message: `allowedCountries: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a known' : 'are not known'} ISO 3166-1 alpha-2 country code${unknown.length === 1 ? '' : 's'}`,
      });
    }
  }
  return problems;
}
