import type { LocaleTexts } from './texts.js';

export const fr: LocaleTexts = {
  email: {
    subject: '{code} est votre code de vérification {product}',
    text: 'Votre code de vérification {product} est : {code}',
    heading: 'Code de vérification {product}',
    requestedFor: 'Demandé pour',
    expires: {
      one: "Le code expire dans {minutes} minute. Si vous ne l'avez pas demandé, ignorez cet e-mail.",
      other: "Le code expire dans {minutes} minutes. Si vous ne l'avez pas demandé, ignorez cet e-mail.",
    },
    help: 'Aide',
  },
  sms: '{code} est votre code de vérification {product}.',
  whatsapp: '*{code}* est votre code de vérification. Pour votre sécurité, ne le partagez pas.',
  voice: ['Votre code de vérification {product} est {code}.', 'Je répète, votre code est {code}.'],
  voiceCall: 'Appel vocal',
  voiceLanguage: 'fr-FR',
};
