import type { LocaleTexts } from './texts.js';

/** Norwegian Bokmål; `no` and `nn` tags are answered in it. */
export const nb: LocaleTexts = {
  email: {
    subject: '{code} er bekreftelseskoden din for {product}',
    text: 'Bekreftelseskoden din for {product} er: {code}',
    heading: 'Bekreftelseskode for {product}',
    requestedFor: 'Gjelder',
    expires: {
      one: 'Koden utløper om {minutes} minutt. Hvis du ikke ba om den, kan du se bort fra denne e-posten.',
      other:
        'Koden utløper om {minutes} minutter. Hvis du ikke ba om den, kan du se bort fra denne e-posten.',
    },
    help: 'Hjelp',
    colon: ': ',
    linkButton: 'Bekreft e-postadressen',
    linkIntro: 'Klikk på knappen eller skriv inn denne koden:',
    linkText: 'Eller åpne denne lenken for å bekrefte: {link}',
  },
  linkPage: {
    title: 'Bekreft e-postadressen din',
    prompt: 'Bekreft at du vil verifisere {address} for {product}.',
    button: 'Bekreft',
    verifiedTitle: 'E-postadressen er bekreftet',
    verifiedText: 'Du kan lukke denne siden og gå tilbake til {product}.',
    goneTitle: 'Lenken kan ikke lenger brukes',
    goneText: 'Den er utløpt eller allerede brukt. Be om en ny kode.',
    notFoundTitle: 'Fant ikke lenken',
    notFoundText: 'Sjekk at du åpnet hele lenken fra e-posten.',
  },
  sms: '{code} er bekreftelseskoden din for {product}.',
  whatsapp: '*{code}* er bekreftelseskoden din. Av sikkerhetshensyn må du ikke dele denne koden.',
  voice: ['Bekreftelseskoden din for {product} er {code}.', 'Jeg gjentar, koden din er {code}.'],
  voiceCall: 'Taleanrop',
  voiceLanguage: 'nb-NO',
  whatsappCall: {
    permissionBody: '{product} vil ringe deg på WhatsApp for å lese opp bekreftelseskoden din.',
    espeakVoice: 'nb',
  },
};
