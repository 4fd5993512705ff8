import type { LocaleTexts } from './texts.js';

export const it: LocaleTexts = {
  email: {
    subject: '{code} è il tuo codice di verifica {product}',
    text: 'Il tuo codice di verifica {product} è: {code}',
    heading: 'Codice di verifica {product}',
    requestedFor: 'Richiesto per',
    expires: {
      one: "Il codice scade tra {minutes} minuto. Se non l'hai richiesto, ignora questa email.",
      other: "Il codice scade tra {minutes} minuti. Se non l'hai richiesto, ignora questa email.",
    },
    help: 'Assistenza',
    colon: ': ',
    linkButton: 'Verifica indirizzo email',
    linkIntro: 'Fai clic sul pulsante o inserisci questo codice:',
    linkText: 'Oppure apri questo link per la verifica: {link}',
  },
  linkPage: {
    title: 'Conferma il tuo indirizzo email',
    prompt: 'Conferma di voler verificare {address} per {product}.',
    button: 'Conferma',
    verifiedTitle: 'Indirizzo email verificato',
    verifiedText: 'Puoi chiudere questa pagina e tornare su {product}.',
    goneTitle: 'Questo link non è più valido',
    goneText: 'È scaduto o è già stato usato. Richiedi un nuovo codice.',
    notFoundTitle: 'Link non trovato',
    notFoundText: 'Verifica di aver aperto il link completo ricevuto via email.',
  },
  sms: '{code} è il tuo codice di verifica {product}.',
  whatsapp: '*{code}* è il tuo codice di verifica. Per la tua sicurezza, non condividerlo.',
  voice: ['Il tuo codice di verifica {product} è {code}.', 'Ripeto, il tuo codice è {code}.'],
  voiceCall: 'Chiamata vocale',
  voiceLanguage: 'it-IT',
  whatsappCall: {
    permissionBody: '{product} vorrebbe chiamarti su WhatsApp per leggerti il codice di verifica.',
    espeakVoice: 'it',
  },
};
