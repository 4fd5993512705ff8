import { mergeTemplates } from './templates.js';
import type { Branding, UploadedLogo } from './types.js';

/**
 * Applies a branding change (PATCH settings) to the saved branding: partial, a null field resets
 * it, templates merge per locale and channel, and null as a whole resets every field. The uploaded
 * logo has its own endpoint and survives both.
 */
export function mergeBranding(
  saved: Partial<Branding> | undefined,
  change: Record<string, unknown> | null,
): Partial<Branding> | undefined {
  const logo = saved?.logo;
  const next: Record<string, unknown> = change === null ? {} : { ...saved };
  for (const [name, value] of Object.entries(change ?? {})) {
    if (name === 'logo') continue;
    if (name === 'templates') next.templates = mergeTemplates(saved?.templates, value);
    else if (value === null) delete next[name];
    else next[name] = value;
  }
  if (next.templates === undefined) delete next.templates;
  if (logo) next.logo = logo;
  else delete next.logo;
  return Object.keys(next).length > 0 ? (next as Partial<Branding>) : undefined;
}

/** The saved branding with an uploaded logo recorded, or (null) removed. */
export function withLogo(
  saved: Partial<Branding> | undefined,
  logo: UploadedLogo | null,
): Partial<Branding> | undefined {
  const next: Partial<Branding> = { ...saved };
  if (logo) next.logo = logo;
  else delete next.logo;
  return Object.keys(next).length > 0 ? next : undefined;
}
