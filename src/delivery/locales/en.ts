import type { LocaleTexts } from './texts.js';

export const en: LocaleTexts = {
  email: {
    subject: '{code} is your {product} verification code',
    text: 'Your {product} verification code is: {code}',
    heading: '{product} verification code',
    requestedFor: 'Requested for',
    expires: {
      one: 'The code expires in {minutes} minute. If you did not ask for it, ignore this email.',
      other: 'The code expires in {minutes} minutes. If you did not ask for it, ignore this email.',
    },
    help: 'Help',
  },
  sms: '{code} is your {product} verification code.',
  whatsapp: '*{code}* is your verification code. For your security, do not share this code.',
  voice: ['Your {product} verification code is {code}.', 'Again, your code is {code}.'],
  voiceCall: 'Voice call',
  voiceLanguage: 'en-US',
};
