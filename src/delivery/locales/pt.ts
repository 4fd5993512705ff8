import type { LocaleTexts } from './texts.js';

export const pt: LocaleTexts = {
  email: {
    subject: '{code} é o seu código de verificação {product}',
    text: 'O seu código de verificação {product} é: {code}',
    heading: 'Código de verificação {product}',
    requestedFor: 'Solicitado para',
    expires: {
      one: 'O código expira em {minutes} minuto. Se não o solicitou, ignore este e-mail.',
      other: 'O código expira em {minutes} minutos. Se não o solicitou, ignore este e-mail.',
    },
    help: 'Ajuda',
  },
  sms: '{code} é o seu código de verificação {product}.',
  whatsapp: '*{code}* é seu código de verificação. Para sua segurança, não o compartilhe.',
  voice: ['O seu código de verificação {product} é {code}.', 'Repetindo, o seu código é {code}.'],
  voiceCall: 'Chamada de voz',
  voiceLanguage: 'pt-BR',
};
