import type { LocaleTexts } from './texts.js';

/** Thai separates sentences, not words, with a space. */
export const th: LocaleTexts = {
  email: {
    subject: '{code} คือรหัสยืนยัน {product} ของคุณ',
    text: 'รหัสยืนยัน {product} ของคุณคือ {code}',
    heading: 'รหัสยืนยัน {product}',
    requestedFor: 'วัตถุประสงค์',
    expires: {
      other: 'รหัสนี้จะหมดอายุใน {minutes} นาที หากคุณไม่ได้ขอรหัสนี้ โปรดละเว้นอีเมลฉบับนี้',
    },
    help: 'ความช่วยเหลือ',
    colon: ': ',
    linkButton: 'ยืนยันอีเมล',
    linkIntro: 'คลิกปุ่ม หรือกรอกรหัสนี้:',
    linkText: 'หรือเปิดลิงก์นี้เพื่อยืนยัน: {link}',
  },
  linkPage: {
    title: 'ยืนยันที่อยู่อีเมลของคุณ',
    prompt: 'กดปุ่มด้านล่างเพื่อยืนยันอีเมล {address} สำหรับ {product}',
    button: 'ยืนยัน',
    verifiedTitle: 'ยืนยันอีเมลเรียบร้อยแล้ว',
    verifiedText: 'คุณสามารถปิดหน้านี้และกลับไปที่ {product} ได้',
    goneTitle: 'ลิงก์นี้ใช้งานไม่ได้แล้ว',
    goneText: 'ลิงก์หมดอายุหรือถูกใช้ไปแล้ว โปรดขอรหัสใหม่',
    notFoundTitle: 'ไม่พบลิงก์',
    notFoundText: 'โปรดตรวจสอบว่าคุณเปิดลิงก์จากอีเมลครบถ้วน',
  },
  sms: 'รหัสยืนยัน {product} ของคุณคือ {code}',
  whatsapp: '*{code}* คือรหัสยืนยันของคุณ เพื่อความปลอดภัย โปรดอย่าแชร์รหัสนี้กับผู้อื่น',
  voice: ['รหัสยืนยัน {product} ของคุณคือ {code}', 'ขอย้ำอีกครั้ง รหัสของคุณคือ {code}'],
  voiceCall: 'การโทรด้วยเสียง',
  voiceLanguage: 'th-TH',
  whatsappCall: {
    permissionBody: '{product} ต้องการโทรหาคุณทาง WhatsApp เพื่ออ่านรหัสยืนยันให้คุณฟัง',
    espeakVoice: 'th',
  },
};
