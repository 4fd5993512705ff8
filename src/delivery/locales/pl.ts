import type { LocaleTexts } from './texts.js';

/** The SMS text is all ASCII, so it goes as GSM-7. */
export const pl: LocaleTexts = {
  email: {
    subject: '{code} to Twój kod weryfikacyjny {product}',
    text: 'Twój kod weryfikacyjny {product} to: {code}',
    heading: 'Kod weryfikacyjny {product}',
    requestedFor: 'Cel',
    expires: {
      one: 'Kod wygaśnie za {minutes} minutę. Jeśli to nie Ty, zignoruj tę wiadomość.',
      few: 'Kod wygaśnie za {minutes} minuty. Jeśli to nie Ty, zignoruj tę wiadomość.',
      many: 'Kod wygaśnie za {minutes} minut. Jeśli to nie Ty, zignoruj tę wiadomość.',
      other: 'Kod wygaśnie za {minutes} minuty. Jeśli to nie Ty, zignoruj tę wiadomość.',
    },
    help: 'Pomoc',
    colon: ': ',
    linkButton: 'Zweryfikuj adres e-mail',
    linkIntro: 'Kliknij przycisk lub wpisz ten kod:',
    linkText: 'Możesz też otworzyć ten link, aby zweryfikować adres: {link}',
  },
  linkPage: {
    title: 'Potwierdź swój adres e-mail',
    prompt: 'Potwierdź, że chcesz zweryfikować adres {address} w usłudze {product}.',
    button: 'Potwierdź',
    verifiedTitle: 'Adres e-mail zweryfikowany',
    verifiedText: 'Możesz zamknąć tę stronę i wrócić do usługi {product}.',
    goneTitle: 'Tego linku nie można już użyć',
    goneText: 'Link wygasł lub został już użyty. Poproś o nowy kod.',
    notFoundTitle: 'Nie znaleziono linku',
    notFoundText: 'Sprawdź, czy otwarto cały link z wiadomości e-mail.',
  },
  sms: 'Kod weryfikacyjny {product}: {code}',
  whatsapp: '*{code}* to Twój kod weryfikacyjny. Ze względów bezpieczeństwa nie udostępniaj go nikomu.',
  voice: ['Twój kod weryfikacyjny {product} to {code}.', 'Powtarzam, Twój kod to {code}.'],
  voiceCall: 'Połączenie głosowe',
  voiceLanguage: 'pl-PL',
  whatsappCall: {
    permissionBody: '{product} chce zadzwonić do Ciebie przez WhatsApp, aby odczytać Twój kod weryfikacyjny.',
    espeakVoice: 'pl',
  },
};
