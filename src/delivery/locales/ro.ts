import type { LocaleTexts } from './texts.js';

/** Numbers from 20 take "de" (20 de minute); the SMS text is all ASCII, so it goes as GSM-7. */
export const ro: LocaleTexts = {
  email: {
    subject: '{code} este codul tău de verificare {product}',
    text: 'Codul tău de verificare {product} este: {code}',
    heading: 'Cod de verificare {product}',
    requestedFor: 'Scop',
    expires: {
      one: 'Codul expiră în {minutes} minut. Dacă nu l-ai solicitat, ignoră acest e-mail.',
      few: 'Codul expiră în {minutes} minute. Dacă nu l-ai solicitat, ignoră acest e-mail.',
      other: 'Codul expiră în {minutes} de minute. Dacă nu l-ai solicitat, ignoră acest e-mail.',
    },
    help: 'Ajutor',
    colon: ': ',
    linkButton: 'Verifică adresa de e-mail',
    linkIntro: 'Apasă butonul sau introdu acest cod:',
    linkText: 'Sau deschide acest link pentru verificare: {link}',
  },
  linkPage: {
    title: 'Confirmă adresa de e-mail',
    prompt: 'Confirmă că vrei să verifici adresa {address} pentru {product}.',
    button: 'Confirmă',
    verifiedTitle: 'Adresa de e-mail a fost verificată',
    verifiedText: 'Poți închide această pagină și reveni la {product}.',
    goneTitle: 'Acest link nu mai poate fi folosit',
    goneText: 'A expirat sau a fost deja folosit. Solicită un cod nou.',
    notFoundTitle: 'Linkul nu a fost găsit',
    notFoundText: 'Verifică dacă ai deschis linkul complet din e-mail.',
  },
  sms: 'Codul de verificare {product} este {code}.',
  whatsapp: '*{code}* este codul tău de verificare. Pentru siguranța ta, nu distribui acest cod.',
  voice: ['Codul tău de verificare {product} este {code}.', 'Repet, codul tău este {code}.'],
  voiceCall: 'Apel vocal',
  voiceLanguage: 'ro-RO',
  whatsappCall: {
    permissionBody: '{product} ar dori să te sune pe WhatsApp pentru a-ți citi codul de verificare.',
    espeakVoice: 'ro',
  },
};
