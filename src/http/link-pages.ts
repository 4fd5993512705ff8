import { createHash } from 'node:crypto';
import { uploadedLogoUrl } from '../delivery/logo-url.js';
import { escapeHtml, localeTexts } from '../delivery/messages.js';
import { DEFAULT_LOCALE, type Locale, matchLocale, textDirection } from '../domain/locales.js';
import type { Branding } from '../domain/types.js';
import type { LinkPage } from '../domain/verification-service.js';

/**
 * The HTML pages of a magic link (docs/links.md): small, self-contained, and without a line of
 * script, so they work in every mail client's in-app browser and with JavaScript off. One style
 * block (allowed by its hash), the account's logo and colour, and at most one button: a form that
 * POSTs to the page's own URL.
 */

/** A page: its status, body and the headers it is answered with. */
export interface RenderedPage {
  status: number;
  html: string;
  headers: Record<string, string>;
}

const safeColor = (color: string) => (/^#[0-9a-fA-F]{3,8}$/.test(color) ? color : '#2563eb');

const styles = (color: string) =>
  `body{margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b}
main{max-width:440px;margin:40px auto;background:#fff;border-radius:8px;padding:28px}
img{display:block;max-height:40px;margin:0 0 16px}
h1{font-size:20px;margin:0 0 12px}p{line-height:1.5;margin:0 0 16px}
bdi{font-weight:bold}
button{font:inherit;font-size:16px;font-weight:bold;color:#fff;background:${color};border:0;border-radius:6px;padding:12px 24px;cursor:pointer;width:100%}
button:focus{outline:3px solid #18181b;outline-offset:2px}`;

/** The style block of a colour and its CSP hash, computed once per colour (an account has one). */
const styleCache = new Map<string, { css: string; hash: string }>();
function stylesOf(color: string): { css: string; hash: string } {
  let found = styleCache.get(color);
  if (found === undefined) {
    const css = styles(color);
    found = { css, hash: `sha256-${createHash('sha256').update(css).digest('base64')}` };
    if (styleCache.size >= 1024) styleCache.clear();
    styleCache.set(color, found);
  }
  return found;
}

/**
 * The policy of every link page: nothing runs (no script-src, default none), the one style block
 * by its hash, images (the logo) over https or from here, no framing, and a form that may post
 * only here, or follow the redirect to `redirectOrigin` (browsers hold a form's redirects to
 * form-action too).
 */
function contentSecurityPolicy(styleHash: string, redirectOrigin: string | null): string {
  return [
    "default-src 'none'",
    `style-src '${styleHash}'`,
    "img-src 'self' https: data:",
    `form-action 'self'${redirectOrigin ? ` ${redirectOrigin}` : ''}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The headers of every link answer: never cached, never indexed, no referrer to the redirect. */
export function linkHeaders(csp: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-robots-tag': 'noindex, nofollow',
    'x-frame-options': 'DENY',
    'content-security-policy': csp,
  };
}

function page(
  status: number,
  locale: Locale,
  branding: Branding | null,
  title: string,
  body: string,
  options: { publicBaseUrl?: string | null; accountId?: string; redirectOrigin?: string | null } = {},
): RenderedPage {
  const { css, hash } = stylesOf(safeColor(branding?.color ?? '#2563eb'));
  const logo =
    branding?.logo && options.accountId
      ? uploadedLogoUrl(options.accountId, branding.logo, options.publicBaseUrl)
      : branding?.logoUrl;
  const logoTag =
    logo && branding ? `<img src="${escapeHtml(logo)}" alt="${escapeHtml(branding.brandName)}">` : '';
  const html = `<!doctype html>
<html lang="${locale}" dir="${textDirection(locale)}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${css}</style></head>
<body><main>${logoTag}<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
  return { status, html, headers: linkHeaders(contentSecurityPolicy(hash, options.redirectOrigin ?? null)) };
}

/** `{product}` of a page: the account's product name, else its brand name. */
const productOf = (branding: Branding) => branding.productName ?? branding.brandName;

/** Escaped text with `{name}` placeholders filled by already-escaped HTML. */
const fill = (text: string, values: Record<string, string>) =>
  escapeHtml(text).replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/**
 * The page of a link outcome. `fallbackLocale`: the language of a page with no request behind it
 * (not found), from the browser's Accept-Language.
 */
export function renderLinkPage(
  outcome: LinkPage,
  fallbackLocale: Locale,
  publicBaseUrl: string | null = null,
): RenderedPage {
  if (outcome.kind === 'not_found') return notFoundPage(fallbackLocale);
  const options = { publicBaseUrl, accountId: outcome.accountId };
  const locale = outcome.locale ?? DEFAULT_LOCALE;
  const t = localeTexts(locale).linkPage;
  const product = `<bdi>${escapeHtml(productOf(outcome.branding))}</bdi>`;
  switch (outcome.kind) {
    case 'confirm':
      return page(
        200,
        locale,
        outcome.branding,
        t.title,
        `<p>${fill(t.prompt, { address: `<bdi dir="ltr">${escapeHtml(outcome.masked)}</bdi>`, product })}</p>
<form method="post"><button type="submit">${escapeHtml(t.button)}</button></form>`,
        { ...options, redirectOrigin: outcome.redirectOrigin },
      );
    case 'verified':
      return page(
        200,
        locale,
        outcome.branding,
        t.verifiedTitle,
        `<p>${fill(t.verifiedText, { product })}</p>`,
        options,
      );
    case 'gone':
      return page(
        410,
        locale,
        outcome.branding,
        t.goneTitle,
        `<p>${fill(t.goneText, { product })}</p>`,
        options,
      );
  }
}

/** The page of a link no request has (unknown, malformed, over-long, another deployment's). */
export function notFoundPage(locale: Locale): RenderedPage {
  const t = localeTexts(locale).linkPage;
  return page(404, locale, null, t.notFoundTitle, `<p>${escapeHtml(t.notFoundText)}</p>`);
}

/** The answer to a method a link does not take (OPTIONS, PUT …): 405 naming those it takes. */
export function methodNotAllowedPage(locale: Locale): RenderedPage {
  const t = localeTexts(locale).linkPage;
  const rendered = page(405, locale, null, t.notFoundTitle, `<p>${escapeHtml(t.notFoundText)}</p>`);
  return { ...rendered, headers: { ...rendered.headers, allow: 'GET, HEAD, POST' } };
}

/** The first supported language of an Accept-Language header, else English. */
export function pageLocale(acceptLanguage: string | undefined): Locale {
  for (const part of (acceptLanguage ?? '').split(',').slice(0, 8)) {
    const tag = part.split(';')[0]?.trim() ?? '';
    if (tag === '' || tag === '*') continue;
    const match = matchLocale(tag);
    if (match !== 'malformed' && match !== null) return match;
  }
  return DEFAULT_LOCALE;
}
