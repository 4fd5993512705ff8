import { parseRedirectOrigin } from './links.js';

/**
 * The account setting of magic links (docs/links.md), described once: the admin API's schemas,
 * the settings in force (settings.ts) and the check of a change (settings-request.ts) derive from
 * it. It has no deployment variable: the origins a link may redirect to are the account's own.
 */
export const LINK_SETTINGS = {
  linkRedirectOrigins: {
    maxItems: 20,
    maxLength: 200,
    description:
      'Origins (`https://app.example.com`, or `http://localhost:3000`) a magic link may redirect to after it verified: a send\'s `link.redirectUrl` must have exactly one of them as its origin. Empty (the default): links end on the service\'s own "verified" page.',
  },
} as const;

export interface LinkSettings {
  /** Normalised origins (as URL.origin writes them). */
  linkRedirectOrigins: readonly string[];
}

export type LinkSettingOverrides = { linkRedirectOrigins?: string[] };

export const noLinkSettings = (): LinkSettings => ({ linkRedirectOrigins: [] });

/**
 * The origins an account's stored value holds, normalised; an entry that is not an origin (written
 * by another version, or by hand) is left out rather than let through.
 */
export function linkRedirectOriginsOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const origins: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const parsed = parseRedirectOrigin(item);
    if ('origin' in parsed && !origins.includes(parsed.origin)) origins.push(parsed.origin);
  }
  return origins;
}

/** One problem per listed value that is not an origin, for a settings change. */
export function linkOriginProblems(value: unknown, path: string): Array<{ field: string; message: string }> {
  if (!Array.isArray(value)) return [];
  const problems: Array<{ field: string; message: string }> = [];
  value.forEach((item, i) => {
    if (typeof item !== 'string') return;
    const parsed = parseRedirectOrigin(item);
    if ('problem' in parsed)
      problems.push({ field: `${path}[${i}]`, message: `${path}[${i}] ${parsed.problem}` });
  });
  return problems;
}
