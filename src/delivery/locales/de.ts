import type { LocaleTexts } from './texts.js';

/**
 * Sie in email, SMS and calls; du on WhatsApp, as Meta's German template has it. "Bestätigungscode
 * für {product}" rather than a compound, which a product name with spaces would break.
 */
export const de: LocaleTexts = {
  email: {
    subject: '{code} ist Ihr Bestätigungscode für {product}',
    text: 'Ihr Bestätigungscode für {product} lautet: {code}',
    heading: 'Bestätigungscode für {product}',
    requestedFor: 'Angefordert für',
    expires: {
      one: 'Der Code läuft in {minutes} Minute ab. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
      other:
        'Der Code läuft in {minutes} Minuten ab. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
    },
    help: 'Hilfe',
    colon: ': ',
    linkButton: 'E-Mail-Adresse bestätigen',
    linkIntro: 'Klicken Sie auf die Schaltfläche oder geben Sie diesen Code ein:',
    linkText: 'Oder öffnen Sie diesen Link zur Bestätigung: {link}',
  },
  linkPage: {
    title: 'Bestätigen Sie Ihre E-Mail-Adresse',
    prompt: 'Bestätigen Sie, dass {address} für {product} verifiziert werden soll.',
    button: 'Bestätigen',
    verifiedTitle: 'E-Mail-Adresse bestätigt',
    verifiedText: 'Sie können diese Seite schließen und zu {product} zurückkehren.',
    goneTitle: 'Dieser Link ist nicht mehr gültig',
    goneText: 'Er ist abgelaufen oder wurde bereits verwendet. Fordern Sie einen neuen Code an.',
    notFoundTitle: 'Link nicht gefunden',
    notFoundText: 'Prüfen Sie, ob Sie den vollständigen Link aus Ihrer E-Mail geöffnet haben.',
  },
  sms: '{code} ist Ihr Bestätigungscode für {product}.',
  whatsapp: '*{code}* ist dein Bestätigungscode. Teile diesen Code aus Sicherheitsgründen mit niemandem.',
  voice: ['Ihr Bestätigungscode für {product} lautet {code}.', 'Ich wiederhole: Ihr Code lautet {code}.'],
  voiceCall: 'Sprachanruf',
  voiceLanguage: 'de-DE',
  whatsappCall: {
    permissionBody: '{product} möchte Sie über WhatsApp anrufen, um Ihnen Ihren Bestätigungscode vorzulesen.',
    espeakVoice: 'de',
  },
};
