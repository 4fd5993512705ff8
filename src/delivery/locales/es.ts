import type { LocaleTexts } from './texts.js';

export const es: LocaleTexts = {
  email: {
    subject: '{code} es tu código de verificación de {product}',
    text: 'Tu código de verificación de {product} es: {code}',
    heading: 'Código de verificación de {product}',
    requestedFor: 'Solicitado para',
    expires: {
      one: 'El código caduca en {minutes} minuto. Si no lo has solicitado, ignora este correo.',
      other: 'El código caduca en {minutes} minutos. Si no lo has solicitado, ignora este correo.',
    },
    help: 'Ayuda',
  },
  sms: '{code} es tu código de verificación de {product}.',
  whatsapp: '*{code}* es tu código de verificación. Por tu seguridad, no lo compartas.',
  voice: ['Tu código de verificación de {product} es {code}.', 'Repito, tu código es {code}.'],
  voiceCall: 'Llamada de voz',
  voiceLanguage: 'es-ES',
};
