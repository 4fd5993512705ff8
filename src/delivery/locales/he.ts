import type { LocaleTexts } from './texts.js';

/**
 * Right to left. Addressed without gender: impersonal forms (יש ל…, אפשר) and verbs spelt alike
 * for both; the spoken sentences have no שלך, which a voice must say as shelkha or shelakh. A
 * foreign name after a prefix takes a hyphen (ל-{product}), and no text opens with the name, which
 * would turn a first-strong paragraph left to right.
 */
export const he: LocaleTexts = {
  email: {
    subject: '{code} הוא קוד האימות שלך ל-{product}',
    text: 'קוד האימות שלך ל-{product} הוא: {code}',
    heading: 'קוד אימות ל-{product}',
    requestedFor: 'מטרה',
    expires: {
      one: 'תוקף הקוד יפוג בעוד דקה אחת. אם לא ביקשת אותו, אפשר להתעלם מהודעה זו.',
      two: 'תוקף הקוד יפוג בעוד שתי דקות. אם לא ביקשת אותו, אפשר להתעלם מהודעה זו.',
      many: 'תוקף הקוד יפוג בעוד {minutes} דקות. אם לא ביקשת אותו, אפשר להתעלם מהודעה זו.',
      other: 'תוקף הקוד יפוג בעוד {minutes} דקות. אם לא ביקשת אותו, אפשר להתעלם מהודעה זו.',
    },
    help: 'עזרה',
    colon: ': ',
    linkButton: 'אימות כתובת האימייל',
    linkIntro: 'יש ללחוץ על הכפתור או להזין את הקוד הזה:',
    linkText: 'אפשר גם לפתוח את הקישור הזה כדי לאמת: {link}',
  },
  linkPage: {
    title: 'אישור כתובת האימייל',
    prompt: 'יש לאשר את אימות הכתובת {address} עבור {product}.',
    button: 'אישור',
    verifiedTitle: 'כתובת האימייל אומתה',
    verifiedText: 'אפשר לסגור את הדף הזה ולחזור אל {product}.',
    goneTitle: 'לא ניתן עוד להשתמש בקישור הזה',
    goneText: 'תוקפו פג או שכבר נעשה בו שימוש. יש לבקש קוד חדש.',
    notFoundTitle: 'הקישור לא נמצא',
    notFoundText: 'יש לוודא שהקישור מהאימייל נפתח במלואו.',
  },
  sms: 'קוד האימות שלך ל-{product} הוא {code}',
  whatsapp: '*{code}* הוא קוד האימות שלך. מטעמי אבטחה, אין לשתף את הקוד הזה.',
  voice: ['קוד האימות ל-{product} הוא {code}.', 'שוב, הקוד הוא {code}.'],
  voiceCall: 'שיחה קולית',
  voiceLanguage: 'he-IL',
  whatsappCall: {
    permissionBody: 'ב-{product} רוצים להתקשר אליך ב-WhatsApp כדי להקריא לך את קוד האימות.',
    espeakVoice: 'he',
    // Vowel points without dagesh, shva or the shin dot, which espeak-ng names instead of reading.
    espeakScript: ['קוֹד הָאִימוּת לֶ-{product} הוּא {code}.', 'שוּב, הַקוֹד הוּא {code}.'],
    espeakDigits: ['אֶפֶס', 'אַחַת', 'שתַיִים', 'שָלוֹש', 'ארבע', 'חָמֵש', 'שֵש', 'שֶבַע', 'שמוֹנֶה', 'תֵשַע'],
  },
};
