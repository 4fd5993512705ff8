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
    colon: ': ',
    linkButton: 'Verify email address',
    linkIntro: 'Click the button or enter this code:',
    linkText: 'Or open this link to verify: {link}',
  },
  linkPage: {
    title: 'Confirm your email address',
    prompt: 'Confirm that you want to verify {address} for {product}.',
    button: 'Confirm',
    verifiedTitle: 'Email address verified',
    verifiedText: 'You can close this page and return to {product}.',
    goneTitle: 'This link can no longer be used',
    goneText: 'It has expired or was already used. Request a new code.',
    notFoundTitle: 'Link not found',
    notFoundText: 'Check that you opened the whole link from your email.',
  },
  sms: '{code} is your {product} verification code.',
  whatsapp: '*{code}* is your verification code. For your security, do not share this code.',
  voice: ['Your {product} verification code is {code}.', 'Again, your code is {code}.'],
  voiceCall: 'Voice call',
  voiceLanguage: 'en-US',
  whatsappCall: {
    permissionBody: '{product} would like to call you on WhatsApp to read your verification code.',
    espeakVoice: 'en-us',
  },
};
