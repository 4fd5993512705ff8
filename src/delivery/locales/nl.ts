import type { LocaleTexts } from './texts.js';

export const nl: LocaleTexts = {
  email: {
    subject: '{code} is je verificatiecode voor {product}',
    text: 'Je verificatiecode voor {product} is: {code}',
    heading: 'Verificatiecode voor {product}',
    requestedFor: 'Aangevraagd voor',
    expires: {
      one: 'De code verloopt over {minutes} minuut. Heb je deze niet aangevraagd? Negeer dan deze e-mail.',
      other: 'De code verloopt over {minutes} minuten. Heb je deze niet aangevraagd? Negeer dan deze e-mail.',
    },
    help: 'Hulp',
    colon: ': ',
    linkButton: 'E-mailadres verifiëren',
    linkIntro: 'Klik op de knop of voer deze code in:',
    linkText: 'Of open deze link om te verifiëren: {link}',
  },
  linkPage: {
    title: 'Bevestig je e-mailadres',
    prompt: 'Bevestig dat je {address} wilt verifiëren voor {product}.',
    button: 'Bevestigen',
    verifiedTitle: 'E-mailadres geverifieerd',
    verifiedText: 'Je kunt deze pagina sluiten en teruggaan naar {product}.',
    goneTitle: 'Deze link kan niet meer worden gebruikt',
    goneText: 'De link is verlopen of al gebruikt. Vraag een nieuwe code aan.',
    notFoundTitle: 'Link niet gevonden',
    notFoundText: 'Controleer of je de volledige link uit je e-mail hebt geopend.',
  },
  sms: '{code} is je verificatiecode voor {product}.',
  whatsapp: '*{code}* is je verificatiecode. Deel deze code voor je veiligheid met niemand.',
  voice: ['Je verificatiecode voor {product} is {code}.', 'Nogmaals, je code is {code}.'],
  voiceCall: 'Spraakoproep',
  voiceLanguage: 'nl-NL',
  whatsappCall: {
    permissionBody: '{product} wil je via WhatsApp bellen om je verificatiecode voor te lezen.',
    espeakVoice: 'nl',
  },
};
