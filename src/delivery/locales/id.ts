import type { LocaleTexts } from './texts.js';

export const id: LocaleTexts = {
  email: {
    subject: '{code} adalah kode verifikasi {product} Anda',
    text: 'Kode verifikasi {product} Anda: {code}',
    heading: 'Kode verifikasi {product}',
    requestedFor: 'Keperluan',
    expires: {
      other: 'Kode ini berlaku selama {minutes} menit. Jika Anda tidak memintanya, abaikan email ini.',
    },
    help: 'Bantuan',
    colon: ': ',
    linkButton: 'Verifikasi alamat email',
    linkIntro: 'Klik tombol atau masukkan kode ini:',
    linkText: 'Atau buka tautan ini untuk verifikasi: {link}',
  },
  linkPage: {
    title: 'Konfirmasi alamat email Anda',
    prompt: 'Konfirmasikan bahwa Anda ingin memverifikasi {address} untuk {product}.',
    button: 'Konfirmasi',
    verifiedTitle: 'Alamat email terverifikasi',
    verifiedText: 'Anda dapat menutup halaman ini dan kembali ke {product}.',
    goneTitle: 'Tautan ini tidak dapat digunakan lagi',
    goneText: 'Tautan sudah kedaluwarsa atau sudah digunakan. Silakan minta kode baru.',
    notFoundTitle: 'Tautan tidak ditemukan',
    notFoundText: 'Pastikan Anda membuka tautan lengkap dari email Anda.',
  },
  sms: '{code} adalah kode verifikasi {product} Anda.',
  whatsapp: '*{code}* adalah kode verifikasi Anda. Demi keamanan, jangan bagikan kode ini.',
  voice: ['Kode verifikasi {product} Anda adalah {code}.', 'Sekali lagi, kode Anda adalah {code}.'],
  voiceCall: 'Panggilan suara',
  voiceLanguage: 'id-ID',
  whatsappCall: {
    permissionBody: '{product} ingin menelepon Anda melalui WhatsApp untuk membacakan kode verifikasi Anda.',
    espeakVoice: 'id',
  },
};
