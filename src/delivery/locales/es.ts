import type { LocaleTexts } from './texts.js';

/** Neutral Spanish (tú), as read on both sides of the Atlantic. */
export const es: LocaleTexts = {
  email: {
    subject: '{code} es tu código de verificación de {product}',
    text: 'Tu código de verificación de {product} es: {code}',
    heading: 'Código de verificación de {product}',
    requestedFor: 'Solicitado para',
    expires: {
      one: 'El código expira en {minutes} minuto. Si no lo solicitaste, ignora este correo.',
      other: 'El código expira en {minutes} minutos. Si no lo solicitaste, ignora este correo.',
    },
    help: 'Ayuda',
    colon: ': ',
    linkButton: 'Verificar correo electrónico',
    linkIntro: 'Haz clic en el botón o escribe este código:',
    linkText: 'O abre este enlace para verificar: {link}',
  },
  linkPage: {
    title: 'Confirma tu dirección de correo electrónico',
    prompt: 'Confirma que quieres verificar {address} para {product}.',
    button: 'Confirmar',
    verifiedTitle: 'Dirección de correo verificada',
    verifiedText: 'Puedes cerrar esta página y volver a {product}.',
    goneTitle: 'Este enlace ya no se puede usar',
    goneText: 'Expiró o ya se utilizó. Solicita un código nuevo.',
    notFoundTitle: 'Enlace no encontrado',
    notFoundText: 'Asegúrate de haber abierto el enlace completo del correo.',
  },
  sms: '{code} es tu código de verificación de {product}.',
  whatsapp: '*{code}* es tu código de verificación. Por tu seguridad, no lo compartas.',
  voice: ['Tu código de verificación de {product} es {code}.', 'Repito, tu código es {code}.'],
  voiceCall: 'Llamada de voz',
  voiceLanguage: 'es-MX',
  whatsappCall: {
    permissionBody: '{product} quiere llamarte por WhatsApp para leerte tu código de verificación.',
    espeakVoice: 'es-419',
  },
};
