import type { LocaleTexts } from './texts.js';

/**
 * Formal (Ön). "Az Ön {product} …" keeps the article off the product name, whose a/az would
 * depend on its first sound.
 */
export const hu: LocaleTexts = {
  email: {
    subject: '{code} az Ön {product} ellenőrző kódja',
    text: 'Az Ön {product} ellenőrző kódja: {code}',
    heading: '{product} ellenőrző kód',
    requestedFor: 'Cél',
    expires: {
      one: 'A kód {minutes} perc múlva lejár. Ha nem Ön kérte, hagyja figyelmen kívül ezt az e-mailt.',
      other: 'A kód {minutes} perc múlva lejár. Ha nem Ön kérte, hagyja figyelmen kívül ezt az e-mailt.',
    },
    help: 'Súgó',
    colon: ': ',
    linkButton: 'E-mail-cím megerősítése',
    linkIntro: 'Kattintson a gombra, vagy írja be ezt a kódot:',
    linkText: 'Vagy nyissa meg ezt a linket a megerősítéshez: {link}',
  },
  linkPage: {
    title: 'Erősítse meg e-mail-címét',
    prompt: 'Erősítse meg a(z) {address} cím ellenőrzését ({product}).',
    button: 'Megerősítés',
    verifiedTitle: 'E-mail-cím megerősítve',
    verifiedText: 'Bezárhatja ezt az oldalt, és visszatérhet ide: {product}.',
    goneTitle: 'Ez a link már nem használható',
    goneText: 'Lejárt, vagy már felhasználták. Kérjen új kódot.',
    notFoundTitle: 'A link nem található',
    notFoundText: 'Ellenőrizze, hogy a teljes linket nyitotta-e meg az e-mailből.',
  },
  sms: 'Az Ön {product} ellenőrző kódja: {code}',
  whatsapp: '*{code}* az Ön ellenőrző kódja. Biztonsága érdekében ne ossza meg senkivel ezt a kódot.',
  voice: ['Az Ön {product} ellenőrző kódja: {code}.', 'Ismétlem, a kódja: {code}.'],
  voiceCall: 'Hanghívás',
  voiceLanguage: 'hu-HU',
  whatsappCall: {
    permissionBody: '{product} WhatsApp-hívásban szeretné felolvasni Önnek az ellenőrző kódját.',
    espeakVoice: 'hu',
  },
};
