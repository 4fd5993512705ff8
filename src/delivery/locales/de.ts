import type { LocaleTexts } from './texts.js';

export const de: LocaleTexts = {
  email: {
    subject: '{code} ist Ihr {product}-Bestätigungscode',
    text: 'Ihr {product}-Bestätigungscode lautet: {code}',
    heading: '{product}-Bestätigungscode',
    requestedFor: 'Angefordert für',
    expires: {
      one: 'Der Code läuft in {minutes} Minute ab. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
      other:
        'Der Code läuft in {minutes} Minuten ab. Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail.',
    },
    help: 'Hilfe',
  },
  sms: '{code} ist Ihr {product}-Bestätigungscode.',
  whatsapp: '*{code}* ist dein Bestätigungscode. Teile diesen Code aus Sicherheitsgründen mit niemandem.',
  voice: ['Ihr {product}-Bestätigungscode lautet {code}.', 'Noch einmal, Ihr Code lautet {code}.'],
  voiceCall: 'Sprachanruf',
  voiceLanguage: 'de-DE',
};
