import { defineProvider } from '../module.js';
import { SmtpProvider } from './smtp.provider.js';
import { smtpOptions, smtpSettings } from './smtp.settings.js';

/** EMAIL over any SMTP server. */
export const smtp = defineProvider({
  name: 'smtp',
  title: 'SMTP',
  api: 'Any SMTP server, through nodemailer',
  channel: 'EMAIL',
  settings: smtpSettings,
  configured: (config) => smtpOptions(config) !== null,
  create(config, { publicBaseUrl }) {
    const options = smtpOptions(config);
    return options ? new SmtpProvider({ ...options, publicBaseUrl }) : null;
  },
});
