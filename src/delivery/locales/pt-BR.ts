import type { LocaleTexts } from './texts.js';

/** Brazilian Portuguese (você), the Portuguese of a bare `pt` tag. */
export const ptBR: LocaleTexts = {
  email: {
    subject: '{code} é seu código de verificação {product}',
    text: 'Seu código de verificação {product} é: {code}',
    heading: 'Código de verificação {product}',
    requestedFor: 'Solicitado para',
    expires: {
      one: 'O código expira em {minutes} minuto. Se você não o solicitou, ignore este e-mail.',
      other: 'O código expira em {minutes} minutos. Se você não o solicitou, ignore este e-mail.',
    },
    help: 'Ajuda',
    colon: ': ',
    linkButton: 'Verificar endereço de e-mail',
    linkIntro: 'Clique no botão ou digite este código:',
    linkText: 'Ou abra este link para verificar: {link}',
  },
  linkPage: {
    title: 'Confirme seu endereço de e-mail',
    prompt: 'Confirme que deseja verificar {address} para {product}.',
    button: 'Confirmar',
    verifiedTitle: 'Endereço de e-mail verificado',
    verifiedText: 'Você já pode fechar esta página e voltar para {product}.',
    goneTitle: 'Este link não pode mais ser usado',
    goneText: 'Ele expirou ou já foi usado. Solicite um novo código.',
    notFoundTitle: 'Link não encontrado',
    notFoundText: 'Verifique se você abriu o link completo do seu e-mail.',
  },
  sms: '{code} é seu código de verificação {product}.',
  whatsapp: '*{code}* é seu código de verificação. Para sua segurança, não o compartilhe.',
  voice: ['Seu código de verificação {product} é {code}.', 'Repetindo, seu código é {code}.'],
  voiceCall: 'Chamada de voz',
  voiceLanguage: 'pt-BR',
  whatsappCall: {
    permissionBody: '{product} quer ligar para você pelo WhatsApp para ler seu código de verificação.',
    espeakVoice: 'pt-br',
  },
};
