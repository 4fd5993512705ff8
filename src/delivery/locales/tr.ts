import type { LocaleTexts } from './texts.js';

/**
 * Formal (siz). The SMS says "onay kodu" (confirmation code), the usual wording of Turkish code
 * messages, which is all GSM-7; "doğrulama" would make it UCS-2.
 */
export const tr: LocaleTexts = {
  email: {
    subject: '{code}, {product} doğrulama kodunuzdur',
    text: '{product} doğrulama kodunuz: {code}',
    heading: '{product} doğrulama kodu',
    requestedFor: 'Amaç',
    expires: {
      one: 'Kod {minutes} dakika geçerlidir. Bu kodu siz istemediyseniz bu e-postayı dikkate almayın.',
      other: 'Kod {minutes} dakika geçerlidir. Bu kodu siz istemediyseniz bu e-postayı dikkate almayın.',
    },
    help: 'Yardım',
    colon: ': ',
    linkButton: 'E-posta adresini doğrula',
    linkIntro: 'Düğmeye tıklayın veya bu kodu girin:',
    linkText: 'Ya da doğrulamak için bu bağlantıyı açın: {link}',
  },
  linkPage: {
    title: 'E-posta adresinizi onaylayın',
    prompt: '{address} adresini {product} için doğrulamak istediğinizi onaylayın.',
    button: 'Onayla',
    verifiedTitle: 'E-posta adresi doğrulandı',
    verifiedText: 'Bu sayfayı kapatıp {product} hizmetine dönebilirsiniz.',
    goneTitle: 'Bu bağlantı artık kullanılamaz',
    goneText: 'Süresi dolmuş ya da daha önce kullanılmış. Yeni bir kod isteyin.',
    notFoundTitle: 'Bağlantı bulunamadı',
    notFoundText: 'E-postanızdaki bağlantının tamamını açtığınızdan emin olun.',
  },
  sms: '{product} onay kodunuz: {code}',
  whatsapp: '*{code}* doğrulama kodunuzdur. Güvenliğiniz için bu kodu kimseyle paylaşmayın.',
  voice: ['{product} doğrulama kodunuz: {code}.', 'Tekrar ediyorum, kodunuz: {code}.'],
  voiceCall: 'Sesli arama',
  voiceLanguage: 'tr-TR',
  whatsappCall: {
    permissionBody:
      '{product}, doğrulama kodunuzu sesli olarak iletmek için sizi WhatsApp üzerinden aramak istiyor.',
    espeakVoice: 'tr',
  },
};
