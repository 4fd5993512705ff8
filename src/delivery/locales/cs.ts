import type { LocaleTexts } from './texts.js';

export const cs: LocaleTexts = {
  email: {
    subject: '{code} je váš ověřovací kód pro {product}',
    text: 'Váš ověřovací kód pro {product} je: {code}',
    heading: 'Ověřovací kód pro {product}',
    requestedFor: 'Účel',
    expires: {
      one: 'Platnost kódu vyprší za {minutes} minutu. Pokud jste o kód nežádali, tento e-mail ignorujte.',
      few: 'Platnost kódu vyprší za {minutes} minuty. Pokud jste o kód nežádali, tento e-mail ignorujte.',
      many: 'Platnost kódu vyprší za {minutes} minuty. Pokud jste o kód nežádali, tento e-mail ignorujte.',
      other: 'Platnost kódu vyprší za {minutes} minut. Pokud jste o kód nežádali, tento e-mail ignorujte.',
    },
    help: 'Nápověda',
    colon: ': ',
    linkButton: 'Ověřit e-mailovou adresu',
    linkIntro: 'Klikněte na tlačítko nebo zadejte tento kód:',
    linkText: 'Adresu můžete ověřit také otevřením tohoto odkazu: {link}',
  },
  linkPage: {
    title: 'Potvrďte svou e-mailovou adresu',
    prompt: 'Potvrďte, že chcete ověřit adresu {address} pro {product}.',
    button: 'Potvrdit',
    verifiedTitle: 'E-mailová adresa je ověřena',
    verifiedText: 'Tuto stránku můžete zavřít a vrátit se ke službě {product}.',
    goneTitle: 'Tento odkaz už nelze použít',
    goneText: 'Jeho platnost vypršela nebo už byl použit. Vyžádejte si nový kód.',
    notFoundTitle: 'Odkaz nebyl nalezen',
    notFoundText: 'Zkontrolujte, zda jste otevřeli celý odkaz z e-mailu.',
  },
  sms: '{code} je váš ověřovací kód pro {product}.',
  whatsapp: '*{code}* je váš ověřovací kód. Z bezpečnostních důvodů tento kód nikomu nesdělujte.',
  voice: ['Váš ověřovací kód pro {product} je {code}.', 'Opakuji, váš kód je {code}.'],
  voiceCall: 'Hlasový hovor',
  voiceLanguage: 'cs-CZ',
  whatsappCall: {
    permissionBody: '{product} vám chce zavolat přes WhatsApp a přečíst vám ověřovací kód.',
    espeakVoice: 'cs',
  },
};
