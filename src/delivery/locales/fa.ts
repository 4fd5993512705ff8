import type { LocaleTexts } from './texts.js';

/**
 * Persian, right to left, with the zero-width non-joiner where Persian writes one (می‌شود). No text
 * opens with the product name, which would turn a first-strong paragraph left to right.
 */
export const fa: LocaleTexts = {
  email: {
    subject: '{code} کد تأیید شما در {product} است',
    text: 'کد تأیید شما در {product}: {code}',
    heading: 'کد تأیید {product}',
    requestedFor: 'هدف',
    expires: {
      one: 'این کد تا {minutes} دقیقهٔ دیگر منقضی می‌شود. اگر آن را درخواست نکرده‌اید، این ایمیل را نادیده بگیرید.',
      other:
        'این کد تا {minutes} دقیقهٔ دیگر منقضی می‌شود. اگر آن را درخواست نکرده‌اید، این ایمیل را نادیده بگیرید.',
    },
    help: 'راهنما',
    colon: ': ',
    linkButton: 'تأیید نشانی ایمیل',
    linkIntro: 'روی دکمه بزنید یا این کد را وارد کنید:',
    linkText: 'یا برای تأیید، این پیوند را باز کنید: {link}',
  },
  linkPage: {
    title: 'نشانی ایمیل خود را تأیید کنید',
    prompt: 'برای تأیید نشانی {address} در {product}، روی دکمهٔ زیر بزنید.',
    button: 'تأیید',
    verifiedTitle: 'نشانی ایمیل تأیید شد',
    verifiedText: 'می‌توانید این صفحه را ببندید و به {product} برگردید.',
    goneTitle: 'این پیوند دیگر قابل استفاده نیست',
    goneText: 'منقضی شده یا قبلاً استفاده شده است. کد جدیدی درخواست کنید.',
    notFoundTitle: 'پیوند پیدا نشد',
    notFoundText: 'بررسی کنید که پیوند ایمیل را کامل باز کرده باشید.',
  },
  sms: 'کد تأیید {product}: {code}',
  whatsapp: '*{code}* کد تأیید شماست. برای حفظ امنیت، این کد را در اختیار کسی قرار ندهید.',
  voice: ['کد تأیید شما در {product} عبارت است از {code}.', 'تکرار می‌کنم، کد شما عبارت است از {code}.'],
  voiceCall: 'تماس صوتی',
  voiceLanguage: 'fa-IR',
  whatsappCall: {
    permissionBody: 'برای اعلام کد تأیید، {product} می‌خواهد از طریق واتس‌اپ با شما تماس بگیرد.',
    espeakVoice: 'fa',
  },
};
