import type { LocaleTexts } from './texts.js';

export const da: LocaleTexts = {
  email: {
    subject: '{code} er din bekræftelseskode til {product}',
    text: 'Din bekræftelseskode til {product} er: {code}',
    heading: 'Bekræftelseskode til {product}',
    requestedFor: 'Vedrører',
    expires: {
      one: 'Koden udløber om {minutes} minut. Hvis du ikke har bedt om den, kan du ignorere denne e-mail.',
      other:
        'Koden udløber om {minutes} minutter. Hvis du ikke har bedt om den, kan du ignorere denne e-mail.',
    },
    help: 'Hjælp',
    colon: ': ',
    linkButton: 'Bekræft e-mailadresse',
    linkIntro: 'Klik på knappen, eller indtast denne kode:',
    linkText: 'Eller åbn dette link for at bekræfte: {link}',
  },
  linkPage: {
    title: 'Bekræft din e-mailadresse',
    prompt: 'Bekræft, at du vil verificere {address} til {product}.',
    button: 'Bekræft',
    verifiedTitle: 'E-mailadressen er bekræftet',
    verifiedText: 'Du kan lukke denne side og vende tilbage til {product}.',
    goneTitle: 'Linket kan ikke længere bruges',
    goneText: 'Det er udløbet eller allerede brugt. Bed om en ny kode.',
    notFoundTitle: 'Linket blev ikke fundet',
    notFoundText: 'Kontrollér, at du har åbnet hele linket fra din e-mail.',
  },
  sms: '{code} er din bekræftelseskode til {product}.',
  whatsapp: '*{code}* er din bekræftelseskode. Af hensyn til din sikkerhed må du ikke dele denne kode.',
  voice: ['Din bekræftelseskode til {product} er {code}.', 'Jeg gentager, din kode er {code}.'],
  voiceCall: 'Taleopkald',
  voiceLanguage: 'da-DK',
  whatsappCall: {
    permissionBody: '{product} vil gerne ringe til dig på WhatsApp for at læse din bekræftelseskode op.',
    espeakVoice: 'da',
  },
};
