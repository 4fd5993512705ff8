import type { LocaleTexts } from './texts.js';

/** Simplified Chinese. The SMS opens with the sender's name in 【】, as Chinese code messages do. */
export const zhCN: LocaleTexts = {
  email: {
    subject: '{code} 是您的 {product} 验证码',
    text: '您的 {product} 验证码是：{code}',
    heading: '{product} 验证码',
    requestedFor: '用途',
    expires: {
      other: '验证码将在 {minutes} 分钟后失效。如非本人操作，请忽略此邮件。',
    },
    help: '帮助',
    colon: '：',
    linkButton: '验证邮箱地址',
    linkIntro: '点击按钮，或输入以下验证码：',
    linkText: '也可以打开此链接完成验证：{link}',
  },
  linkPage: {
    title: '确认您的邮箱地址',
    prompt: '请确认您要为 {product} 验证邮箱 {address}。',
    button: '确认',
    verifiedTitle: '邮箱地址已验证',
    verifiedText: '您现在可以关闭此页面并返回 {product}。',
    goneTitle: '此链接已失效',
    goneText: '链接已过期或已被使用。请重新获取验证码。',
    notFoundTitle: '未找到链接',
    notFoundText: '请确认您打开的是邮件中的完整链接。',
  },
  sms: '【{product}】您的验证码是 {code}，请勿泄露给他人。',
  whatsapp: '*{code}* 是您的验证码。为了您的安全，请勿向他人泄露此验证码。',
  voice: ['您的 {product} 验证码是 {code}。', '再说一遍，您的验证码是 {code}。'],
  voiceCall: '语音通话',
  voiceLanguage: 'zh-CN',
  whatsappCall: {
    permissionBody: '{product} 希望通过 WhatsApp 给您打电话，为您播报验证码。',
    espeakVoice: 'cmn-latn-pinyin',
    espeakScript: [
      'nin2 de5 {product} yan4 zheng4 ma3 shi4 {code}.',
      'zai4 shuo1 yi2 bian4, nin2 de5 yan4 zheng4 ma3 shi4 {code}.',
    ],
  },
};
