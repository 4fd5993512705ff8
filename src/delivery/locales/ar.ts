import type { LocaleTexts } from './texts.js';

/**
 * Modern Standard Arabic, right to left. One and two minutes are said as Arabic says them (a
 * noun, and its dual: دقيقة واحدة، دقيقتين); from three on, the digits and the noun's plural
 * (3–10) or singular (11 and more). The code stays in ASCII digits.
 */
export const ar: LocaleTexts = {
  email: {
    subject: '{code} هو رمز التحقق الخاص بك في {product}',
    text: 'رمز التحقق الخاص بك في {product} هو: {code}',
    heading: 'رمز التحقق في {product}',
    requestedFor: 'الغرض',
    expires: {
      zero: 'تنتهي صلاحية الرمز خلال أقل من دقيقة. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
      one: 'تنتهي صلاحية الرمز خلال دقيقة واحدة. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
      two: 'تنتهي صلاحية الرمز خلال دقيقتين. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
      few: 'تنتهي صلاحية الرمز خلال {minutes} دقائق. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
      many: 'تنتهي صلاحية الرمز خلال {minutes} دقيقة. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
      other: 'تنتهي صلاحية الرمز خلال {minutes} دقيقة. إذا لم تطلب هذا الرمز، فتجاهل هذه الرسالة.',
    },
    help: 'المساعدة',
    colon: ': ',
    linkButton: 'تأكيد البريد الإلكتروني',
    linkIntro: 'انقر على الزر أو أدخل هذا الرمز:',
    linkText: 'أو افتح هذا الرابط لإتمام التحقق: {link}',
  },
  linkPage: {
    title: 'تأكيد عنوان بريدك الإلكتروني',
    prompt: 'أكّد أنك تريد التحقق من العنوان {address} لاستخدامه في {product}.',
    button: 'تأكيد',
    verifiedTitle: 'تم التحقق من عنوان البريد الإلكتروني',
    verifiedText: 'يمكنك الآن إغلاق هذه الصفحة والعودة إلى {product}.',
    goneTitle: 'لم يعد بالإمكان استخدام هذا الرابط',
    goneText: 'انتهت صلاحيته أو سبق استخدامه. اطلب رمزًا جديدًا.',
    notFoundTitle: 'الرابط غير موجود',
    notFoundText: 'تأكد من أنك فتحت الرابط كاملًا من رسالة البريد الإلكتروني.',
  },
  sms: 'رمز التحقق الخاص بك في {product} هو {code}',
  whatsapp: '*{code}* هو رمز التحقق الخاص بك. للحفاظ على أمانك، لا تشارك هذا الرمز مع أحد.',
  voice: ['رمز التحقق الخاص بك في {product} هو {code}.', 'أكرر، رمزك هو {code}.'],
  voiceCall: 'مكالمة صوتية',
  voiceLanguage: 'ar-SA',
  whatsappCall: {
    permissionBody: 'يرغب {product} في الاتصال بك عبر واتساب ليقرأ عليك رمز التحقق.',
    espeakVoice: 'ar',
  },
};
