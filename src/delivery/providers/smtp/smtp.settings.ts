import { providerString, providerTimeout, type SettingsValues } from '../settings.js';

export const smtpSettings = {
  smtpUrl: providerString('smtp', {
    env: 'SMTP_URL',
    required: true,
    secret: true,
    pattern: '^smtps?://',
    description:
      'SMTP server for EMAIL, e.g. `smtps://user:pass@smtp.example.com:465` or `smtp://host:587` (STARTTLS when offered).',
  }),
  emailFrom: providerString('smtp', {
    env: 'EMAIL_FROM',
    required: true,
    description:
      'Sender address, e.g. `codes@example.com` (shown with the brand name) or `Example <codes@example.com>`.',
  }),
  smtpTimeoutMs: providerTimeout('smtp', 'SMTP_TIMEOUT_MS', 10_000, 'SMTP'),
};

export interface SmtpOptions {
  url: string;
  from: string;
  timeoutMs: number;
  /** PUBLIC_BASE_URL, for the absolute URL of an uploaded logo. */
  publicBaseUrl?: string | null;
}

export function smtpOptions(config: SettingsValues<typeof smtpSettings>): SmtpOptions | null {
  if (!config.smtpUrl || !config.emailFrom) return null;
  return { url: config.smtpUrl, from: config.emailFrom, timeoutMs: config.smtpTimeoutMs };
}
