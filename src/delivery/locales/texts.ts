/**
 * Texts that differ by count: one per plural category the language has (Intl.PluralRules:
 * `one`, `few`, `many` … and always `other`). A test checks that each locale gives every category
 * its rules choose for 1 to 30 minutes.
 */
export type PluralTexts = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/**
 * The built-in texts of one locale. `{code}`, `{minutes}`, `{product}` and `{purpose}` are the
 * placeholders of src/domain/templates.ts; in the voice sentences `{code}` is the digits as spoken.
 * Numbers are written as digits (0–9), the code always in ASCII digits.
 *
 * Spelling is the language's own. The SMS text is worded to stay in GSM-7 (160 characters a
 * segment) where the language can say it correctly in that alphabet; any other is sent as UCS-2
 * (70 characters), and every built-in SMS fits one segment with a 10-digit code and the longest
 * product name (cut to fit; a test checks each locale).
 */
export interface LocaleTexts {
  email: {
    subject: string;
    /** The first line of the plain-text part. */
    text: string;
    /** The heading of the HTML part. */
    heading: string;
    requestedFor: string;
    /** The expiry sentence, by the plural category of `{minutes}`. */
    expires: PluralTexts;
    help: string;
    /** What follows a label ("Requested for: login"): `': '`; French `'\u00a0: '`, Chinese and Japanese `'：'`. */
    colon: string;
    /** A magic link's button ("Verify email address"). */
    linkButton: string;
    /** The line above a magic link's button and the code ("Click the button or enter this code:"). */
    linkIntro: string;
    /** A magic link in the plain-text part; `{link}` is the URL (this text only). */
    linkText: string;
  };
  /**
   * The pages a magic link opens (`GET`/`POST /v1/links/{token}`). `{address}` is the masked
   * address, `{product}` the product name.
   */
  linkPage: {
    title: string;
    prompt: string;
    button: string;
    verifiedTitle: string;
    verifiedText: string;
    goneTitle: string;
    goneText: string;
    notFoundTitle: string;
    notFoundText: string;
  };
  sms: string;
  /** What Meta's authentication template says in this language (the outbox shows it). */
  whatsapp: string;
  /** The two sentences a code call speaks (VOICE, and the WhatsApp call's audio). */
  voice: [string, string];
  /** The label of a voice call in the outbox. */
  voiceCall: string;
  /** The language a code call is spoken in (BCP 47 with region: `ar-SA`, `pt-BR`). */
  voiceLanguage: string;
  whatsappCall: {
    /** The body of WhatsApp's call-permission request (`{product}`). */
    permissionBody: string;
    /** The espeak-ng voice the call's audio clips are rendered with (`espeak-ng --voices`). */
    espeakVoice: string;
    /**
     * The `voice` sentences spelt as that espeak-ng voice reads them, where the language's own
     * spelling is not one it reads: Japanese in kana (it names kanji as "Chinese letter"), Chinese
     * in pinyin (the Debian build has no Mandarin character dictionary), Hebrew with vowel points.
     */
    espeakScript?: [string, string];
    /** The digits 0–9 as words, where the espeak-ng voice does not read digits (Hebrew). */
    espeakDigits?: readonly string[];
  };
}
