import type { LocaleTexts } from './texts.js';

export const fr: LocaleTexts = {
  email: {
    subject: '{code} est votre code de vérification {product}',
    text: 'Votre code de vérification {product} est\u00a0: {code}',
    heading: 'Code de vérification {product}',
    requestedFor: 'Demandé pour',
    expires: {
      one: "Le code expire dans {minutes} minute. Si vous ne l'avez pas demandé, ignorez cet e-mail.",
      other: "Le code expire dans {minutes} minutes. Si vous ne l'avez pas demandé, ignorez cet e-mail.",
    },
    help: 'Aide',
    colon: '\u00a0: ',
    linkButton: "Vérifier l'adresse e-mail",
    linkIntro: 'Cliquez sur le bouton ou saisissez ce code\u00a0:',
    linkText: 'Ou ouvrez ce lien pour vérifier\u00a0: {link}',
  },
  linkPage: {
    title: 'Confirmez votre adresse e-mail',
    prompt: 'Confirmez que vous souhaitez vérifier {address} pour {product}.',
    button: 'Confirmer',
    verifiedTitle: 'Adresse e-mail vérifiée',
    verifiedText: 'Vous pouvez fermer cette page et revenir à {product}.',
    goneTitle: "Ce lien n'est plus valide",
    goneText: 'Il a expiré ou a déjà été utilisé. Demandez un nouveau code.',
    notFoundTitle: 'Lien introuvable',
    notFoundText: 'Vérifiez que vous avez ouvert le lien complet reçu par e-mail.',
  },
  sms: '{code} est votre code de vérification {product}.',
  whatsapp: '*{code}* est votre code de vérification. Pour votre sécurité, ne le partagez pas.',
  voice: ['Votre code de vérification {product} est {code}.', 'Je répète, votre code est {code}.'],
  voiceCall: 'Appel vocal',
  voiceLanguage: 'fr-FR',
  whatsappCall: {
    permissionBody: '{product} souhaite vous appeler sur WhatsApp pour vous lire votre code de vérification.',
    espeakVoice: 'fr-fr',
  },
};
