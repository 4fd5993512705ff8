import { describe, expect, it } from 'vitest';
import { allBuiltInTemplates, builtInTemplates } from '../../src/delivery/built-in-templates.js';
import { renderMessage } from '../../src/delivery/messages.js';
import { LOCALES, templatesProblems } from '../../src/domain/templates.js';
import { deliveryRequest } from './support/request.js';

// The branding editor starts from these: saved unchanged, they must say what the built-in texts say.

describe('the built-in texts as templates', () => {
  it('lists every language once, the fallback first', () => {
    expect(allBuiltInTemplates().map((t) => t.locale)).toEqual([...LOCALES]);
  });

  it.each(LOCALES)('%s: valid as an account template (each body holds {code})', (locale) => {
    const { locale: _, ...templates } = builtInTemplates(locale);
    expect(templatesProblems({ [locale]: templates })).toEqual([]);
  });

  it.each(LOCALES)(
    '%s: saved as the account template, renders the message the built-in text renders',
    (locale) => {
      const { locale: _, ...templates } = builtInTemplates(locale);
      const plain = deliveryRequest({ locale });
      const branded = deliveryRequest({
        locale,
        branding: { ...plain.branding, templates: { [locale]: templates } },
      });
      for (const channel of ['SMS', 'WHATSAPP'] as const) {
        expect(renderMessage({ ...branded, channel }).text, channel).toBe(
          renderMessage({ ...plain, channel }).text,
        );
      }
      const email = (r: typeof plain) => renderMessage({ ...r, channel: 'EMAIL', to: 'jane@example.com' });
      expect(email(branded).subject).toBe(email(plain).subject);
      // Without a purpose (the line the built-in email adds for one), the plain text is the same.
      expect(email(branded).text).toBe(email(plain).text);
    },
  );
});
