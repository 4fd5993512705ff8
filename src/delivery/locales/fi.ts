import type { LocaleTexts } from './texts.js';

/** The product is named in the genitive construction (palvelun X), which needs no case ending on it. */
export const fi: LocaleTexts = {
  email: {
    subject: '{code} on palvelun {product} vahvistuskoodisi',
    text: 'Palvelun {product} vahvistuskoodisi on: {code}',
    heading: 'Palvelun {product} vahvistuskoodi',
    requestedFor: 'Käyttötarkoitus',
    expires: {
      one: 'Koodi vanhenee {minutes} minuutin kuluttua. Jos et pyytänyt koodia, voit jättää tämän viestin huomiotta.',
      other:
        'Koodi vanhenee {minutes} minuutin kuluttua. Jos et pyytänyt koodia, voit jättää tämän viestin huomiotta.',
    },
    help: 'Tuki',
    colon: ': ',
    linkButton: 'Vahvista sähköpostiosoite',
    linkIntro: 'Napsauta painiketta tai syötä tämä koodi:',
    linkText: 'Voit myös vahvistaa osoitteen avaamalla tämän linkin: {link}',
  },
  linkPage: {
    title: 'Vahvista sähköpostiosoitteesi',
    prompt: 'Vahvista osoitteen {address} käyttö palvelussa {product}.',
    button: 'Vahvista',
    verifiedTitle: 'Sähköpostiosoite vahvistettu',
    verifiedText: 'Voit sulkea tämän sivun ja palata palveluun {product}.',
    goneTitle: 'Linkkiä ei voi enää käyttää',
    goneText: 'Se on vanhentunut tai sitä on jo käytetty. Pyydä uusi koodi.',
    notFoundTitle: 'Linkkiä ei löytynyt',
    notFoundText: 'Tarkista, että avasit sähköpostin linkin kokonaan.',
  },
  sms: 'Palvelun {product} vahvistuskoodisi on {code}.',
  whatsapp: '*{code}* on vahvistuskoodisi. Älä turvallisuutesi vuoksi jaa koodia kenellekään.',
  voice: ['Palvelun {product} vahvistuskoodisi on {code}.', 'Toistan, koodisi on {code}.'],
  voiceCall: 'Äänipuhelu',
  voiceLanguage: 'fi-FI',
  whatsappCall: {
    permissionBody: '{product} haluaa soittaa sinulle WhatsAppissa ja lukea vahvistuskoodisi.',
    espeakVoice: 'fi',
  },
};
