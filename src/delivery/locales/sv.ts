import type { LocaleTexts } from './texts.js';

export const sv: LocaleTexts = {
  email: {
    subject: '{code} är din verifieringskod för {product}',
    text: 'Din verifieringskod för {product} är: {code}',
    heading: 'Verifieringskod för {product}',
    requestedFor: 'Gäller',
    expires: {
      one: 'Koden går ut om {minutes} minut. Om du inte har begärt den kan du ignorera det här mejlet.',
      other: 'Koden går ut om {minutes} minuter. Om du inte har begärt den kan du ignorera det här mejlet.',
    },
    help: 'Hjälp',
    colon: ': ',
    linkButton: 'Verifiera e-postadressen',
    linkIntro: 'Klicka på knappen eller ange den här koden:',
    linkText: 'Eller öppna den här länken för att verifiera: {link}',
  },
  linkPage: {
    title: 'Bekräfta din e-postadress',
    prompt: 'Bekräfta att du vill verifiera {address} för {product}.',
    button: 'Bekräfta',
    verifiedTitle: 'E-postadressen är verifierad',
    verifiedText: 'Du kan stänga den här sidan och gå tillbaka till {product}.',
    goneTitle: 'Länken kan inte längre användas',
    goneText: 'Den har gått ut eller redan använts. Begär en ny kod.',
    notFoundTitle: 'Länken hittades inte',
    notFoundText: 'Kontrollera att du öppnade hela länken i mejlet.',
  },
  sms: '{code} är din verifieringskod för {product}.',
  whatsapp: '*{code}* är din verifieringskod. Av säkerhetsskäl ska du inte dela den här koden.',
  voice: ['Din verifieringskod för {product} är {code}.', 'Jag upprepar, din kod är {code}.'],
  voiceCall: 'Röstsamtal',
  voiceLanguage: 'sv-SE',
  whatsappCall: {
    permissionBody: '{product} vill ringa dig på WhatsApp för att läsa upp din verifieringskod.',
    espeakVoice: 'sv',
  },
};
