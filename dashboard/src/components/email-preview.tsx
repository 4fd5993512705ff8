import { useEffect, useRef } from 'preact/hooks';

// The email HTML is untrusted text (templates, purposes, footers come from API callers and operators).
// It is shown in a sandboxed iframe without `allow-scripts`: nothing in it can run. A srcdoc frame
// inherits the dashboard's CSP (style-src 'self'), which would refuse the email's inline style
// attributes and report violations; so the HTML is parsed inertly (DOMParser), stripped of anything
// active, and its inline styles are applied through the CSSOM, which the CSP allows.

const DROP =
  'script, iframe, frame, object, embed, link, meta, base, form, input, button, textarea, select, style';

function sameOriginImage(src: string): string | null {
  try {
    const url = new URL(src, window.location.href);
    if (url.protocol === 'data:') return src;
    // An uploaded logo is linked with the service's public URL; the dashboard is that service.
    if (url.origin === window.location.origin || /^\/v1\/branding\/[^/]+\/logo$/.test(url.pathname))
      return `${window.location.origin}${url.pathname}${url.search}`;
  } catch {
    return null;
  }
  return null;
}

/**
 * Renames style attributes before parsing: Chrome checks even an inert DOMParser document against
 * the page's CSP and reports each style attribute. Text in the email is escaped (no raw `<`), so a
 * tag is `<name …>` with no `<` or `>` inside.
 */
function renameStyles(html: string): string {
  return html.replace(/<[a-zA-Z][^<>]*>/g, (tag) => tag.replace(/(\s)style(\s*=)/gi, '$1data-cv-css$2'));
}

export function renderEmail(html: string, target: Document): void {
  const parsed = new DOMParser().parseFromString(renameStyles(html), 'text/html');
  for (const node of parsed.querySelectorAll(DROP)) node.remove();
  const styles: string[] = [];
  for (const element of parsed.querySelectorAll('*')) {
    for (const attribute of [...element.attributes]) {
      const name = attribute.name.toLowerCase();
      if (name.startsWith('on') || name === 'srcset') element.removeAttribute(attribute.name);
      else if (name === 'data-cv-css') {
        element.setAttribute('data-cv-style', String(styles.length));
        styles.push(attribute.value);
        element.removeAttribute(attribute.name);
      } else if (name === 'style') element.removeAttribute(attribute.name);
      else if ((name === 'href' || name === 'src') && /^\s*(javascript|vbscript):/i.test(attribute.value))
        element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'IMG') {
      const src = sameOriginImage(element.getAttribute('src') ?? '');
      if (src) element.setAttribute('src', src);
      else element.removeAttribute('src');
    }
    if (element.tagName === 'A') element.setAttribute('target', '_blank');
  }
  // The email's language and direction (an Arabic or Hebrew email is laid out right to left).
  target.documentElement.lang = parsed.documentElement.lang;
  target.documentElement.dir = parsed.documentElement.dir;
  target.body.dir = parsed.body.dir;
  const bodyStyle = parsed.body.getAttribute('data-cv-style');
  target.body.replaceChildren(...[...parsed.body.childNodes].map((n) => target.importNode(n, true)));
  if (bodyStyle !== null) target.body.style.cssText = styles[Number(bodyStyle)] ?? '';
  for (const element of target.querySelectorAll<HTMLElement>('[data-cv-style]')) {
    element.style.cssText = styles[Number(element.getAttribute('data-cv-style'))] ?? '';
    element.removeAttribute('data-cv-style');
  }
}

export function EmailPreview(props: { html: string; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const doc = frame.current?.contentDocument;
    if (doc?.body) renderEmail(props.html, doc);
  }, [props.html]);
  return (
    <iframe
      ref={frame}
      class="email-frame"
      title={props.title}
      // No allow-scripts: the frame can hold no running code; allow-same-origin lets the dashboard
      // write the parsed email into it.
      sandbox="allow-same-origin allow-popups"
      srcdoc="<!doctype html><html><head></head><body></body></html>"
      onLoad={() => {
        const doc = frame.current?.contentDocument;
        if (doc?.body) renderEmail(props.html, doc);
      }}
    />
  );
}
