import type { LocaleTexts } from './texts.js';

/** Traditional Chinese as written in Taiwan; also the locale of zh-HK, zh-MO and zh-Hant. */
export const zhTW: LocaleTexts = {
  email: {
    subject: '{code} 是您的 {product} 驗證碼',
    text: '您的 {product} 驗證碼是：{code}',
    heading: '{product} 驗證碼',
    requestedFor: '用途',
    expires: {
      other: '驗證碼將在 {minutes} 分鐘後失效。如果這不是您本人的操作，請忽略這封電子郵件。',
    },
    help: '說明',
    colon: '：',
    linkButton: '驗證電子郵件地址',
    linkIntro: '請按一下按鈕，或輸入以下驗證碼：',
    linkText: '也可以開啟這個連結完成驗證：{link}',
  },
  linkPage: {
    title: '確認您的電子郵件地址',
    prompt: '請確認您要為 {product} 驗證電子郵件地址 {address}。',
    button: '確認',
    verifiedTitle: '電子郵件地址已驗證',
    verifiedText: '您現在可以關閉此頁面並返回 {product}。',
    goneTitle: '此連結已失效',
    goneText: '連結已過期或已使用過。請重新取得驗證碼。',
    notFoundTitle: '找不到連結',
    notFoundText: '請確認您開啟的是電子郵件中的完整連結。',
  },
  sms: '【{product}】您的驗證碼為 {code}，請勿提供給他人。',
  whatsapp: '*{code}* 是您的驗證碼。為了您的安全，請勿將此驗證碼提供給他人。',
  voice: ['您的 {product} 驗證碼是 {code}。', '再說一次，您的驗證碼是 {code}。'],
  voiceCall: '語音通話',
  voiceLanguage: 'zh-TW',
  whatsappCall: {
    permissionBody: '{product} 想透過 WhatsApp 打電話給您，為您唸出驗證碼。',
    espeakVoice: 'cmn-latn-pinyin',
    espeakScript: [
      'nin2 de5 {product} yan4 zheng4 ma3 shi4 {code}.',
      'zai4 shuo1 yi2 ci4, nin2 de5 yan4 zheng4 ma3 shi4 {code}.',
    ],
  },
};
