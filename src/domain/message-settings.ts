import { LOCALES, type Locale } from './locales.js';

/**
 * The account settings of what its messages say, besides the branding: the default locale and
 * the one-tap lines of SMS. Described once; the admin API's schemas, the settings in force and
 * the types below derive from this table.
 */
export const MESSAGE_SETTINGS = {
  locale: {
    /** The deployment setting that gives it when the account does not; null: none. */
    deployment: null,
    env: null,
    enum: LOCALES,
    pattern: null,
    maxLength: 5,
    description:
      "Default locale of messages: used when a send gives no `locale` or one of no supported language, before the phone number's country.",
  },
  webOtpHost: {
    deployment: 'smsWebOtpDomain',
    env: 'SMS_WEBOTP_DOMAIN',
    enum: null,
    // A domain name in lower case (IDN in punycode), no scheme, port or path: the host of the
    // https origin the code is bound to (WebOTP's `@host #code`).
    pattern: '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$',
    maxLength: 253,
    description:
      "Host of the site that reads the code (lower case, no scheme or port): SMS end with the WebOTP line `@<host> #<code>`, which browsers autofill on that site only. Wins over the deployment's SMS_WEBOTP_DOMAIN.",
  },
  appHash: {
    deployment: null,
    env: null,
    enum: null,
    pattern: '^[A-Za-z0-9+/]{11}$',
    maxLength: 11,
    description:
      "The Android app's 11-character SMS Retriever hash: SMS carry it on the line before the WebOTP line (or last), so the app reads the code without the user typing it.",
  },
} as const;

export type MessageSettingName = keyof typeof MESSAGE_SETTINGS;

/** The message settings in effect: the account's, else the deployment's, else none. */
export interface MessageSettings {
  locale: Locale | null;
  webOtpHost: string | null;
  appHash: string | null;
}

/** The message settings an account sets. */
export type MessageSettingOverrides = { [K in MessageSettingName]?: NonNullable<MessageSettings[K]> };

export const noMessageSettings = (): MessageSettings => ({ locale: null, webOtpHost: null, appHash: null });
