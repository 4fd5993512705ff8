import type { LocaleTexts } from './texts.js';

/** European Portuguese, also read in Angola, Mozambique and the other PALOP countries. */
export const ptPT: LocaleTexts = {
  email: {
    subject: '{code} é o seu código de verificação {product}',
    text: 'O seu código de verificação {product} é: {code}',
    heading: 'Código de verificação {product}',
    requestedFor: 'Pedido para',
    expires: {
      one: 'O código expira dentro de {minutes} minuto. Se não o pediu, ignore este e-mail.',
      other: 'O código expira dentro de {minutes} minutos. Se não o pediu, ignore este e-mail.',
    },
    help: 'Ajuda',
    colon: ': ',
    linkButton: 'Verificar endereço de e-mail',
    linkIntro: 'Clique no botão ou introduza este código:',
    linkText: 'Ou abra esta ligação para verificar: {link}',
  },
  linkPage: {
    title: 'Confirme o seu endereço de e-mail',
    prompt: 'Confirme que pretende verificar {address} para {product}.',
    button: 'Confirmar',
    verifiedTitle: 'Endereço de e-mail verificado',
    verifiedText: 'Já pode fechar esta página e voltar a {product}.',
    goneTitle: 'Esta ligação já não pode ser utilizada',
    goneText: 'Expirou ou já foi utilizada. Peça um novo código.',
    notFoundTitle: 'Ligação não encontrada',
    notFoundText: 'Verifique se abriu a ligação completa do seu e-mail.',
  },
  sms: '{code} é o seu código de verificação {product}.',
  whatsapp: '*{code}* é o seu código de verificação. Por motivos de segurança, não o partilhe.',
  voice: ['O seu código de verificação {product} é {code}.', 'Repito, o seu código é {code}.'],
  voiceCall: 'Chamada de voz',
  voiceLanguage: 'pt-PT',
  whatsappCall: {
    permissionBody: '{product} gostaria de lhe telefonar pelo WhatsApp para ler o seu código de verificação.',
    espeakVoice: 'pt',
  },
};
