/**
 * The built-in texts of one language. `{code}`, `{minutes}`, `{product}` and `{purpose}` are the
 * placeholders of src/domain/templates.ts; in the voice sentences `{code}` is the digits as spoken.
 * Spelling is the language's own: an SMS with a character outside GSM-7 (ó, ç, ã) is sent as UCS-2,
 * 70 characters a part (the preview shows the count); an account template may choose otherwise.
 */
export interface LocaleTexts {
  email: {
    subject: string;
    /** The first line of the plain-text part. */
    text: string;
    /** The heading of the HTML part. */
    heading: string;
    requestedFor: string;
    /** The expiry sentence, for one minute and for more. */
    expires: { one: string; other: string };
    help: string;
  };
  sms: string;
  /** What Meta's authentication template says in this language (the outbox shows it). */
  whatsapp: string;
  /** The two sentences a code call speaks. */
  voice: [string, string];
  /** The label of a voice call in the outbox. */
  voiceCall: string;
  /** The language a code call is spoken in (the voice call's `<Say language>`). */
  voiceLanguage: string;
}
