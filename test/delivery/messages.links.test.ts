import { describe, expect, it } from 'vitest';
import { LOCALE_TEXTS } from '../../src/delivery/locales/index.js';
import { escapeHtml, renderEmail } from '../../src/delivery/messages.js';
import { encodeOutboxContent, renderOutboxEntry } from '../../src/delivery/outbox/outbox-content.js';
import { LOCALES } from '../../src/domain/locales.js';
import type { OutboxEntry } from '../../src/domain/ports/verifications.js';
import { deliveryRequest } from './support/request.js';

const LINK = 'https://verify.example.test/v1/links/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdE';
const email = (overrides = {}) =>
  deliveryRequest({ channel: 'EMAIL', to: 'jane@example.com', link: LINK, ...overrides });

describe('the email of a magic link', () => {
  for (const locale of LOCALES) {
    it(`${locale}: the HTML has the button and the code, the text the link and the code`, () => {
      const t = LOCALE_TEXTS[locale].email;
      const { html, text } = renderEmail(email({ locale }));
      expect(html).toContain(`href="${LINK}"`);
      expect(html).toContain(`>${escapeHtml(t.linkButton)}</a>`);
      expect(html).toContain(escapeHtml(t.linkIntro));
      expect(html).toContain('>048213</p>');
      expect(text).toContain('048213');
      expect(text).toContain(t.linkText.replace('{link}', LINK));
      expect(t.linkText).toContain('{link}');
    });
  }

  it("an account's own email text still carries the link", () => {
    const branding = {
      brandName: 'Acme',
      color: '#2563eb',
      templates: { en: { EMAIL: { subject: 'Code {code}', text: 'Use {code} to sign in.' } } },
    };
    const { html, text } = renderEmail(email({ branding }));
    expect(text).toContain('Use 048213 to sign in.');
    expect(text).toContain(LINK);
    expect(html).toContain(`href="${LINK}"`);
  });

  it('without a link, the email is as before: no button, no link line', () => {
    const { html, text } = renderEmail(email({ link: undefined }));
    expect(html).not.toContain('/v1/links/');
    expect(html).not.toContain(LOCALE_TEXTS.en.email.linkButton);
    expect(text).not.toContain(LOCALE_TEXTS.en.email.linkText.replace(' {link}', ''));
  });

  it('the outbox keeps the link with its token masked: it cannot be used from there', () => {
    const content = encodeOutboxContent(email());
    expect(content).not.toContain('AbCdEfGh');
    const entry: OutboxEntry = {
      verificationId: '6f1c1f5e-0d7a-4d55-9a3e-2b7f3f1f0a11',
      groupId: '6f1c1f5e-0d7a-4d55-9a3e-2b7f3f1f0a11',
      siblingRequestId: null,
      status: 'pending',
      accountId: 'acc_default',
      channel: 'EMAIL',
      to: 'jane@example.com',
      sentTo: 'jane@example.com',
      content,
      code: '048213',
      mode: 'test',
      createdAt: 0,
      verifiedAt: null,
      method: null,
    };
    const shown = renderOutboxEntry(entry);
    expect(shown.text).toContain(`https://verify.example.test/v1/links/${'*'.repeat(43)}`);
    expect(shown.text).toContain('048213');
    expect(shown.html).not.toContain('AbCdEfGh');
  });
});
